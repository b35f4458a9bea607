"""Reading attention maps in words: the moved token's row in two sentences, and each family's signature."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch

from core.attention.maps import AttentionMap
from core.positional.family import Family

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


def _weight_to(m: AttentionMap, ids: list[int], query: int, token_id: int) -> tuple[float | None, bool]:
    keys = [j for j, t in enumerate(ids) if t == token_id]
    if not keys:
        return None, False
    visible = [j for j in keys if bool(m.mask[query, j])]
    return float(sum(float(m.weights[query, j]) for j in visible)), not visible


def moved_row(
    map_a: AttentionMap, map_b: AttentionMap, ids_a: list[int], ids_b: list[int], query_a: int, query_b: int
) -> list[KeyWeight]:
    """The moved token's attention row in A (it stands at ``query_a``) and in B (``query_b``), by key token.

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


def signature(family: Family, m: AttentionMap) -> str:
    """What a family's position part shows on a sentence, in one sentence computed from its numbers.

    In numpy: on a page's few-token maps, torch's per-operation overhead made it ~0.5 ms a family.
    """
    label = family.label
    mask = m.mask.numpy()  # [T, T]
    values = m.position.numpy()[mask]  # [n]: the visible cells
    tol = 1e-9 * max(1.0, float(np.abs(m.content.numpy()[mask]).max()))
    if float(np.abs(values).max()) <= tol:
        hidden = int((~mask).sum())
        if not hidden:
            return f"{label} changes no score, and nothing is masked: order cannot matter here."
        return (
            f"{label} changes no score: only the causal mask ({hidden} hidden cells) tells positions apart."
        )
    T = len(mask)
    i, j = np.nonzero(mask)  # [n] each, the visible cells' rows and columns
    offsets = i - j + T - 1  # [n]: i − j, from 0
    top = np.full(2 * T - 1, -np.inf, dtype=values.dtype)  # [2T − 1]: the largest value at each distance
    bottom = np.full(2 * T - 1, np.inf, dtype=values.dtype)  # the smallest (no cell there: ±inf)
    np.maximum.at(top, offsets, values)
    np.minimum.at(bottom, offsets, values)
    seen = top > -np.inf
    relative = bool((top[seen] - bottom[seen] <= tol).all())  # max − min at each distance i − j shown
    if relative:
        shape = "the same along every diagonal: it depends only on the distance i − j"
    elif family.kind == "relative":
        shape = "not the same along a diagonal: at one distance i − j it still depends on the tokens' q and k"
    else:
        shape = "not the same along a diagonal: it depends on where each token stands, not only on i − j"
    return f"{label} changes the scores by {float(values.min()):+.2f} to {float(values.max()):+.2f}, {shape}."
