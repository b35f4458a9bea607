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

from core.config import FamilyConfig, PipelineConfig
from core.embeddings import TableRows, row_seeded_rows
from core.pipeline import position_rows
from core.positional import alibi_bias, apply_rope, shaw_relative_indices, t5_relative_bucket

LOGIT_CHUNK_ELEMENTS = 2**18  # distance × dimension values computed at once


CURVE_POINTS = 400  # distances drawn per method on the logit chart


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
