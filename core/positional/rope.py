"""Rotary position embedding, RoPE (Su et al. 2021, "RoFormer", §3.4).

Queries and keys are rotated, pair of coordinates by pair, by the angle ``p·θ_i`` with
``θ_i = base^(-2i/d)``. A rotation by ``m·θ`` dotted with one by ``n·θ`` depends only on
``m − n``, so the attention logit sees relative position only. Two pairings exist in code:

* interleaved, ``(2i, 2i+1)``: the paper and Meta's LLaMA ``apply_rotary_emb`` (complex numbers);
* half, ``(i, i + d/2)``: GPT-NeoX and Hugging Face ``apply_rotary_pos_emb`` with ``rotate_half``.

They differ by a fixed permutation of the d coordinates (``rope_pairing_permutation``), which HF's
LLaMA weight conversion folds into the query and key projections.
"""

from __future__ import annotations

import math

import torch

from core.positional.family import Family, FamilyConfig, LogitInputs, Param, ScriptCode, content_vector
from core.positional.sinusoidal import BASE, check_base
from core.views.colors import FAMILY_COLORS, FAMILY_DASHES
from core.views.units import count_of, plural


def _check_dim(dim: int) -> None:
    """Raise ``ValueError`` for an odd d: RoPE has no partner for the last coordinate."""
    if dim % 2:
        raise ValueError(f"RoPE rotates pairs of coordinates, so it needs an even dimension (got {dim}).")


def rope_inv_freq(dim: int, base: float = 10000.0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """The rotation frequencies ``θ_i = base^(-2i/d)``, as HF computes them.

    HF builds ``inv_freq`` and the angles in float32 even for bf16/fp16 models, because angles like
    ``p·θ_i`` lose their fractional part in half precision (transformers PR #29285).

    Args:
        dim: d, even.
        base: 10000 in the paper and LLaMA 1/2 (500000 in LLaMA 3).
        dtype: float32 as HF; float64 for exact checks.
    Returns:
        [d/2] in ``dtype``.
    """
    _check_dim(dim)
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=dtype) / dim))  # [d/2]


def apply_rope(
    x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0, interleaved: bool = True
) -> torch.Tensor:
    """``apply_rotary`` with its inputs checked: rotate each query or key vector by its position.

    Args:
        x: [..., T, d] queries or keys, d even.
        positions: [T] integer positions.
        base: as ``rope_inv_freq``.
        interleaved: pair ``(2i, 2i+1)`` (paper, LLaMA) if True, else ``(i, i + d/2)`` (NeoX, HF).
    Returns:
        [..., T, d], same dtype as ``x``.
    """
    T, d = x.shape[-2:]
    _check_dim(d)
    if positions.shape != (T,):
        raise ValueError(f"positions must be [T] = [{T}] to match x (got {list(positions.shape)}).")
    return apply_rotary(x, positions, base, interleaved)


