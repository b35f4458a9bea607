"""ALiBi: a per-head linear penalty on distance (Press et al. 2022, "Train Short, Test Long").

No position is added to the embeddings. Head ``h`` adds ``-m_h·(i − j)`` to the logit of query
``i`` and key ``j``; the slopes ``m_h`` are a fixed geometric sequence. Reference code:
github.com/ofirpress/attention_with_linear_biases, ``fairseq/models/transformer.py``.
"""

from __future__ import annotations

import math

import torch

from core.positional.family import Family, FamilyConfig, LogitInputs, ScriptCode
from core.views.colors import FAMILY_COLORS, FAMILY_DASHES
from core.views.units import listing


# The reference's own text, as the page's scripts show it: slopes 2^(-8/n), 2^(-16/n), …, 2^(-8) for
# n a power of two; otherwise those of the closest smaller power, then every other slope of twice as
# many heads, so the extra heads fall between the first ones. [H] Python floats, head 0 first.
def get_slopes(n):
    # ALiBi's slope per head (Press et al. 2022; github.com/ofirpress/attention_with_linear_biases)
    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    extra = get_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]
    return get_slopes_power_of_2(closest_power_of_2) + extra


def alibi_slopes(num_heads: int) -> torch.Tensor:
    """The slope ``m_h`` of each head, from ``get_slopes``: [H] float32."""
    if num_heads < 1:
        raise ValueError(f"ALiBi needs at least one head (got {num_heads}).")
    return torch.tensor(get_slopes(num_heads), dtype=torch.float32)  # [H]


def alibi_bias(
    num_heads: int, length: int, positions: torch.Tensor | None = None, keys: torch.Tensor | None = None
) -> torch.Tensor:
    """The causal ALiBi bias ``bias[h, i, j] = -m_h·(i − j)`` (paper, Figure 3).

    Entries with ``j > i`` come out positive; a causal model never uses them, since the causal
    mask sets those logits to −inf. The reference fairseq code adds ``m_h·j`` instead, the same
    in every row: softmax ignores a constant per row, so both give the same attention.

    Args:
        num_heads: H.
        length: L, the number of queries and keys.
        positions: [P] the positions (within ``0 … L−1``) to evaluate, e.g. a chart's sample; default all.
        keys: [K] the key positions, when they are not ``positions``.
    Returns:
        [H, P, K] float32 (P = K = L by default).
    """
    if length < 0:
        raise ValueError(f"ALiBi needs a non-negative length (got {length}).")
    slopes = alibi_slopes(num_heads)  # [H]
    positions = torch.arange(length) if positions is None else positions
    keys = positions if keys is None else keys
    offset = keys[None, :] - positions[:, None]  # [P, K]  j − i, so the diagonal is +0, not −0
    return slopes[:, None, None] * offset  # [H, P, K]  = −m_h·(i − j)


def alibi_attention_bias(num_heads: int, positions: torch.Tensor) -> torch.Tensor:
    """What a causal model adds to its logits, ``-m_h·(i − j)``: [H, T, T] float32 for ``positions`` [T]."""
    distance = (positions[:, None] - positions[None, :]).float()  # [T, T] i − j
    slopes = alibi_slopes(num_heads).to(positions.device)  # [H]
    return -(slopes[:, None, None] * distance)  # [H, T, T]


def alibi_logits(x: LogitInputs) -> torch.Tensor:
    queries, key = x.distances.long(), torch.zeros(1, dtype=torch.long)  # [R] queries at r, the key at 0
    length = int(queries.max()) + 1 if len(queries) else 0
    return alibi_bias(x.fam.heads, length, queries, key)[0, :, 0].double()  # [R]: head 1, query r, key 0


def alibi_past(context_length: int, dim: int, fam: FamilyConfig) -> str:
    """The same penalty at farther distances: head 1's slope, from the settings."""
    slope = get_slopes(fam.heads)[0]
    return f"the same penalty, {slope:.3g} per token of distance (head 1), at distances never trained"


def describe_alibi(
    label: str, r: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig
) -> str:
    slope = float((y[-1] - y[0]) / (r[-1] - r[0])) if len(r) > 1 else 0.0
    line = y[0] + slope * (r - r[0])  # [R]
    straight = float((y - line).abs().max()) <= 1e-9 * max(1.0, float(y.abs().max()))
    shape = "a straight line" if straight else "not a straight line"
    return f"{label} is {shape}: {slope:+.4g} per token of distance (head 1's slope), with no end."


def alibi_fact(fam: FamilyConfig, head: int, distances: list[int], causal: bool, consequence: bool) -> str:
    """ALiBi's key fact on the Attention page: the head's slope, and what it adds at the pairs' distances."""
    m = get_slopes(fam.heads)[head]
    at = listing([f"{-m * d:+.4g} for a key {d} token{'s' if d != 1 else ''} back" for d in distances])
    return (
        f"ALiBi gives head {head + 1} of {fam.heads} the slope m = {m:.4g} and adds −m·(i − j) to every "
        f"score, whatever the tokens" + (f": {at}." if consequence else ".")
    )


CODE = ScriptCode(
    functions=(get_slopes,),
    curve="(torch.tensor(get_slopes(heads))[0] * -distances).double()  # -m·r, head 1's slope",
    attention_cell=(
        get_slopes,
        """slope = torch.tensor(get_slopes(heads))[head - 1]  # m of the head shown
print("slope m:", slope.item())""",
    ),
    attention_scores="""distance = (positions[:, None] - positions[None, :]).float()  # [T, T] i − j
scores = content - (slope * distance).double()  # −m·(i − j)""",
    training_functions=(
        get_slopes,
        """\
def alibi_bias(num_heads, context_length):  # head h adds -m_h·(i - j) to the logit of query i, key j
    slopes, position = torch.tensor(get_slopes(num_heads)), torch.arange(context_length)  # [H], [T]
    distance = (position[:, None] - position[None, :]).float()  # [T, T] i - j
    return -(slopes[:, None, None] * distance)  # [H, T, T]""",
    ),
    training_mask="# New: a per-head penalty on distance\nmask = mask + alibi_bias(H, T)  # [H, T, T]",
)

FAMILY = Family(
    name="alibi",
    label="ALiBi",
    kind="relative",
    injects="score bias",
    where="ALiBi lowers the attention between two tokens by a penalty that grows with their distance",
    source="Press, Smith & Lewis 2022",
    extrapolates=alibi_past,
    help="alibi: lowers the attention score of two tokens by a fixed amount per token of distance "
    "between them; each head has its own amount, nothing to train.",
    gives="lowers the score of two tokens by a fixed amount for each token of distance between them",
    logits=alibi_logits,
    describe_logits=describe_alibi,
    trainable=True,
    attention_bias=alibi_attention_bias,
    color=FAMILY_COLORS["alibi"],
    dash=FAMILY_DASHES["alibi"],
    code=CODE,
    key_fact=alibi_fact,
    curve_reads_seed_and_dim=False,  # a line from the heads' slopes alone
    stays_in_training="ALiBi makes a token count for less the farther back it stands, by amounts a formula "
    "fixes: training leaves those as they are and shapes the rest of the model to use them.",
)
