"""Relative position representations (Shaw, Uszkoreit & Vaswani 2018, §3).

Attention learns one key vector ``a^K`` and one value vector ``a^V`` per clipped offset
``clip(j − i, k)``, 2k + 1 of each. Offsets beyond ±k share the end vectors, so the model can
run on sequences longer than it was trained on.
"""

from __future__ import annotations

import math

import torch

from core.embeddings import row_seeded_rows
from core.positional.family import (
    Family,
    FamilyConfig,
    LogitInputs,
    Param,
    ScoreInputs,
    ScriptCode,
    content_vector,
    flat_tail_sentence,
)
from core.views.colors import FAMILY_COLORS, FAMILY_DASHES
from core.views.glossary import define


def shaw_relative_indices(length: int, clip: int, positions: torch.Tensor | None = None) -> torch.Tensor:
    """Row of ``rel_k``/``rel_v`` used by each query–key pair: ``clip(j − i, −k, k) + k``.

    Args:
        length: L.
        clip: k ≥ 0, the largest offset with a vector of its own.
        positions: [P] the positions (within ``0 … L−1``) to evaluate, e.g. a chart's sample; default all.
    Returns:
        [P, P] int64 in ``[0, 2k]`` (P = L by default); row i is the query, column j the key.
    """
    if clip < 0:
        raise ValueError(f"The clipping distance k must be ≥ 0 (got {clip}).")
    positions = torch.arange(length) if positions is None else positions
    offset = positions[None, :] - positions[:, None]  # [P, P]  j − i
    return offset.clamp(-clip, clip) + clip  # [P, P]


