"""Reading attention maps in words: the moved token's row in two sentences, and each family's signature."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch

from core.attention.maps import AttentionMap
from core.positional.family import Family
from core.views.units import listing

SHOWN_CHANGE = 0.005  # weights are written to 2 decimals: a smaller change would read as none


class Moved(NamedTuple):
    """The token that moved: the first token of A found in B at another first position."""

    token_id: int
    position_a: int
    position_b: int


def moved_token(ids_a: list[int], ids_b: list[int]) -> Moved | None:
    """The first token of A (in A's order) whose first position in B differs from its first in A."""
    for token_id in dict.fromkeys(ids_a):
        if token_id in ids_b and ids_a.index(token_id) != ids_b.index(token_id):
            return Moved(token_id, ids_a.index(token_id), ids_b.index(token_id))
    return None


@dataclass(frozen=True)
class KeyWeight:
    """What the moved token, as a query, gives one key token in sentence A and in sentence B."""

    token_id: int
    weight_a: float | None  # summed over the token's occurrences in A; None: not in A
    weight_b: float | None  # the same in B
    masked_a: bool = False  # in A, but every occurrence comes after the query (hidden by the mask)
    masked_b: bool = False

    @property
    def change(self) -> float:
        """B's weight minus A's (0 unless the token is in both)."""
        if self.weight_a is None or self.weight_b is None:
            return 0.0
        return self.weight_b - self.weight_a


def _weight_to(
    m: AttentionMap, ids: list[int], query: int | None, token_id: int
) -> tuple[float | None, bool]:
    keys = [j for j, t in enumerate(ids) if t == token_id]
    if not keys or query is None:  # no such key, or no such query (the token is not in that sentence)
        return None, False
    visible = [j for j in keys if bool(m.mask[query, j])]
    return float(sum(float(m.weights[query, j]) for j in visible)), not visible


def moved_row(
    map_a: AttentionMap,
    map_b: AttentionMap,
    ids_a: list[int],
    ids_b: list[int],
    query_a: int | None,
    query_b: int | None,
) -> list[KeyWeight]:
    """The moved token's attention row in A (it stands at ``query_a``) and in B (``query_b``), by key token;
    a query of None (a token only one sentence has) gives that sentence no weights.

    Args:
        map_a, map_b: the two sentences' maps ([Ta, Ta] and [Tb, Tb]).
        ids_a, ids_b: their token IDs.
    Returns:
        One ``KeyWeight`` per distinct token of A, then of B, in order of first appearance.
    """
    out = []
    for token_id in dict.fromkeys(ids_a + ids_b):
        weight_a, masked_a = _weight_to(map_a, ids_a, query_a, token_id)
        weight_b, masked_b = _weight_to(map_b, ids_b, query_b, token_id)
        out.append(KeyWeight(token_id, weight_a, weight_b, masked_a, masked_b))
    return out


def biggest_changes(row: list[KeyWeight]) -> list[KeyWeight]:
    """Keys found in both sentences whose weight changed visibly (``SHOWN_CHANGE``), largest change first."""
    both = [k for k in row if k.weight_a is not None and k.weight_b is not None]
    return sorted((k for k in both if abs(k.change) >= SHOWN_CHANGE), key=lambda k: -abs(k.change))


def change_sentences(row: list[KeyWeight], query: str, pieces: dict[int, str], most: int = 3) -> list[str]:
    """The ``most`` biggest changes in words: "' dog' gives ' man' 0.41 in A, 0.22 in B." (plain text).

    Args:
        row: ``moved_row``'s result.
        query: the moved token as text.
        pieces: token ID -> its text.
    """
    out = []
    for k in biggest_changes(row)[:most]:
        key = repr(pieces[k.token_id])
        if k.masked_a:
            out.append(
                f"{query} cannot see {key} in A (it comes later: the causal mask) and gives it "
                f"{k.weight_b:.2f} in B."
            )
        elif k.masked_b:
            out.append(
                f"{query} gives {key} {k.weight_a:.2f} in A and cannot see it in B (it comes later: the "
                "causal mask)."
            )
        else:
            out.append(f"{query} gives {key} {k.weight_a:.2f} in A, {k.weight_b:.2f} in B.")
    if not out:
        out.append(f"{query} gives every key token the same weight in A and in B (to 2 decimals).")
    return out


def top_key(m: AttentionMap, query: int) -> int:
    """The position of the key that query ``query`` attends to most."""
    return int(torch.argmax(m.weights[query]))


NONE, DIAGONAL, PLACES = "none", "diagonal", "places"  # what a position part does (``pattern``)


def _visible(m: AttentionMap) -> tuple[np.ndarray, np.ndarray, float]:
    """The mask [T, T], the position part's visible cells [n] and the tolerance they are compared to."""
    mask = m.mask.numpy()
    tol = 1e-9 * max(1.0, float(np.abs(m.content.numpy()[mask]).max()))
    return mask, m.position.numpy()[mask], tol


def pattern(m: AttentionMap) -> str:
    """What a map's position part does, read from its numbers: ``NONE`` (no score changed), ``DIAGONAL``
    (the same along every diagonal: the distance i − j alone) or ``PLACES`` (it changes along one).

    In numpy: on a page's few-token maps, torch's per-operation overhead would cost more than the work.
    """
    mask, values, tol = _visible(m)
    if float(np.abs(values).max()) <= tol:
        return NONE
    T = len(mask)
    i, j = np.nonzero(mask)  # [n] each, the visible cells' rows and columns
    offsets = i - j + T - 1  # [n]: i − j, from 0
    top = np.full(2 * T - 1, -np.inf, dtype=values.dtype)  # [2T − 1]: the largest value at each distance
    bottom = np.full(2 * T - 1, np.inf, dtype=values.dtype)  # the smallest (no cell there: ±inf)
    np.maximum.at(top, offsets, values)
    np.minimum.at(bottom, offsets, values)
    seen = top > -np.inf
    return DIAGONAL if bool((top[seen] - bottom[seen] <= tol).all()) else PLACES  # max − min per distance


def signature(family: Family, m: AttentionMap) -> str:
    """What a family's position part shows on a sentence, in one sentence computed from its numbers."""
    label = family.label
    mask, values, _ = _visible(m)
    shape = pattern(m)
    if shape == NONE:
        hidden = int((~mask).sum())
        if not hidden:
            return f"{label} changes no score, and nothing is masked: order cannot matter here."
        return (
            f"{label} changes no score: only the causal mask ({hidden} hidden cells) tells positions apart."
        )
    if shape == DIAGONAL:
        shape = "the same along every diagonal: it depends only on the distance i − j"
    elif family.kind == "relative":
        shape = (
            "not the same along a diagonal: there the distance i − j is the same but the tokens differ; the "
            "same two tokens at the same distance would get the same value"
        )
    else:
        shape = (
            "not the same along a diagonal: it depends on where each token stands, not only on i − j (its "
            "position vectors are added to the tokens' before the query and key are made: that mixes them)"
        )
    return f"{label} changes the scores by {float(values.min()):+.2f} to {float(values.max()):+.2f}, {shape}."


def every_family_sentence(patterns: dict[str, str]) -> str:
    """What to see in every family's map of one sentence, in one sentence: which are the same along every
    diagonal, which change along one, which change nothing (``patterns``: each family's label and its
    ``pattern``, in the maps' order)."""
    said = []
    for kind, one, many in (
        (DIAGONAL, "is the same along every diagonal", "are the same along every diagonal"),
        (PLACES, "changes along a diagonal", "change along a diagonal"),
        (NONE, "changes no score", "change no score"),
    ):
        labels = [label for label, shape in patterns.items() if shape == kind]
        if labels:
            said.append(f"{listing(labels)} {one if len(labels) == 1 else many}")
    if not said:
        return "There is no map to read."
    where = " (there the distance i − j is the same)" if any(p != NONE for p in patterns.values()) else ""
    return f"Read each map along its diagonals{where}: {'; '.join(said)}."


def distance_terms(m: AttentionMap) -> dict[int, float] | None:
    """What position adds at each distance r = i − j ≥ 0 that the map shows, when that is the same along
    every diagonal (ALiBi, T5 bias); None when it also depends on the tokens or the places."""
    terms: dict[int, float] = {}
    for i, j in m.mask.nonzero().tolist():
        value, r = float(m.position[i, j]), i - j
        if r < 0:
            continue
        if r in terms and abs(terms[r] - value) > 1e-9 * max(1.0, abs(value)):
            return None
        terms.setdefault(r, value)
    return dict(sorted(terms.items()))


def family_term(family: Family, m: AttentionMap) -> torch.Tensor:
    """The family's own term on every pair (query i, key j): what it adds to the score, or for RoPE the
    score of the rotated query and key (its whole score depends on position). [T, T] float64."""
    return m.content + m.position if family.rotate is not None else m.position


@dataclass(frozen=True)
class PairSide:
    """A pair of tokens in one sentence: the later one (the query) looks back at the earlier one (the key)."""

    query: int  # i, the later token's position
    key: int  # j, the earlier token's position
    term: float  # the family's own term at (i, j)

    @property
    def distance(self) -> int:
        """i − j: how many tokens back the query looks."""
        return self.query - self.key


@dataclass(frozen=True)
class PairTerm:
    """Two tokens found exactly once in each sentence, and the family's term for the pair in A and in B."""

    query_a: int  # token ID of the later token in A (the one that looks back)
    key_a: int
    query_b: int  # token ID of the later token in B
    key_b: int
    a: PairSide
    b: PairSide

    @property
    def kept(self) -> bool:
        """Whether the same token looks back the same distance in both sentences."""
        return self.query_a == self.query_b and self.a.distance == self.b.distance

    @property
    def swapped(self) -> bool:
        """Whether the two tokens swapped places at the same distance (the other one is the query in B)."""
        return self.query_a != self.query_b and self.a.distance == self.b.distance

    @property
    def tokens(self) -> frozenset[int]:
        return frozenset((self.query_a, self.key_a))

    @property
    def same_term(self) -> bool:
        """Whether the term is the same in A and in B (to float64 rounding: RoPE's two products differ
        in their last bits)."""
        return math.isclose(self.a.term, self.b.term, rel_tol=1e-9, abs_tol=1e-12)


def pair_terms(
    family: Family, map_a: AttentionMap, map_b: AttentionMap, ids_a: list[int], ids_b: list[int]
) -> list[PairTerm]:
    """Every pair of tokens that occur exactly once in each sentence, with the family's term in each.

    A token found twice would make "the pair" ambiguous, so it is left out. In each sentence the later
    token is the query: under a causal mask it is the one that can see the other.

    Args:
        family: the family whose term is read (``family_term``).
        map_a, map_b: the two sentences' maps ([Ta, Ta], [Tb, Tb]).
        ids_a, ids_b: their token IDs.
    Returns:
        The pairs in the order of A's tokens.
    """
    once = [t for t in dict.fromkeys(ids_a) if ids_a.count(t) == 1 and ids_b.count(t) == 1]
    terms = family_term(family, map_a).numpy(), family_term(family, map_b).numpy()
    out = []
    for n, u in enumerate(once):
        for v in once[n + 1 :]:
            sides = []
            for ids, term in zip((ids_a, ids_b), terms, strict=True):
                i, j = sorted((ids.index(u), ids.index(v)), reverse=True)  # the later one first
                sides.append((ids[i], ids[j], PairSide(i, j, float(term[i, j]))))
            (qa, ka, a), (qb, kb, b) = sides
            out.append(PairTerm(qa, ka, qb, kb, a, b))
    return out


def headline_pairs(pairs: list[PairTerm], token_id: int) -> tuple[PairTerm | None, PairTerm | None]:
    """A pair whose distance the move kept and one whose distance it changed, with ``token_id`` in both
    when it can be (else any such pair; None when there is none)."""

    def first(chosen: list[PairTerm]) -> PairTerm | None:
        return next((p for p in chosen if token_id in p.tokens), chosen[0] if chosen else None)

    moved = [p for p in pairs if p.a.distance != p.b.distance]
    return first([p for p in pairs if p.kept]), first(moved) or first([p for p in pairs if p.swapped])


def tokens_back(count: int) -> str:
    """'1 token back', '3 tokens back', 'at the same place'."""
    return f"{count} token{'s' if count != 1 else ''} back"


def pair_sentence(pair: PairTerm, label: str, pieces: dict[int, str], relative: bool) -> str:
    """The pair's term in A and in B, in words (plain text: the caller escapes it).

    Args:
        pair: one of ``pair_terms``.
        label: the family's display name.
        pieces: token ID -> its text.
        relative: whether the family's term depends on the distance only (not on the places).
    """

    def side(query: int, key: int, s: PairSide) -> str:
        return f"{pieces[query]!r} looks {tokens_back(s.distance)} to {pieces[key]!r}"

    same = pair.same_term
    if pair.kept:
        where = f"In A and in B, {side(pair.query_a, pair.key_a, pair.a)}"
    else:
        where = (
            f"In A {side(pair.query_a, pair.key_a, pair.a)}; in B {side(pair.query_b, pair.key_b, pair.b)}"
        )
    if same:
        value = f"the {label} term is {pair.a.term:+.4f} in both"
    else:
        value = f"the {label} term is {pair.a.term:+.4f} in A and {pair.b.term:+.4f} in B"
    if pair.kept and same:
        why = "the same distance, the same term."
    elif pair.kept:
        why = (
            "the same distance, yet another term: it depends on where the two tokens stand."
            if not relative
            else "the same distance, yet another term."
        )
    elif pair.swapped and same:
        why = "the two tokens swapped places at the same distance, and the term stayed."
    elif pair.swapped:
        why = "the two tokens swapped places at the same distance: the other one is the query now, and its "
        why += "term is another."
    elif same:
        why = "another distance, the same term (both distances share one value)."
    elif pair.query_a != pair.query_b:
        why = "another distance (and the other token looks back), another term."
    else:
        why = "another distance, another term."
    return f"{where}: {value}: {why}"


def visible_keys(m: AttentionMap, query: int) -> int:
    """How many keys query ``query`` can see (the causal mask's doing when fewer than all)."""
    return int(m.mask[query].sum())
