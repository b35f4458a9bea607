"""What each positional-encoding family contributes, measured on the same axes.

Every family is compared through one quantity: the **position-only contribution to the attention
logit**. Take weight-free attention (W_Q = W_K = I, scores divided by √d), give the query and the
key the same content — one random N(0, 1) vector u drawn with the seed, so that only their
positions differ — and subtract the score NoPE would give. What is left is what position alone
adds to the score, wherever the method injects it: at the input (learned, sinusoidal), into the
keys (Shaw), as a bias on the logit (T5, ALiBi) or by rotating query and key (RoPE).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from core.config import MAX_USED_LENGTH, FamilyConfig, PipelineConfig
from core.embeddings import TableRows, row_seeded_rows
from core.pipeline import position_rows
from core.positional import alibi_bias, apply_rope, shaw_relative_indices, t5_relative_bucket

LOGIT_CHUNK_ELEMENTS = 2**18  # distance × dimension values computed at once


CURVE_POINTS = 400  # distances drawn per method on the logit chart


def drawn_span(context_length: int, fam: FamilyConfig) -> int:
    """How far chart 1 looks: the used length, and at least twice the farthest distance that T5
    (``max_distance``) or Shaw (``clip``) tell apart, so that their flat tails show at any context."""
    used = fam.extrapolate * context_length
    return min(MAX_USED_LENGTH, max(used, 2 * max(fam.max_distance, fam.clip)))


def flat_from(distances: torch.Tensor, y: torch.Tensor) -> int | None:
    """The first drawn distance from which ``y`` [R] stays at its last value (None: no flat tail)."""
    same = (y - y[-1]).abs() <= 1e-12 * max(1.0, float(y.abs().max()))  # [R]
    if len(y) < 3 or not bool(same[-3:].all()):
        return None
    k = len(y) - 1
    while k > 0 and bool(same[k - 1]):
        k -= 1
    return int(distances[k])


def last_distinct(name: str, fam: FamilyConfig) -> int:
    """The first distance that T5 (its last bucket) or Shaw (its clip) no longer tells apart."""
    if name == "shaw":
        return fam.clip
    r = torch.arange(MAX_USED_LENGTH + 1)
    buckets = t5_relative_bucket(
        -r, bidirectional=False, num_buckets=fam.buckets, max_distance=fam.max_distance
    )
    return int(r[buckets == buckets.max()][0])


def logit_findings(
    name: str, distances: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig
) -> str:
    """One sentence on what chart 1's curve ``y`` [R] of method ``name`` shows, from its numbers.

    NaN in ``y`` marks distances the method cannot reach (a learned table past its rows).
    """
    label, ok = FAMILIES[name].label, ~torch.isnan(y)
    r, v = distances[ok], y[ok]
    if name == "nope":
        zero = "exactly 0 at every distance" if bool((v == 0).all()) else "not 0"
        return f"{label} is {zero}: the score cannot depend on order."
    if name == "alibi":
        slope = float((v[-1] - v[0]) / (r[-1] - r[0])) if len(r) > 1 else 0.0
        straight = float((v - (v[0] + slope * (r - r[0]))).abs().max()) <= 1e-9 * max(
            1.0, float(v.abs().max())
        )
        shape = "a straight line" if straight else "not a straight line"
        return f"{label} is {shape}: {slope:+.4g} per token of distance (head 1's slope), with no end."
    if name in ("t5", "shaw"):
        limit = f"max distance {fam.max_distance}" if name == "t5" else f"clip {fam.clip}"
        start = flat_from(r, v)
        if start is not None and start < last_distinct(name, fam):  # equal values, but not its last one
            start = None
        if start is None:
            return f"{label} still changes at the last drawn distance ({int(r[-1]):,}; {limit})."
        return f"{label} is flat from distance {start:,} on ({limit}): all farther keys look alike to it."
    if name == "rope":
        low = int(torch.argmin(v))
        return (
            f"{label} is {float(v[0]):+.3f} at r = 0 and dips to {float(v[low]):+.3f} at "
            f"r = {int(r[low]):,}: nearby keys keep more of their score than far ones, with wobbles."
        )
    if name == "sinusoidal":
        high = int(torch.argmax(v))
        return (
            f"{label} is highest at r = {int(r[high]):,} ({float(v[high]):+.3f}) and "
            f"{float(v[-1]):+.3f} at r = {int(r[-1]):,}: a smooth, rippling function of distance."
        )
    past = "" if bool(ok.all()) else f"; past r = {context_length - 1:,} it has no rows, so its curve stops"
    return (
        f"{label} (untrained) goes from {float(v.min()):+.3f} to {float(v.max()):+.3f} with no trend"
        f", {float(v[0]):+.3f} at r = 0 where a position meets itself{past}."
    )


@dataclass(frozen=True)
class Family:
    """A positional-encoding family as a student meets it."""

    name: str  # the URL value of ``method``
    label: str  # short display name
    kind: str  # "none", "absolute" or "relative"
    injects: str  # where position enters the model
    source: str  # paper and the code people copy
    extrapolates: str  # what happens past the trained length


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "nope",
            "NoPE",
            "none",
            "nowhere",
            "the lesson's starting point",
            "nothing to extrapolate (only a causal mask leaks some order)",
        ),
        Family(
            "learned",
            "Learned absolute",
            "absolute",
            "input add",
            "GPT-2 (Radford et al. 2019)",
            "no row past the context length: nn.Embedding raises IndexError",
        ),
        Family(
            "sinusoidal",
            "Sinusoidal",
            "absolute",
            "input add",
            "Vaswani et al. 2017 §3.5",
            "defined for any position, but never seen in training",
        ),
        Family(
            "shaw",
            "Shaw relative",
            "relative",
            "key (and value) vectors",
            "Shaw, Uszkoreit & Vaswani 2018",
            "offsets past the clip share the last vector",
        ),
        Family(
            "t5",
            "T5 bias",
            "relative",
            "logit bias",
            "Raffel et al. 2020 (T5)",
            "offsets past max_distance share the last bucket",
        ),
        Family(
            "alibi",
            "ALiBi",
            "relative",
            "logit bias",
            "Press, Smith & Lewis 2022",
            "the linear penalty simply continues",
        ),
        Family(
            "rope",
            "RoPE",
            "relative",
            "query/key rotation",
            "Su et al. 2021 (RoFormer)",
            "rotations continue; slow pairs reach angles never seen in training",
        ),
    )
}


def seeded_normal(shape: tuple[int, ...], std: float, seed: int, stream: int) -> torch.Tensor:
    """N(0, std²) values from a generator of their own (``stream`` separates the tables)."""
    g = torch.Generator().manual_seed(seed * 1_000_003 + stream)
    return torch.randn(shape, generator=g) * std


def shaw_key_vectors(head_dim: int, seed: int, rows: torch.Tensor) -> torch.Tensor:
    """Rows ``rows`` [K] of Shaw's untrained a^K table [2k+1, head_dim], N(0, 1).

    Each row has its own seeded generator, so the cost is K rows whatever the clip.
    """
    return row_seeded_rows(rows, head_dim, seed * 1_000_003 + 1)  # [K, dh]


def t5_bias_table(fam: FamilyConfig, dim: int, seed: int) -> torch.Tensor:
    """T5's untrained bias table [buckets, H]: N(0, d^-1), as Hugging Face initializes it."""
    return seeded_normal((fam.buckets, fam.heads), dim**-0.5, seed, stream=2)


