"""Why position?'s answer, in short: yes, the embedding layer gives the moved token the same vector in
both sentences; whether its input vector stays the same depends on the sidebar's method, and the cosine of
its two input vectors answers that."""

from __future__ import annotations

from core.attention.compare import tokens_back
from core.attention.headline import PairHeadline
from core.order import SharedToken
from core.positional.family import FAMILIES, Family
from core.views.glossary import define, named
from core.views.units import plural, verb
from ui.answer import Answer
from ui.pair_headline import quoted

ABSOLUTE_SAY = (
    "Absolute methods add a vector per position, so there the two input vectors differ. See the page with:"
)
RELATIVE_SAY = (
    "Relative methods and NoPE add nothing to the input, so there the two input vectors stay the same "
    "(cosine 1). See the page with:"
)


NOTHING_MOVED = Answer(
    "shared tokens that moved",
    "0",
    "These two sentences share no token that stands at another position in B than in A, so there is "
    "nothing to compare. Type the same words in another order, as in the lecture's pair.",
)


def why_answer(
    method: str, piece: str, moved: SharedToken | None, headline: PairHeadline | None, table_rows: int
) -> Answer:
    """The answer for the sidebar's ``method``: ``piece`` is the moved token, quoted for Markdown; ``moved``
    its comparison (None: no shared token moved); ``headline``: a relative method's pairs in attention;
    ``table_rows``: the context length, the rows a trained learned table has."""
    family = FAMILIES[method]
    if moved is None:
        return NOTHING_MOVED
    label, number = f"{piece}: cosine of its input vectors, A vs B", f"{moved.cosine_with:.6f}"
    same = (
        f"Yes: the embedding layer gives {piece} the same vector in A and in B, their "
        f"{define('cosine similarity')} is {moved.cosine_without:.6f}, wherever it stands."
    )
    if family.additive:
        return Answer(
            label,
            number,
            f"{same} {_added_words(family, piece, moved, table_rows)}",
            others=tuple(name for name, f in FAMILIES.items() if not f.additive),
            others_say=RELATIVE_SAY,
        )
    absolute = tuple(name for name, f in FAMILIES.items() if f.additive)
    featured_relative = tuple(name for name, f in FAMILIES.items() if f.featured and not f.additive)
    nothing = (
        f"{same} {named(family.label)} adds nothing to the input either, so its input vector is the same too."
    )
    if headline is None or headline.silent:
        return Answer(
            label,
            number,
            f"{nothing} {_silent_words(piece, headline)}",
            absolute + featured_relative,
            _both_say(featured_relative),
        )
    words = (
        f"{nothing} {family.label} tells the two places apart later, in {define('attention')}, by how far "
        f"apart two tokens are.{_pair_words(family, piece, headline)}"
    )
    return Answer(label, number, words, absolute, ABSOLUTE_SAY)


def _both_say(relative: tuple[str, ...]) -> str:
    """The buttons' sentence when they offer absolute methods and ``relative`` ones too (after NoPE)."""
    if not relative:
        return ABSOLUTE_SAY
    labels = " and ".join(FAMILIES[name].label for name in relative)
    return (
        "Absolute methods add a vector per position, so there the two input vectors differ; "
        f"{labels} {verb(len(relative), 'tells', 'tell')} the two places apart later, inside attention. "
        "See the page with:"
    )


def _added_words(family: Family, piece: str, moved: SharedToken, table_rows: int) -> str:
    """An absolute method's part of the answer: the vector it adds makes the two input vectors differ."""
    pa, pb = moved.position_a, moved.position_b
    places = f"position {pa} in A and position {pb} in B (positions count from 0)"
    beyond = (
        f" (a row a model trained at context {table_rows} would not have)"
        if family.fixed_length and max(pa, pb) >= table_rows
        else ""
    )
    chance = " The table is random and untrained: the exact number is chance; that it is below 1 is not."
    return (
        f"That is why positions are added: {family.label} adds the vector of {places}{beyond}, so "
        f"the two input vectors of {piece} differ: cosine {moved.cosine_with:.6f}."
        + (chance if family.seeded else "")
    )


def _silent_words(piece: str, headline: PairHeadline | None) -> str:
    """A method that adds nothing anywhere (NoPE): only the causal mask, when on, lets order in."""
    a, b = headline.seen if headline else (0, 0)
    mask = (
        f" Only the {define('causal mask')} lets order in: it lets {piece} see {plural(a, 'token')} in A "
        f"and {b} in B."
        if headline and headline.causal
        else ""
    )
    return f"Nothing in {define('attention')} depends on position either.{mask}"


def _pair_words(family: Family, piece: str, headline: PairHeadline) -> str:
    """A relative method's pair in A and in B: the same distance, the same change of score ("" without a
    pair that kept its distance)."""
    if (kept := headline.kept) is None:  # no two tokens at the same distance in A and in B
        return ""
    name = f"{quoted(headline.pieces[kept.query_a])} → {quoted(headline.pieces[kept.key_a])}"
    pair = (
        f" In A and in B, {name} looks {tokens_back(kept.a.distance)}, and {family.label} changes its "
        f"{define('score')} by {kept.a.term:+.4f} in A and {kept.b.term:+.4f} in B: the same distance, "
        f"the same change, although {piece} moved."
    )
    chance = (  # only a fixed bias is exact; the others read a random, untrained head or table
        ""
        if family.attention_bias is not None
        else f" This {define('head')} is random and untrained: the numbers are an example; that they are "
        "equal is not."
    )
    return pair + chance
