"""The Attention page's answer, in short: where relative methods see "how far apart" (inside attention, on
each pair's score), for the sidebar's method, with the number its head adds to one pair."""

from __future__ import annotations

from core.attention.compare import distance_terms, tokens_back
from core.attention.headline import PairHeadline
from core.attention.sentences import SentenceMaps
from core.positional.family import FAMILIES, Family
from core.views.glossary import GLOSSARY, define, named
from core.views.units import plural
from ui.answer import Answer
from ui.pair_headline import quoted

WHERE = (
    f"Inside {define('attention')}, where every pair of tokens gets a {define('score')}: a relative method "
    "changes it by something that depends on how far apart the two tokens are."
)


def offered(method: str) -> tuple[str, ...]:
    """The methods the answer offers for ``method``: the relative ones, or for a relative method the
    absolute ones (the answer defines their names, so a page knows which it need not define again)."""
    kind = "absolute" if FAMILIES[method].kind == "relative" else "relative"
    return tuple(name for name, f in FAMILIES.items() if f.kind == kind)


def attention_answer(view: SentenceMaps, headline: PairHeadline) -> Answer:
    """The answer for the method of ``view`` (the sidebar's), from its maps and the pairs of section 3."""
    family, others = FAMILIES[view.method], offered(view.method)
    if headline.silent:
        return _silent_answer(family, headline, others)
    terms = distance_terms(view.maps_a[view.method]) if not family.additive else None
    if terms and len(terms) > 1:
        return _distance_answer(family, view, terms, others)
    label, number, said = _kept_pair(family, headline)
    if family.additive:
        words = (
            f"{WHERE} {family.label}, the sidebar's method, is not one of them: it adds position to the "
            "input embeddings, before attention, so the score of x + p mixes token and place, and what "
            f"position changes in a pair's score depends on where both tokens stand.{said}"
        )
        say = "Relative methods act inside attention. See the page with:"
        return Answer(label, number, words, others, say)
    how = "" if family.label in GLOSSARY else f" {family.where[0].upper()}{family.where[1:]}."  # else named
    words = (
        f"{WHERE} {named(family.label)} is one of them.{how} For the same two tokens only their distance "
        f"counts.{said}"
    )
    return Answer(
        label,
        number,
        words,
        others,
        "Absolute methods act before attention, at the input. See the page with:",
    )


def _silent_answer(family: Family, headline: PairHeadline, others: tuple[str, ...]) -> Answer:
    """A method that adds nothing (NoPE): only the causal mask, when on, tells the positions apart."""
    a, b = headline.seen
    mask = (
        f"only the {define('causal mask')} tells positions apart: the token that moved sees "
        f"{plural(a, 'token')} in A and {b} in B."
        if headline.causal
        else "and the mask is off, so nothing here can tell the two orders apart."
    )
    return Answer(
        "tokens the moved token sees in B",
        f"{b}",
        f"{WHERE} {named(family.label)} adds nothing there, nor anywhere else: {mask}",
        others,
        "Relative methods add something to each pair's score. See the page with:",
    )


def _distance_answer(
    family: Family, view: SentenceMaps, terms: dict[int, float], others: tuple[str, ...]
) -> Answer:
    """A method whose term depends on the distance alone (ALiBi, T5): its number a key 3 tokens back (or
    the farthest the map shows), and its first six."""
    r = 3 if 3 in terms else max(terms)
    listed = ", ".join(f"{v:+.4g}" for v in list(terms.values())[:6])
    return Answer(
        f"{family.label}, a key {tokens_back(r)} ({view.head_label})",
        f"{terms[r]:+.4g}",
        f"{WHERE} {named(family.label)} adds a number that depends on that distance only: for "
        f"{view.head_label} ({GLOSSARY['head'].gloss}), {listed} for a token 0, 1, 2, … tokens back, "
        "wherever the pair stands."
        + (
            ""
            if family.attention_bias is not None
            else " They are untrained here, so random: that they "
            "depend on the distance alone is the method's."
        ),
        others,
        "Absolute methods act before attention, at the input. See the page with:",
    )


def _kept_pair(family: Family, headline: PairHeadline) -> tuple[str, str, str]:
    """The answer's label, number and sentences for the same two tokens at the same distance in A and in
    B (section 3's pair); without one, a dash and no sentences."""
    pair = headline.kept
    if pair is None:
        return f"{family.label}'s term on a pair", "—", ""
    in_a = f"{quoted(headline.pieces[pair.query_a])} → {quoted(headline.pieces[pair.key_a])}"
    same = "the same change" if pair.same_term else "yet another change"
    said = (
        f" Here {in_a} looks {tokens_back(pair.a.distance)} in A and in B, and its score changes by "
        f"{pair.a.term:+.4f} in A and {pair.b.term:+.4f} in B: the same distance, {same}. This "
        f"{define('head')} is random and untrained: the numbers are an example, the pattern is not."
    )
    return f"{family.label}, {in_a} in A", f"{pair.a.term:+.4f}", said
