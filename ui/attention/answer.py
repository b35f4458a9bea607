"""The Attention page's answer, in short: where relative methods see "how far apart" (inside attention, on
each pair's score), for the sidebar's method, with the number its head adds to one pair."""

from __future__ import annotations

from core.attention.compare import distance_terms, tokens_back
from core.config import FAMILIES
from core.views.glossary import GLOSSARY, define
from core.views.units import plural
from ui.answer import Answer
from ui.attention.views import PairHeadline, SentenceMaps, quoted

WHERE = (
    f"Inside {define('attention')}, where every pair of tokens gets a {define('score')}: a relative method "
    "adds to it something that depends on how far apart the two tokens are."
)


def attention_answer(view: SentenceMaps, headline: PairHeadline) -> Answer:
    """The answer for the method of ``view`` (the sidebar's), from its maps and the pairs of section 3."""
    family = FAMILIES[view.method]
    relative = tuple(name for name, f in FAMILIES.items() if f.kind == "relative")
    if headline.silent:
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
            f"{WHERE} {family.label} adds nothing there, nor anywhere else: {mask}",
            relative,
            "Relative methods add something to each pair's score. See the page with:",
        )
    terms = distance_terms(view.maps_a[view.method]) if not family.additive else None
    if terms and len(terms) > 1:
        r = 3 if 3 in terms else max(terms)
        listed = ", ".join(f"{v:+.4g}" for v in list(terms.values())[:6])
        return Answer(
            f"{family.label}, a key {tokens_back(r)} ({view.head_label})",
            f"{terms[r]:+.4g}",
            f"{WHERE} {family.label} adds a number that depends on that distance only: for "
            f"{view.head_label} ({GLOSSARY['head'].gloss}), {listed} for a token 0, 1, 2, … tokens back, "
            "wherever the pair stands.",
            tuple(name for name, f in FAMILIES.items() if f.additive),
            "Absolute methods act before attention, at the input. See the page with:",
        )
    pair = headline.changed or headline.kept
    if pair is None:
        number, label, said = "—", f"{family.label}'s term on a pair", ""
    else:
        pieces = headline.pieces
        in_a = f"{quoted(pieces[pair.query_a])} → {quoted(pieces[pair.key_a])}"
        label, number = f"{family.label}, {in_a} in A", f"{pair.a.term:+.4f}"
        said = (
            f" Here {in_a} looks {tokens_back(pair.a.distance)} in A and its score changes by "
            f"{pair.a.term:+.4f}; in B the two tokens stand {tokens_back(pair.b.distance)} and it changes by "
            f"{pair.b.term:+.4f}."
        )
    if family.additive:
        words = (
            f"{WHERE} {family.label}, the sidebar's method, is not one of them: it adds position to the "
            "input embeddings, before attention, so the score of x + p mixes token and place, and what "
            f"position changes in a pair's score depends on where both tokens stand.{said}"
        )
        say = "Relative methods act inside attention. See the page with:"
        return Answer(label, number, words, relative, say)
    words = (
        f"{WHERE} {family.where[0].upper()}{family.where[1:]}, so for the same two tokens only their "
        f"distance counts.{said}"
    )
    return Answer(
        label,
        number,
        words,
        tuple(name for name, f in FAMILIES.items() if f.additive),
        "Absolute methods act before attention, at the input. See the page with:",
    )
