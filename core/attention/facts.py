"""The key fact of the Attention page's family, in words, computed from its settings: its record's own
(``Family.key_fact``), else one from its words and its hooks."""

from __future__ import annotations

from core.positional.family import Family, FamilyConfig
from core.views.units import capitalized


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
    if family.key_fact is not None:
        return family.key_fact(fam, head, shown, causal, consequence)
    return hooks_fact(family, causal, consequence)


def hooks_fact(family: Family, causal: bool, consequence: bool = True) -> str:
    """The key fact of a family whose record gives none: where it puts position, read from its hooks."""
    if family.additive and not consequence:
        return f"{family.label} adds a vector for each place to the token's vector before q and k are taken."
    if family.additive:
        return (
            f"{family.label} adds a vector for each place to the token's vector before q and k are taken, so "
            "the position part of a pair depends on both places, not only on their distance: the same two "
            "tokens at the same distance get another term elsewhere in the sentence."
        )
    said = capitalized(family.where or f"{family.label} {family.gives}")
    if family.attention_bias is not None or family.score_bias is not None:
        follows = ": the term depends on the distance, not on the places." if consequence else "."
        return f"{said}{follows}"
    if family.rotate is not None:
        return f"{said}."
    if causal:
        return (
            f"{family.label} adds nothing anywhere. The causal mask lets a token see only itself and the "
            "tokens before it: that is the model's only clue to order."
        )
    return (
        f"{family.label} adds nothing anywhere, and the mask is off: this attention cannot tell a sentence "
        "from a shuffle of its tokens."
    )
