"""Why position?'s answer, in short: does the embedding layer give the moved token the same vector in both
sentences, under the sidebar's method, with the cosine that answers it."""

from __future__ import annotations

from core.attention.compare import tokens_back
from core.config import FAMILIES
from core.order import SharedToken
from core.views.glossary import define
from core.views.units import plural
from ui.answer import Answer
from ui.attention.views import PairHeadline, quoted

ABSOLUTE_SAY = "Absolute methods answer no: they add a vector per position, so the input vectors differ."
RELATIVE_SAY = (
    "Relative methods and NoPE answer yes: they add nothing to the input, so the cosine stays 1. See the "
    "page with:"
)


def why_answer(method: str, piece: str, moved: SharedToken | None, headline: PairHeadline | None) -> Answer:
    """The answer for the sidebar's ``method``: ``piece`` is the moved token, quoted for Markdown; ``moved``
    its comparison (None: no shared token moved); ``headline``: a relative method's pairs in attention."""
    family = FAMILIES[method]
    if moved is None:
        return Answer(
            "shared tokens that moved",
            "0",
            "These two sentences share no token that stands at another position in B than in A, so there is "
            "nothing to compare. Type the same words in another order, as in the lecture's pair.",
        )
    pa, pb = moved.position_a, moved.position_b
    places = f"position {pa} in A and position {pb} in B (positions count from 0)"
    cosine = define("cosine similarity")
    if family.additive:
        chance = " The table is random and untrained: the exact number is chance; that it is below 1 is not."
        return Answer(
            f"{piece}: cosine A vs B, with positions",
            f"{moved.cosine_with:.6f}",
            f"No: not once positions are added. The embedding layer alone gives {piece} the same vector in A "
            f"and in B: their {cosine} is {moved.cosine_without:.6f}. {family.label} adds the vector of "
            f"{places}, so {piece}'s two input vectors differ: cosine {moved.cosine_with:.6f}."
            + (chance if family.name == "learned" else ""),
            others=tuple(name for name, f in FAMILIES.items() if not f.additive),
            others_say=RELATIVE_SAY,
        )
    absolute = tuple(name for name, f in FAMILIES.items() if f.additive)
    same = (
        f"Yes: {family.label} adds nothing to the input, so {piece} at {places} gets the same input vector: "
        f"their {cosine} is {moved.cosine_with:.6f}."
    )
    label, number = f"{piece}: cosine A vs B, input vectors", f"{moved.cosine_with:.6f}"
    if headline is None or headline.silent:
        a, b = headline.seen if headline else (0, 0)
        mask = (
            f" Only the {define('causal mask')} lets order in: it lets {piece} see {plural(a, 'token')} in A "
            f"and {b} in B."
            if headline and headline.causal
            else ""
        )
        words = f"{same} Nothing in {define('attention')} depends on position either.{mask}"
        return Answer(label, number, words, absolute + ("rope",), ABSOLUTE_SAY + " RoPE acts in attention.")
    changed = headline.changed or headline.kept
    pair = ""
    if changed is not None:
        pieces = headline.pieces
        in_a = f"{quoted(pieces[changed.query_a])} → {quoted(pieces[changed.key_a])}"
        in_b = f"{quoted(pieces[changed.query_b])} → {quoted(pieces[changed.key_b])}"
        pair = (
            f" In A, {in_a} looks {tokens_back(changed.a.distance)} and {family.label} adds "
            f"{changed.a.term:+.4f} to how strongly it attends; in B, {in_b} looks "
            f"{tokens_back(changed.b.distance)} and {family.label} adds {changed.b.term:+.4f}."
        )
    words = (
        f"{same} {family.label} tells the two places apart later, in {define('attention')}, by how far apart "
        f"two tokens are.{pair}"
    )
    return Answer(label, number, words, absolute, ABSOLUTE_SAY + " See the page with:")
