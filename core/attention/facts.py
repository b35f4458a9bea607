"""Each family's key fact on the Attention page, in one place and in words, computed from its settings."""

from __future__ import annotations

import torch

from core.positional.alibi import get_slopes
from core.positional.family import Family, FamilyConfig
from core.positional.t5 import t5_relative_bucket
from core.views.glossary import define
from core.views.units import listing


def t5_last_bucket_start(fam: FamilyConfig, causal: bool) -> int:
    """The first distance back whose bucket is the last one: every farther key shares its bias."""
    r = torch.arange(fam.max_distance * 2 + 2)  # the last bucket starts by max_distance at the latest
    buckets = t5_relative_bucket(-r, not causal, fam.buckets, fam.max_distance)  # [R]
    return int(r[buckets == buckets.max()][0])


def key_fact(
    family: Family, fam: FamilyConfig, head: int, distances: list[int], causal: bool, consequence: bool = True
) -> str:
    """What ``family`` does to a score, with its numbers for head ``head`` (0-based).

    Args:
        family: the family shown.
        fam: the families' settings (heads, T5's buckets, Shaw's clip, RoPE's base, …).
        head: the head shown.
        distances: the distances back (i − j) that the page's pairs use, each ≥ 1.
        causal: whether the causal mask is on.
        consequence: with False, what the family does and not what follows for a pair's term (its
            numbers, whether a distance always gets the same one): a class is about to predict that.
    """
    shown = sorted({d for d in distances if d > 0}) or [1]
    if family.name == "alibi":
        m = get_slopes(fam.heads)[head]
        at = listing([f"{-m * d:+.4g} for a key {d} token{'s' if d != 1 else ''} back" for d in shown])
        return (
            f"ALiBi gives head {head + 1} of {fam.heads} the slope m = {m:.4g} and adds −m·(i − j) to every "
            f"score, whatever the tokens" + (f": {at}." if consequence else ".")
        )
    if family.name == "t5":
        start = t5_last_bucket_start(fam, causal)
        side = "looking back" if causal else "on each side"
        return (
            f"T5 sorts distances into {fam.buckets} {define('bucket', 'buckets')} and learns one number per "
            "bucket and head "
            f"(untrained here, so random): {side}, the nearest distances get a bucket each, farther ones "
            f"share ever wider buckets, and every distance from {start:,} on shares the last one."
            + (" The same distance always gets the same number." if consequence else "")
        )
    if family.name == "shaw" and not consequence:
        return (
            f"Shaw learns one vector aᴷ per distance, up to a {define('clip')} of ±{fam.clip}, and adds "
            "q·aᴷ/√dh to the score of a key that far from the query."
        )
    if family.name == "shaw":
        return (
            f"Shaw learns one vector aᴷ per distance, up to a {define('clip')} of ±{fam.clip}: the term "
            "q·aᴷ/√dh depends on "
            f"the query's token and the distance only, and all keys more than {fam.clip} tokens away share "
            "one vector."
        )
    if family.rotate is not None and not consequence:
        return "RoPE turns each query and key by an angle proportional to its position."
    if family.rotate is not None:
        return (
            "RoPE turns each query and key by an angle proportional to its position, so for the same two "
            "vectors the score depends only on the distance i − j: they score the same at positions (7, 3) "
            "and (1007, 1003). Along a diagonal of these heatmaps the distance is the same but the tokens "
            "differ, so the scores differ there; the same two tokens at the same distance score the same."
        )
    if family.additive and not consequence:
        return f"{family.label} adds a vector for each place to the token's vector before q and k are taken."
    if family.additive:
        return (
            f"{family.label} adds a vector for each place to the token's vector before q and k are taken, so "
            "the position part of a pair depends on both places, not only on their distance: the same two "
            "tokens at the same distance get another term elsewhere in the sentence."
        )
    if family.attention_bias is not None or family.score_bias is not None:
        follows = ": the term depends on the distance, not on the places." if consequence else "."
        return f"{family.where}{follows}"
    if causal:
        return (
            f"{family.label} adds nothing anywhere. The causal mask lets a token see only itself and the "
            "tokens before it: that is the model's only clue to order."
        )
    return (
        f"{family.label} adds nothing anywhere, and the mask is off: this attention cannot tell a sentence "
        "from a shuffle of its tokens."
    )