def learned_table_rows(
    positions: torch.Tensor, cfg: PipelineConfig, std: float, state: torch.Tensor | None
) -> TableRows:
    """Rows of the learned table, initialised N(0, std²), at ``positions`` [P] below the context length.

    ``state``: the generator's state after the token table (None when row-seeded); positions at or
    past the context length have no row and are left out.
    """
    positions = positions[positions < cfg.context_length]
    table = PipelineConfig(
        cfg.vocab_size, cfg.output_dim, cfg.context_length, seed=cfg.seed, method="learned"
    )
    return TableRows(positions, position_rows(table, positions, state).rows * std)


def content_vector(dim: int, seed: int) -> torch.Tensor:
    """The content u that query and key share in ``position_logits``: [d] N(0, 1), float64."""
    return seeded_normal((dim,), 1.0, seed, stream=3).double()


def _additive(rows: TableRows, distances: torch.Tensor, u: torch.Tensor) -> torch.Tensor:
    # query at position r, key at position 0: ((u + p_r)·(u + p_0) - u·u) / √d
    p = rows.lookup(distances).double()  # [R, d]
    p0 = rows.lookup(torch.zeros(1, dtype=torch.long)).double()[0]  # [d]
    return ((u + p) @ (u + p0) - u @ u) / math.sqrt(len(u))