# The rotation as the page's scripts show it. Angles are float32, as HF and Meta compute them even for
# half-precision models (transformers PR #29285), so a float32 x matches HF bit for bit; a float64 x (the
# pages' exact checks) gets float64 angles. The result keeps x's dtype.
def rotate_half(x):
    # HF's rotate_half (GPT-NeoX's pairing): [x1, x2] -> [-x2, x1] on the two halves of the last dim
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary(x, positions, base=10000.0, interleaved=True):
    # RoFormer §3.4 (Su et al. 2021): turn each pair of x [..., T, d] by p·θ_i, θ_i = base^(-2i/d), so that
    # a rotated q·k depends on the distance only.
    d = x.shape[-1]
    dtype = torch.float64 if x.dtype == torch.float64 else torch.float32  # float32 angles, as HF's
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=dtype) / d))  # [d/2] θ_i
    angles = positions.to(dtype)[:, None] * inv_freq  # [T, d/2] p·θ_i
    if interleaved:  # the paper, Meta's LLaMA apply_rotary_emb: x[2i] turns with x[2i+1]
        cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)  # [T, d/2] each
        x1, x2 = x.unflatten(-1, (d // 2, 2)).unbind(-1)  # [..., T, d/2] each
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)  # [..., T, d]
    emb = torch.cat((angles, angles), dim=-1)  # [T, d] HF's apply_rotary_pos_emb: x[i] turns with x[i + d/2]
    return x * emb.cos().to(x.dtype) + rotate_half(x) * emb.sin().to(x.dtype)  # [..., T, d]


def rope_pairing_permutation(dim: int) -> torch.Tensor:
    """The coordinate order that turns the interleaved pairing into the half pairing.

    ``apply_rope(x, pos, interleaved=True)[..., P] == apply_rope(x[..., P], pos, interleaved=False)``.

    Args:
        dim: d, even.
    Returns:
        [d] int64: ``[0, 2, …, d−2, 1, 3, …, d−1]``.
    """
    _check_dim(dim)
    return torch.cat((torch.arange(0, dim, 2), torch.arange(1, dim, 2)))  # [d]


def rope_long_term_decay(
    dim: int, max_distance: int, base: float = 10000.0, distances: torch.Tensor | None = None
) -> torch.Tensor:
    """RoFormer's bound on the logit at relative distance r, ``(1/(d/2))·Σ_{j=1}^{d/2} |S_j|`` (§3.4.3).

    ``S_j = Σ_{k<j} e^{i·r·θ_k}``; by Abel summation the logit is at most ``max |h_{k+1} − h_k|``
    times ``Σ_j |S_j|``, and this mean falls, with ripples, as r grows (the paper's Figure 2).

    Args:
        dim: d, even.
        max_distance: the largest r.
        base: as ``rope_inv_freq``.
        distances: [R] the r to evaluate (default: all of 0 … max_distance); a chart passes a sample.
    Returns:
        [R] float64 (R = max_distance + 1 by default); the value at r = 0 is (d/2 + 1)/2.
    """
    _check_dim(dim)
    if max_distance < 0:
        raise ValueError(f"max_distance must be non-negative (got {max_distance}).")
    theta = rope_inv_freq(dim, base, torch.float64)  # [d/2]
    r = torch.arange(max_distance + 1) if distances is None else distances
    r = r.to(torch.float64)  # [R]
    out = torch.empty(len(r), dtype=torch.float64)  # [R]
    rows = max(1, 2**18 // len(theta))  # complex temporaries stay ~10 MB at any d
    for start in range(0, len(r), rows):
        phase = r[start : start + rows, None] * theta  # [r, d/2]
        partial_sums = torch.polar(torch.ones_like(phase), phase).cumsum(dim=-1)  # [r, d/2]  S_1 … S_{d/2}
        out[start : start + rows] = partial_sums.abs().mean(dim=-1)
    return out


PAIRINGS = ("interleaved", "halves")
PAIRING = Param(
    "pairing",
    "RoPE: numbers turned together",
    "interleaved",
    "Which numbers of a query and a key RoPE turns together: interleaved pairs neighbours, numbers 0 and "
    "1, 2 and 3, …, as the paper; halves pairs number i with number i + dh/2, as GPT-NeoX and Hugging "
    "Face's code. The same turning, with the numbers in another order.",
    options=PAIRINGS,
    option_words=("neighbours: 0 and 1, 2 and 3, … (the paper)", "i and i + dh/2 (GPT-NeoX, Hugging Face)"),
    script="(2i, 2i+1): RoFormer, Meta's LLaMA; halves (i, i + d/2): rotate_half, NeoX, HF",
)


def rope_shift_table(
    q: torch.Tensor, k: torch.Tensor, m: int, n: int, shifts: list[int], base: float, interleaved: bool
) -> torch.Tensor:
    """q·k after rotating q to position m + s and k to n + s, for each shift s: [S].

    Every entry is the same up to rounding: the logit sees only m − n (RoFormer §3.4.2).
    Args:
        q, k: [dh] a query and a key (float64 for exact checks).
    """
    logits = []
    for s in shifts:
        qm = apply_rope(q[None], torch.tensor([m + s]), base, interleaved)[0]  # [dh]
        kn = apply_rope(k[None], torch.tensor([n + s]), base, interleaved)[0]  # [dh]
        logits.append(qm @ kn)
    return torch.stack(logits)  # [S]


def rotated_ones(positions: torch.Tensor, dim: int, fam: FamilyConfig) -> torch.Tensor:
    """RoPE has no position vector of its own: the all-ones query rotated to each position, [P, dh]."""
    head_dim = dim // fam.heads
    ones = torch.ones(len(positions), head_dim, dtype=torch.float64)  # [P, dh]
    return apply_rope(ones, positions, fam.base, fam.pairing == "interleaved")  # [P, dh]


def check_rope(fam: FamilyConfig, dim: int, context_length: int) -> None:
    check_base(fam.base)
    head_dim = dim // fam.heads
    if head_dim % 2:
        raise ValueError(
            f"RoPE rotates pairs of dimensions, so the head dim must be even (it is "
            f"{dim} / {fam.heads} = {head_dim}). Change the heads or the embedding dim."
        )


def rope_logits(x: LogitInputs) -> torch.Tensor:
    head_dim = x.dim // x.fam.heads
    r = x.distances.long()  # [R]
    uh = content_vector(x.dim, x.seed)[None, :head_dim]  # [1, dh]: the first head's share of u
    interleaved = x.fam.pairing == "interleaved"
    q = apply_rope(uh.expand(len(r), head_dim), r, x.fam.base, interleaved)  # [R, dh]
    k = apply_rope(uh, torch.zeros(1, dtype=torch.long), x.fam.base, interleaved)[0]  # [dh]
    return (q @ k - uh[0] @ uh[0]) / math.sqrt(head_dim)  # [R]


def rope_past(context_length: int, dim: int, fam: FamilyConfig) -> str:
    """The turning past the trained length: how many of its speeds reach angles training never showed
    (those too slow to turn once within it)."""
    T, speeds = context_length, (dim // fam.heads) // 2
    slow = int((2 * math.pi / rope_inv_freq(2 * speeds, fam.base, torch.float64) > T).sum())
    if slow == 0:
        each = "its one turning speed goes" if speeds == 1 else f"each of its {speeds:,} turning speeds goes"
        return f"the same rotation; {each} fully round within {plural(T, 'position')}: no angle is new"
    reach = "it reaches" if slow == 1 else "they reach"
    return (
        f"the same rotation; {count_of(slow, speeds, 'turning speed')} too slow to go once round in "
        f"{plural(T, 'position')}: past it, {reach} new angles"
    )


def describe_rope(
    label: str, r: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig
) -> str:
    low = int(torch.argmin(y))
    return (
        f"{label} is {float(y[0]):+.3f} at r = 0 and dips to {float(y[low]):+.3f} at "
        f"r = {int(r[low]):,}: nearby keys keep more of their score than far ones, with wobbles."
    )


def rope_fact(fam: FamilyConfig, head: int, distances: list[int], causal: bool, consequence: bool) -> str:
    """RoPE's key fact on the Attention page: the turning, and that a score then sees the distance only."""
    turns = "RoPE turns each query and key by an angle proportional to its position"
    if not consequence:
        return f"{turns}."
    return (
        f"{turns}, so for the same two vectors the score depends only on the distance i − j: they score the "
        "same at positions (7, 3) and (1007, 1003). Along a diagonal of these heatmaps the distance is the "
        "same but the tokens differ, so the scores differ there; the same two tokens at the same distance "
        "score the same."
    )


CODE = ScriptCode(
    functions=(rotate_half, apply_rotary),
    curve_setup="""interleaved = pairing == "interleaved"
q = apply_rotary(uh.expand(len(distances), head_dim), distances, base, interleaved)  # [R, dh] at r
k = apply_rotary(uh[None], torch.zeros(1, dtype=torch.long), base, interleaved)[0]  # [dh] at 0""",
    curve="(q @ k - uh @ uh) / math.sqrt(head_dim)  # depends on r only",
    attention_settings="base = {fam.base!r}  # RoPE's frequency base",
    attention_cell=(rotate_half, apply_rotary),
    attention_scores="""\
q, k = apply_rotary(q0, positions, base), apply_rotary(k0, positions, base)  # [T, dh] each
scores = q @ k.T / math.sqrt(head_dim)  # [T, T]""",
    attention_term='m["content"][i, j] + m["position"][i, j]  # RoPE: the rotated score',
    training_qk="""# New: rotate queries and keys by their positions
q, k = apply_rotary(q, positions), apply_rotary(k, positions)  # [B, H, T, d/H] each""",
)

FAMILY = Family(
    name="rope",
    label="RoPE",
    kind="relative",
    injects="query/key rotation",
    where="RoPE turns the vectors that attention compares by an angle that grows with the position",
    source="Su et al. 2021 (RoFormer)",
    extrapolates=rope_past,
    help="rope: turns each query and key by an angle that grows with its position, so their score "
    "depends only on their distance; nothing to train.",
    gives="turns the two vectors a score compares by angles that grow with their positions, so the "
    "score depends only on their distance",
    logits=rope_logits,
    describe_logits=describe_rope,
    params=(BASE, PAIRING),
    check=check_rope,
    vectors=rotated_ones,
    trainable=True,
    rotate=apply_rope,
    color=FAMILY_COLORS["rope"],
    dash=FAMILY_DASHES["rope"],
    code=CODE,
    key_fact=rope_fact,
    featured=True,  # what most of today's models use
    stays_in_training="RoPE turns vectors inside the model by an angle a formula fixes for each position: "
    "training leaves those angles as they are and shapes the rest of the model to use them.",
)
