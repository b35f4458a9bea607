"""T5 relative position buckets and biases (Raffel et al. 2020, §2.1).

Each head learns one scalar per bucket of ``relative_position = key − query`` and adds it to
the attention logits. Small offsets get a bucket each; larger ones share log-spaced buckets up
to ``max_distance``, beyond which all offsets share the last bucket. Bidirectional (encoder)
attention spends half of the buckets on keys after the query; causal (decoder) attention
spends them all on the past. Follows Mesh TensorFlow ``_relative_position_bucket`` and
Hugging Face ``T5Attention._relative_position_bucket`` / ``compute_bias``.
"""

from __future__ import annotations

import math

import torch

from core.positional.family import (
    MAX_USED_LENGTH,
    Family,
    FamilyConfig,
    LogitInputs,
    Param,
    ScoreInputs,
    ScriptCode,
    flat_tail_sentence,
    seeded_normal,
)
from core.views.colors import FAMILY_COLORS, FAMILY_DASHES
from core.views.glossary import define
from core.views.units import plural


def _exact_range(bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """Check the bucket settings and return ``max_exact``, the number of one-offset buckets per side."""
    if num_buckets < 2:
        raise ValueError(f"T5 buckets need num_buckets ≥ 2 (got {num_buckets}).")
    side_buckets = num_buckets // 2 if bidirectional else num_buckets
    max_exact = side_buckets // 2
    if max_exact < 1:
        raise ValueError(
            f"Bidirectional T5 buckets need num_buckets ≥ 4 (got {num_buckets}): each side keeps half of "
            "them and gives half of those to exact offsets."
        )
    if max_distance <= max_exact:
        raise ValueError(
            f"max_distance must exceed the exact range: offsets below {max_exact} get one bucket each, and "
            f"the log-spaced buckets span {max_exact} … max_distance (got max_distance={max_distance})."
        )
    return max_exact


def check_t5_buckets(num_buckets: int, max_distance: int) -> None:
    """Raise ``ValueError`` unless both the bidirectional and the causal bucketing can be built."""
    _exact_range(True, num_buckets, max_distance)
    _exact_range(False, num_buckets, max_distance)


def t5_relative_bucket(
    relative_position: torch.Tensor,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> torch.Tensor:
    """Bucket index of each relative position, exactly as Hugging Face T5 (float32 logs included).

    Args:
        relative_position: [...] integer offsets ``key − query`` (memory − query position).
        bidirectional: True for encoder attention; False for causal attention, where every key
            after the query (offset > 0) falls in bucket 0 with offset 0.
        num_buckets: buckets in total (both sides together when bidirectional).
        max_distance: offsets at or beyond this distance share the last bucket of their side.
    Returns:
        [...] int64 buckets in ``[0, num_buckets)``.
    """
    if relative_position.is_floating_point() or relative_position.is_complex():
        raise ValueError(f"relative_position must be an integer tensor (got {relative_position.dtype}).")
    _exact_range(bidirectional, num_buckets, max_distance)  # settings that leave every side its buckets
    return _relative_position_bucket(
        relative_position.to(torch.long), bidirectional, num_buckets, max_distance
    )


# The reference's own text, as the page's scripts show it. The log is float32 on purpose: Mesh TF and HF
# take it in float32 and truncate, and a float64 log could land on the other side of an integer (at the
# offsets whose exact value is one, e.g. |offset| = 32 and 64 bidirectionally). log(0) = -inf at offset
# 0 is harmless: torch.where keeps the exact bucket there.
def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    # T5's bucket of key − query (Raffel et al. 2020 §2.1), as HF T5Attention writes it (float32 log)
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2  # half of the buckets are for exact offsets, half log-spaced
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )
    return relative_buckets + torch.where(is_small, relative_position, relative_position_if_large)


def t5_relative_bias(
    bias_table: torch.Tensor,
    query_length: int,
    key_length: int,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> torch.Tensor:
    """The bias T5 adds to the attention logits, heads first (HF ``compute_bias`` without its batch axis).

    Args:
        bias_table: [num_buckets, H], the weight of ``nn.Embedding(num_buckets, H)``.
        query_length: Lq.
        key_length: Lk.
        bidirectional, num_buckets, max_distance: as ``t5_relative_bucket``.
    Returns:
        [H, Lq, Lk]: ``bias[h, i, j] = bias_table[bucket(j − i), h]``.
    """
    if bias_table.dim() != 2 or bias_table.shape[0] != num_buckets:
        raise ValueError(f"bias_table must be [num_buckets={num_buckets}, H] (got {list(bias_table.shape)}).")
    context_position = torch.arange(query_length)[:, None]  # [Lq, 1]
    memory_position = torch.arange(key_length)[None, :]  # [1, Lk]
    relative_position = memory_position - context_position  # [Lq, Lk]
    buckets = t5_relative_bucket(relative_position, bidirectional, num_buckets, max_distance)  # [Lq, Lk]
    values = bias_table[buckets]  # [Lq, Lk, H]
    return values.permute(2, 0, 1)  # [H, Lq, Lk]


BUCKETS = Param(
    "buckets",
    "T5 buckets",
    32,
    "How many groups of distances T5 learns a number for (per head): each near distance gets a group of "
    "its own, farther ones share wider and wider groups.",
    low=2,
    high=1024,
    words=f"The {define('bucket', 'buckets')}, up to the max distance.",
    script="T5's buckets",
)
MAX_DISTANCE = Param(
    "max_distance",
    "T5 max distance",
    128,
    "Where T5's groups of distances stop growing: every distance past it lands in the last group, which "
    "begins a little before it.",
    low=1,
    high=MAX_USED_LENGTH,
    script="T5: offsets past it share the last bucket",
)


def t5_bias_table(fam: FamilyConfig, dim: int, seed: int) -> torch.Tensor:
    """T5's untrained bias table [buckets, H]: N(0, d^-1), as Hugging Face initializes it."""
    return seeded_normal((fam.buckets, fam.heads), dim**-0.5, seed, stream=2)


def last_distinct_distance(fam: FamilyConfig, bidirectional: bool = False) -> int:
    """The first distance back (causal, or bidirectional) that lands in T5's last bucket: farther ones
    look alike."""
    return _last_distinct_distance(fam.buckets, fam.max_distance, bidirectional)


def _last_distinct_distance(num_buckets: int, max_distance: int, bidirectional: bool = False) -> int:
    # A key r positions back has a bucket that never falls as r grows: the last bucket is the one at
    # MAX_USED_LENGTH, and the first distance in it is found by bisection (17 buckets, not 65,537).
    def bucket(r: int) -> int:
        return int(t5_relative_bucket(torch.tensor([-r]), bidirectional, num_buckets, max_distance)[0])

    last, low, high = bucket(MAX_USED_LENGTH), 0, MAX_USED_LENGTH
    while low < high:
        middle = (low + high) // 2
        low, high = (middle + 1, high) if bucket(middle) < last else (low, middle)
    return low


def bucket_layout(fam: FamilyConfig, bidirectional: bool) -> str:
    """How one side's buckets cover the distances, from the settings: why its last bucket, which every
    distance past the max distance shares, starts before the max distance."""
    side = fam.buckets // 2 if bidirectional else fam.buckets
    exact = _exact_range(bidirectional, fam.buckets, fam.max_distance)
    start = last_distinct_distance(fam, bidirectional)
    wider = side - exact
    where = f"{side:,} per side" if bidirectional else f"all {side:,} on keys before the query"
    exact_part = {1: "distance 0 alone", 2: "distances 0 and 1 one each"}.get(
        exact, f"distances 0 … {exact - 1:,} one each"
    )
    if wider == 1:
        return f"{where}: {exact_part}, then one bucket for every distance from {start:,} on"
    return (
        f"{where}: {exact_part}, then {plural(wider, 'bucket')} of growing width up to "
        f"{fam.max_distance:,}, the last starting at {start:,}"
    )


def t5_logits(x: LogitInputs) -> torch.Tensor:
    buckets = t5_relative_bucket(
        -x.distances.long(), bidirectional=False, num_buckets=x.fam.buckets, max_distance=x.fam.max_distance
    )  # [R]: key 0 is r positions before the query
    return t5_bias_table(x.fam, x.dim, x.seed)[buckets, 0].double()  # [R], head 1


def t5_score_bias(x: ScoreInputs) -> torch.Tensor:
    """Head h's bias ``table[bucket(j − i), h]``, causal or bidirectional (HF ``compute_bias``): [T, T].

    T5 itself scales no score by 1/√dh (its init absorbs it); the bias is added to the scores as they are.
    """
    relative = x.positions[None, :] - x.positions[:, None]  # [T, T] key − query
    buckets = t5_relative_bucket(relative, not x.causal, x.fam.buckets, x.fam.max_distance)  # [T, T]
    return t5_bias_table(x.fam, x.dim, x.seed)[buckets, x.head].double()  # [T, T]


def bucket_growth(fam: FamilyConfig, bidirectional: bool = False) -> str:
    """Why the last bucket begins before the max distance, from the settings: the wider buckets grow by
    one ratio each, HF's log spacing, so the last is the widest ("" when there is one wide bucket only)."""
    side = fam.buckets // 2 if bidirectional else fam.buckets
    exact = _exact_range(bidirectional, fam.buckets, fam.max_distance)
    if side - exact < 2:
        return ""
    ratio = (fam.max_distance / exact) ** (1 / (side - exact))
    return f"each about {ratio:.2f} times as wide as the one before"


def t5_past(context_length: int, dim: int, fam: FamilyConfig) -> str:
    """Past the trained length: its distance's bucket, and where the last bucket begins."""
    start, limit = last_distinct_distance(fam), fam.max_distance
    before = f", which begins before the max distance {limit:,}" if start < limit else ""
    return f"its distance's bucket; from distance {start:,} on, the last bucket{before}"


def describe_t5(label: str, r: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig) -> str:
    limit = f"max distance {fam.max_distance:,}"
    start = last_distinct_distance(fam)
    sentence = flat_tail_sentence(label, r, y, limit, last_distinct=start)
    if start >= fam.max_distance or not sentence.endswith("look alike to it."):
        return sentence
    # "Past the max distance, one bucket" and "flat from an earlier distance" are both true: say why.
    growth = bucket_growth(fam)
    return (
        f"{sentence} Distances past {fam.max_distance:,} share the last bucket, and that bucket begins "
        f"earlier: with the causal mask, T5 spends {bucket_layout(fam, False)}"
        + (f", {growth}." if growth else ".")
    )


def t5_fact(fam: FamilyConfig, head: int, distances: list[int], causal: bool, consequence: bool) -> str:
    """T5's key fact on the Attention page: its buckets, and the distance from which all share the last."""
    start = last_distinct_distance(fam, bidirectional=not causal)
    side = "looking back" if causal else "on each side"
    return (
        f"T5 sorts distances into {fam.buckets} {define('bucket', 'buckets')} and learns one number per "
        "bucket and head "
        f"(untrained here, so random): {side}, the nearest distances get a bucket each, farther ones "
        f"share ever wider buckets, and every distance from {start:,} on shares the last one."
        + (" The same distance always gets the same number." if consequence else "")
    )


# HF T5's bias table, nn.Embedding(buckets, heads), untrained, as the scripts draw it (t5_bias_table).
BIAS_TABLE = """t5_generator = torch.Generator().manual_seed(seed * 1_000_003 + 2)
t5_bias = torch.randn(buckets, heads, generator=t5_generator) * output_dim**-0.5  # [buckets, H]"""
CODE = ScriptCode(
    functions=(_relative_position_bucket,),
    tables="# T5: nn.Embedding(buckets, heads), standard deviation 1/√d as HF T5's _init_weights, own "
    "generator.\n" + BIAS_TABLE,
    curve_setup="""\
bucket = _relative_position_bucket(-distances, False, buckets, max_distance)  # [R] key r back (causal)""",
    curve="t5_bias[bucket, 0].double()  # a learned bias per bucket, head 1",
    attention_settings="""buckets = {fam.buckets}  # T5's
max_distance = {fam.max_distance}  # farther: one bucket""",
    attention_cell=(
        _relative_position_bucket,
        "# nn.Embedding(buckets, heads) untrained: N(0, 1/d) as HF T5's _init_weights, from a generator of "
        "its own\n" + BIAS_TABLE,
    ),
    attention_scores="""offset = positions[None, :] - positions[:, None]  # [T, T] j − i
bucket = _relative_position_bucket(offset, not causal, buckets, max_distance)  # two-sided unless causal
scores = content + t5_bias[bucket, head - 1].double()  # [T, T] the bias of (j − i)'s bucket""",
)

FAMILY = Family(
    name="t5",
    label="T5 bias",
    kind="relative",
    injects="score bias",
    where="T5 bias adds a learned number for each range of distances to the attention between two tokens",
    source="Raffel et al. 2020 (T5)",
    extrapolates=t5_past,
    help="t5: a learned number for each group of distances, added to the attention score; near "
    "distances have a group each, far ones share wider and wider groups.",
    gives="adds to the score of two tokens a learned number for their distance, one number per group of "
    "distances, the far groups wider and wider",
    logits=t5_logits,
    describe_logits=describe_t5,
    params=(BUCKETS, MAX_DISTANCE),
    check=lambda fam, dim, context_length: check_t5_buckets(fam.buckets, fam.max_distance),
    parameter_count=lambda T, d, fam: fam.buckets * fam.heads,  # one scalar per bucket and head
    score_bias=t5_score_bias,
    color=FAMILY_COLORS["t5"],
    dash=FAMILY_DASHES["t5"],
    code=CODE,
    key_fact=t5_fact,
    parameters_name="T5's position biases",
)