def position_logits(
    method: str,
    distances: torch.Tensor,
    fam: FamilyConfig,
    dim: int,
    seed: int,
    additive_rows: TableRows | None = None,
    context_length: int | None = None,
) -> torch.Tensor:
    """Position-only contribution to the logit of a query at position r for a key at position 0.

    Args:
        method: a ``FAMILIES`` name.
        distances: [R] the query positions r (= distances back to the key at 0).
        additive_rows: rows of the learned or sinusoidal table covering 0 and ``distances``.
        context_length: the learned table's length; positions past it give NaN (no row).
    Returns:
        [R] float64; heads: T5 and ALiBi show head 1 (ALiBi's steepest slope).
    """
    # In chunks of distances, so that [R, d] temporaries stay small even at d = 16384.
    size = max(1, LOGIT_CHUNK_ELEMENTS // dim)
    parts = [
        _position_logits(method, r, fam, dim, seed, additive_rows, context_length)
        for r in distances.split(size)
    ]
    return torch.cat(parts) if parts else torch.zeros(0, dtype=torch.float64)


def _position_logits(
    method: str,
    distances: torch.Tensor,
    fam: FamilyConfig,
    dim: int,
    seed: int,
    additive_rows: TableRows | None,
    context_length: int | None,
) -> torch.Tensor:
    head_dim = dim // fam.heads
    r = distances.long()
    u = content_vector(dim, seed)  # [d]; RoPE and Shaw use its first head_dim entries
    if method == "nope":
        return torch.zeros(len(r), dtype=torch.float64)
    if method in ("learned", "sinusoidal"):
        if method == "learned" and context_length is not None:
            out = torch.full((len(r),), math.nan, dtype=torch.float64)
            inside = r < context_length
            out[inside] = _additive(additive_rows, r[inside], u)
            return out
        return _additive(additive_rows, r, u)
    if method == "shaw":
        with_key = torch.cat([torch.zeros(1, dtype=torch.long), r])  # [1 + R]: the key at 0, then queries
        index = shaw_relative_indices(len(with_key), fam.clip, with_key)[1:, 0]  # [R]: query r, key 0
        rows, inverse = torch.unique(index, return_inverse=True)  # [K], [R]
        a_k = shaw_key_vectors(head_dim, seed, rows).double()  # [K, dh]
        return a_k[inverse] @ u[:head_dim] / math.sqrt(head_dim)  # u·(u + a) - u·u = u·a
    if method == "t5":
        buckets = t5_relative_bucket(
            -r, bidirectional=False, num_buckets=fam.buckets, max_distance=fam.max_distance
        )  # [R]
        return t5_bias_table(fam, dim, seed)[buckets, 0].double()
    if method == "alibi":
        with_key = torch.cat([torch.zeros(1, dtype=torch.long), r])  # [1 + R]: the key at 0, then queries
        return alibi_bias(fam.heads, len(with_key), with_key)[0, 1:, 0].double()  # head 1: query r, key 0
    if method == "rope":
        uh = u[None, :head_dim]  # [1, dh]
        interleaved = fam.pairing == "interleaved"
        q = apply_rope(uh.expand(len(r), head_dim), r, fam.base, interleaved)  # [R, dh]
        k = apply_rope(uh, torch.zeros(1, dtype=torch.long), fam.base, interleaved)[0]  # [dh]
        return (q @ k - uh[0] @ uh[0]) / math.sqrt(head_dim)
    raise ValueError(f"Unknown positional method {method!r}.")


def similarity_findings(name: str, positions: torch.Tensor, sim: torch.Tensor) -> str:
    """One sentence on a [P, P] cosine-similarity matrix of position vectors, from its numbers."""
    label = FAMILIES[name].label
    gap = (positions[None, :] - positions[:, None]).abs()  # [P, P]
    spread = max(float(sim[gap == g].max() - sim[gap == g].min()) for g in gap.unique().tolist())
    off = sim[gap > 0].abs()
    if spread <= 1e-5:  # float32 tables: equal up to rounding
        near = float(sim[gap == gap[gap > 0].min()].mean()) if bool((gap > 0).any()) else 1.0
        return (
            f"{label}: the similarity depends only on the distance |i − j| (stripes parallel to the "
            f"diagonal), {near:.2f} for the nearest drawn pair, the same everywhere along the sequence."
        )
    mean_off = float(off.mean()) if len(off) else 0.0
    return (
        f"{label}: only the diagonal is 1; other pairs average |cos| = {mean_off:.2f}"
        + (", close to 0: neighbours are no more alike than distant positions" if mean_off < 0.15 else "")
        + " — training has to discover that neighbours should be similar."
    )