def shaw_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    rel_k: torch.Tensor,
    rel_v: torch.Tensor,
    clip: int,
    causal: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Self-attention with relative key and value vectors (the paper's eqs. 3 and 4).

    ``e_ij = q_i·(k_j + a^K_ij) / √d``, ``α = softmax_j(e)``, ``z_i = Σ_j α_ij (v_j + a^V_ij)``.

    Args:
        q, k, v: [..., L, d] projected queries, keys and values (one head or many).
        rel_k, rel_v: [2k + 1, d] the learned a^K and a^V, row ``offset + k``.
        clip: k.
        causal: mask keys after the query (the paper's decoder).
    Returns:
        ``(z, weights)``: [..., L, d] outputs and [..., L, L] attention weights.
    """
    L, d = q.shape[-2:]
    if rel_k.shape != (2 * clip + 1, d) or rel_v.shape != (2 * clip + 1, d):
        raise ValueError(
            f"rel_k and rel_v must be [2k + 1, d] = [{2 * clip + 1}, {d}] "
            f"(got {list(rel_k.shape)} and {list(rel_v.shape)})."
        )
    index = shaw_relative_indices(L, clip)  # [L, L]
    a_k = rel_k[index]  # [L, L, d]
    a_v = rel_v[index]  # [L, L, d]
    # Split as in the paper's §3.3: q·k_j as a batched matmul, plus q·a^K_ij shared over the batch.
    scores = q @ k.transpose(-2, -1) + torch.einsum("...id,ijd->...ij", q, a_k)  # [..., L, L]
    scores = scores / math.sqrt(d)  # [..., L, L]
    if causal:
        future = torch.ones(L, L, dtype=torch.bool).triu(1)  # [L, L]  j > i
        scores = scores.masked_fill(future, float("-inf"))  # [..., L, L]
    weights = scores.softmax(dim=-1)  # [..., L, L]
    z = weights @ v + torch.einsum("...ij,ijd->...id", weights, a_v)  # [..., L, d]
    return z, weights


CLIP = Param(
    "clip",
    "Shaw clip k",
    16,  # the paper's base model
    "Shaw relative's farthest distance with a vector of its own: a key more than k tokens away from "
    "the token looking at it gets the vector of distance k.",
    low=0,
    high=8_192,
    words=f"The {define('clip', 'clip k')}.",
    script="Shaw's k: offsets past ±k share one vector",
)


def shaw_key_vectors(head_dim: int, seed: int, rows: torch.Tensor) -> torch.Tensor:
    """Rows ``rows`` [K] of Shaw's untrained a^K table [2k+1, head_dim], N(0, 1).

    Each row has its own seeded generator, so the cost is K rows whatever the clip.
    """
    return row_seeded_rows(rows, head_dim, seed * 1_000_003 + 1)  # [K, dh]


def shaw_logits(x: LogitInputs) -> torch.Tensor:
    head_dim = x.dim // x.fam.heads
    r = x.distances.long()  # [R]
    u = content_vector(x.dim, x.seed)  # [d]; the first head_dim entries are head 1's share
    with_key = torch.cat([torch.zeros(1, dtype=torch.long), r])  # [1 + R]: the key at 0, then queries
    index = shaw_relative_indices(len(with_key), x.fam.clip, with_key)[1:, 0]  # [R]: query r, key 0
    rows, inverse = torch.unique(index, return_inverse=True)  # [K], [R]
    a_k = shaw_key_vectors(head_dim, x.seed, rows).double()  # [K, dh]
    return a_k[inverse] @ u[:head_dim] / math.sqrt(head_dim)  # u·(u + a) − u·u = u·a


def shaw_score_bias(x: ScoreInputs) -> torch.Tensor:
    """Eq. (4)'s relative term of one head, ``q_i·a^K_ij / √dh``: [T, T] float64 (a^K shared, §3.3)."""
    T, dh = x.q.shape
    index = shaw_relative_indices(T, x.fam.clip, x.positions)  # [T, T] rows of a^K
    rows, inverse = torch.unique(index, return_inverse=True)  # [K], [T, T]
    a_k = shaw_key_vectors(dh, x.seed, rows).double()  # [K, dh]
    per_row = x.q.double() @ a_k.T  # [T, K]: q_i·a^K for every offset used, never a [T, T, dh] tensor
    return per_row.gather(1, inverse) / math.sqrt(dh)  # [T, T]


def shaw_past(context_length: int, dim: int, fam: FamilyConfig) -> str:
    """Past the clip, one shared vector: what a far key gets."""
    k = fam.clip
    if k == 0:
        return "the one vector every distance gets (clip 0)"
    return f"its distance's vector; every distance past the clip {k:,} gets distance {k:,}'s"


def describe_shaw(
    label: str, r: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig
) -> str:
    return flat_tail_sentence(label, r, y, f"clip {fam.clip}", last_distinct=fam.clip)


def shaw_fact(fam: FamilyConfig, head: int, distances: list[int], causal: bool, consequence: bool) -> str:
    """Shaw's key fact on the Attention page: one vector per distance up to the clip."""
    learns = f"Shaw learns one vector aᴷ per distance, up to a {define('clip')} of ±{fam.clip}"
    if not consequence:
        return f"{learns}, and adds q·aᴷ/√dh to the score of a key that far from the query."
    return (
        f"{learns}: the term q·aᴷ/√dh depends on the query's token and the distance only, and all keys more "
        f"than {fam.clip} tokens away share one vector."
    )


# The app's row seeds (core.embeddings.row_seeded_rows) as the scripts write them: splitmix64 of seed, row.
ROW_SEED = """def row_seed(seed, row):
    x = (seed * 0x9E3779B97F4A7C15 + row * 0xBF58476D1CE4E5B9) % 2**64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) % 2**64
    return (x ^ (x >> 31)) >> 1"""
# Its a^K as the scripts draw it, row by row, for a head dim written as {head_dim}.
KEY_VECTORS = """rel_k, g = torch.empty(2 * clip + 1, {head_dim}), torch.Generator()  # [2k + 1, dh]
for row in range(2 * clip + 1):
    rel_k[row].normal_(generator=g.manual_seed(row_seed(seed * 1_000_003 + 1, row)))"""
CODE = ScriptCode(
    functions=(
        """def relative_positions(positions, clip):
    # Shaw et al. 2018 §3.2; tensor2tensor _generate_relative_positions_matrix: clip(j − i, −k, k) + k
    distance = positions[None, :] - positions[:, None]  # [P, P] j − i, query i (row), key j (column)
    return distance.clamp(-clip, clip) + clip  # [P, P]""",
    ),
    tables="""\
# Shaw's a^K has 2k + 1 rows of N(0, 1). The app seeds each row's generator on its own (splitmix64 of
# seed and row), so that a clip of 8,192 costs only the rows it draws; the script does the same.
"""
    + ROW_SEED
    + "\n\n\n"
    + KEY_VECTORS.format(head_dim="head_dim"),
    curve="rel_k.double()[relative_positions(distances, clip)[:, 0]] @ uh / math.sqrt(head_dim)  # u·a^K",
    attention_settings="clip = {fam.clip}  # Shaw's k: offsets past ±k share one vector",
    attention_cell=(
        """\
# Shaw et al. 2018 §3: a^K, one vector per clipped offset clip(j − i, −k, k): 2k + 1 rows,
# N(0, 1) (untrained). The app seeds each row's generator on its own (splitmix64 of seed and row).
"""
        + ROW_SEED,
        KEY_VECTORS.format(head_dim="output_dim // heads"),
    ),
    attention_scores="""\
index = (positions[None, :] - positions[:, None]).clamp(-clip, clip) + clip  # [T, T] a^K's rows
scores = content + (q0 @ rel_k.double().T).gather(1, index) / math.sqrt(head_dim)  # + q_i·a^K_ij/√dh""",
)

FAMILY = Family(
    name="shaw",
    label="Shaw relative",
    kind="relative",
    injects="key (and value) vectors",
    where="Shaw relative adds a learned vector for each distance, up to a largest one, inside attention",
    source="Shaw, Uszkoreit & Vaswani 2018",
    extrapolates=shaw_past,
    help="shaw: a learned vector for each distance between two tokens, used inside attention; all "
    "distances past the clip k share one.",
    gives="adds, inside attention, a learned vector for each distance between two tokens, one vector "
    "shared by all distances past a limit",
    logits=shaw_logits,
    describe_logits=describe_shaw,
    params=(CLIP,),
    # a^K and a^V, 2k + 1 rows of d/H each, shared across heads (paper §3.3)
    parameter_count=lambda T, d, fam: 2 * (2 * fam.clip + 1) * (d // fam.heads),
    score_bias=shaw_score_bias,
    color=FAMILY_COLORS["shaw"],
    dash=FAMILY_DASHES["shaw"],
    code=CODE,
    key_fact=shaw_fact,
)
