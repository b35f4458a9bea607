"""What a family does to the moved token's pairs in two sentences: the headline Why position? and the
Attention page both show (a kept and a changed pair, and how many keys the moved token sees)."""

from __future__ import annotations

from dataclasses import dataclass

from core.attention.compare import PairTerm, headline_pairs, pair_sentence, pair_terms, visible_keys
from core.attention.sentences import SentenceMaps
from core.positional.family import FAMILIES
from core.text.tokenizer import token_strings
from core.views.markup import escape_markdown


@dataclass(frozen=True)
class PairHeadline:
    """What a relative family does to the moved token's pairs in A and B (``pairs_of``)."""

    view: SentenceMaps
    kept: PairTerm | None  # a pair whose distance the move kept
    changed: PairTerm | None  # a pair whose distance it changed
    sentences: list[str]  # the two pairs in words (Markdown, escaped)
    seen: tuple[int, int]  # how many keys the moved token sees in A and in B (the mask's doing)
    causal: bool
    pieces: dict[int, str]  # token ID -> its text, for every token of both sentences

    @property
    def silent(self) -> bool:
        """Whether the family adds nothing to any score (NoPE): only the mask can carry order."""
        f = FAMILIES[self.view.method]
        return not f.additive and f.rotate is None and f.attention_bias is None and f.score_bias is None


def pairs_of(view: SentenceMaps, vocab_size: int, causal: bool) -> PairHeadline:
    """The family's own term for a kept and a changed pair of ``view``'s two sentences (a random head's
    maps, or a trained model's); ``causal``: whether the mask is on."""
    family = FAMILIES[view.method]
    pairs = pair_terms(family, view.maps_a[view.method], view.map_b, view.ids_a, view.ids_b)
    moved = view.moved
    kept, changed = headline_pairs(pairs, moved.token_id if moved else -1)
    ids = list(dict.fromkeys(view.ids_a + view.ids_b))
    pieces = dict(zip(ids, token_strings(ids, vocab_size), strict=True))
    relative = family.kind == "relative" and not family.additive
    sentences = [
        escape_markdown(pair_sentence(p, family.label, pieces, relative)) for p in (kept, changed) if p
    ]
    seen = (0, 0)
    if moved is not None:
        seen = (
            visible_keys(view.maps_a[view.method], moved.position_a),
            visible_keys(view.map_b, moved.position_b),
        )
    return PairHeadline(view, kept, changed, sentences, seen, causal, pieces)
