"""Why position matters: token vectors and bags of vectors with and without positions.

The lesson's example: in "The cat sat on the mat" and "On the mat the cat sat" the token
" cat" has the same ID, so the embedding layer gives it the same vector in both; only the
positional vector tells the two apart. Attention cannot see order by itself: a shuffled
sentence gives it the same set of vectors.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from core.positional.family import FAMILIES
from core.serving.budget import REQUEST_BYTES
from core.similarity import cosine
from core.views.units import capitalized, count_of, plural


@dataclass(frozen=True)
class SharedToken:
    """One token that occurs in both sentences, at its first position in each."""

    token_id: int
    position_a: int
    position_b: int
    cosine_without: float  # cos(tok, tok): always 1 — the same row of the same table
    cosine_with: float  # cos(tok + pos[pa], tok + pos[pb])
    norm_without: float  # |tok|, the same in both sentences
    norm_with_a: float  # |tok + pos[pa]|
    norm_with_b: float  # |tok + pos[pb]|


def shared_tokens(
    ids_a: list[int], ids_b: list[int], tok_a: torch.Tensor, tok_b: torch.Tensor, pos: torch.Tensor
) -> list[SharedToken]:
    """Compare every token ID found in both sentences.

    Args:
        ids_a, ids_b: token IDs of the two sentences (lengths Na, Nb).
        tok_a, tok_b: their token embeddings [Na, d] and [Nb, d].
        pos: positional embeddings [max(Na, Nb), d].
    """
    out = []
    for token_id in dict.fromkeys(ids_a):
        if token_id not in ids_b:
            continue
        pa, pb = ids_a.index(token_id), ids_b.index(token_id)
        ta, tb = tok_a[pa], tok_b[pb]
        out.append(
            SharedToken(
                token_id=token_id,
                position_a=pa,
                position_b=pb,
                cosine_without=cosine(ta, tb),
                cosine_with=cosine(ta + pos[pa], tb + pos[pb]),
                norm_without=float(ta.double().norm()),
                norm_with_a=float((ta + pos[pa]).double().norm()),
                norm_with_b=float((tb + pos[pb]).double().norm()),
            )
        )
    return out


def count_shared_vectors(x_a: torch.Tensor, x_b: torch.Tensor) -> int:
    """How many rows of x_b [Nb, d] are bit-identical to some row of x_a [Na, d].

    Compares each row's bytes, so memory stays O((Na + Nb)·d) (an [Nb, Na, d] comparison would not).
    """
    rows_a = {row.numpy().tobytes() for row in x_a.contiguous()}
    return sum(row.numpy().tobytes() in rows_a for row in x_b.contiguous())


@dataclass(frozen=True)
class OrderComparison:
    """What a model could tell apart between two sentences, without and with positions."""

    shared_without: int  # vectors of B found among A's token embeddings
    shared_with: int  # vectors of B found among A's input embeddings (token + position)
    num_vectors: int  # vectors in B
    mean_cosine_without: float  # cos(mean(tok_a), mean(tok_b))
    mean_cosine_with: float  # cos(mean(tok_a + pos), mean(tok_b + pos))
    mean_diff_without: float  # max |mean(tok_a) - mean(tok_b)|
    mean_diff_with: float  # max |mean(tok_a + pos) - mean(tok_b + pos)|


def compare_orders(tok_a: torch.Tensor, tok_b: torch.Tensor, pos: torch.Tensor) -> OrderComparison:
    """Compare two sentences: tok_a [Na, d], tok_b [Nb, d], pos [max(Na, Nb), d].

    Without positions a shuffled sentence hands the model the very same set of vectors (and
    attention without a causal mask treats its input as a set). With positions the set changes.
    The mean, though, stays blind either way: mean(tok + pos) = mean(tok) + mean(pos) for any order, which is
    why positions must reach a layer that compares vectors pairwise, like attention.
    Sums run in float64 so that rounding does not pose as a difference.
    """
    tok_a, tok_b, pos = tok_a.double(), tok_b.double(), pos.double()
    in_a, in_b = tok_a + pos[: len(tok_a)], tok_b + pos[: len(tok_b)]  # [Na, d], [Nb, d]
    m_a, m_b, p_a, p_b = tok_a.mean(0), tok_b.mean(0), in_a.mean(0), in_b.mean(0)  # [d] each
    return OrderComparison(
        shared_without=count_shared_vectors(tok_a, tok_b),
        shared_with=count_shared_vectors(in_a, in_b),
        num_vectors=len(tok_b),
        mean_cosine_without=cosine(m_a, m_b),
        mean_cosine_with=cosine(p_a, p_b),
        mean_diff_without=float((m_a - m_b).abs().max()),
        mean_diff_with=float((p_a - p_b).abs().max()),
    )


def permutation(n: int, seed: int) -> list[int]:
    """A seeded shuffle of ``range(n)`` that moves at least one element when n > 1."""
    if n < 2:
        return list(range(n))
    g = torch.Generator().manual_seed(seed)
    order = torch.randperm(n, generator=g).tolist()
    return order if order != list(range(n)) else order[1:] + order[:1]


def max_sentence_tokens(dim: int) -> int:
    """Tokens a sentence may have at d = ``dim``: its ~16 float64 [N, d] copies fit ``REQUEST_BYTES``."""
    return max(8, min(64, REQUEST_BYTES // (16 * 8 * dim)))


def check_sentence_tokens(num_a: int, num_b: int, dim: int) -> None:
    """Raise ``ValueError`` if sentence A (``num_a`` tokens) or B is longer than ``max_sentence_tokens``.

    The page's tensors ([N, d] token rows, the [N, d] position table, their sums and float64 copies)
    grow with the sentences' length times d: unbounded, two long sentences at a large d would take more
    of the shared server's memory than one request may (``REQUEST_BYTES``).
    """
    most = max_sentence_tokens(dim)
    if max(num_a, num_b) > most:
        raise ValueError(
            f"A sentence may have at most {most} tokens at d = {dim:,} (the shared server's memory budget); "
            f"A has {num_a} and B has {num_b}. Shorten it."
        )


def mid_sentence(text: str) -> str:
    """``text`` as its words occur mid-sentence: with a leading space (GPT-2 keeps it in the token).

    "dog" at the start of a text and " dog" inside one are different token IDs; a leading space makes
    a sentence's first word the same token as in the other sentence.
    """
    return text if text[:1].isspace() else " " + text


def moved_sentence(shared: list[SharedToken], additive: bool) -> str:
    """How many shared tokens moved and, with a table added, that those that stayed keep their vectors
    (any count: one, many, none)."""
    kept = sum(s.position_a == s.position_b for s in shared)
    said = (
        f"{capitalized(count_of(len(shared) - kept, len(shared), 'shared token'))} at another position in B."
    )
    if kept and additive:
        said += (
            " The one that kept its place keeps its vector, even with positions."
            if kept == 1
            else f" The {kept} that kept their place keep their vectors, even with positions."
        )
    return said


def first_moved(shared: list[SharedToken]) -> SharedToken | None:
    """The first shared token that stands at another position in B than in A (None if none moved)."""
    return next((s for s in shared if s.position_a != s.position_b), None)


def shuffle_sentences(method: str, additive: bool, shuffle: OrderComparison) -> list[str]:
    """What the shuffle comparison shows, one sentence per finding, from its numbers (any count of
    vectors, one and none included).

    Args:
        method: the positional method in use (a ``FAMILIES`` name; the sentences say its label).
        additive: whether it adds a vector to the input (learned, sinusoidal).
        shuffle: A compared with a shuffle of its own tokens.
    """
    n = shuffle.num_vectors
    if n < 2:  # one order only: a shuffle cannot move anything
        what = "An empty sentence" if n == 0 else "A sentence of one token"
        return [f"{what} has only one order: its shuffle is the sentence itself, with or without positions."]
    if shuffle.shared_without == n:
        same = f"exactly the same {plural(n, 'vector')}, only listed in another order"
    else:
        same = f"{plural(n, 'vector')}, of which {count_of(shuffle.shared_without, n, 'vector')} among A's"
    out = [
        f"**Without positions** the shuffled sentence hands the model {same}. Attention that lets every "
        "token see every other token treats its input as a set, so it cannot tell the orders apart."
    ]
    if not additive:
        return [*out, _nothing_added_sentence(method, shuffle.shared_with, n)]
    return [*out, _with_positions_sentence(shuffle.shared_with, n), _average_sentence(shuffle)]


def _nothing_added_sentence(method: str, same_with: int, n: int) -> str:
    """For a family that adds nothing to the input: the vectors stay the same, and where order enters."""
    family = FAMILIES[method]
    return (
        f"**With {family.label}** nothing is added to the input vectors, so 'with positions' is the same "
        f"as 'without' here: {count_of(same_with, n, 'vector')} unchanged. "
        + (
            f"{family.where[0].upper()}{family.where[1:]} instead: the order reaches the model there, "
            "not in these vectors."
            if family.where
            else "Nothing but a causal mask depends on position here: only the mask can let order in."
        )
    )


def _with_positions_sentence(same_with: int, n: int) -> str:
    """For a table added to the input: how many of the ``n`` vectors are still the same."""
    if same_with == n:
        return (
            f"**With positions** {count_of(n, n, 'vector')} still the same: every position still holds the "
            "same token (this shuffle only swapped copies of one token)."
        )
    if same_with == 0:
        none = count_of(0, n, "vector")
        return f"**With positions** {none} the same any more: the order is in the numbers."
    return (
        f"**With positions** only {count_of(same_with, n, 'vector')} still the same (a token that kept "
        "its place keeps its vector): the order is now in the numbers."
    )


def _average_sentence(shuffle: OrderComparison) -> str:
    """Why a plain average of (token + position) cannot see the shuffle, with how close the two are."""
    diff = shuffle.mean_diff_with
    if diff == 0:
        means = "the two averages are exactly equal"
    elif diff < 1e-9:  # float64 sums of O(1) values: only the last digits differ
        means = (
            f"the two averages' cosine is {shuffle.mean_cosine_with:.6f} and no number of theirs differs by "
            "more than the computer's rounding in the last digits"
        )
    else:
        means = (
            f"the two averages' cosine is {shuffle.mean_cosine_with:.6f} (no number of theirs differs by "
            f"more than {diff:.3g})"
        )
    return (
        f"**A plain average still cannot see it**: {means}, because the average of (token + position) is the "
        "average of the tokens plus the average of the positions, in any order. Positions pay off in "
        "attention, which compares vectors pair by pair."
    )


def reordering_sentence(ids_a: list[int], ids_b: list[int], pieces: dict[int, str]) -> str:
    """Whether B is an exact reordering of A's tokens, and if not, what differs (plain text).

    Args:
        ids_a, ids_b: the two sentences' token IDs.
        pieces: token ID -> its text, for every ID of both.
    """
    if sorted(ids_a) == sorted(ids_b):
        return "B is an exact reordering of A's tokens."
    end = "so they differ even without positions."
    only_b = [t for t in dict.fromkeys(ids_b) if t not in ids_a]
    only_a = [t for t in dict.fromkeys(ids_a) if t not in ids_b]
    if not only_a and not only_b:
        return f"A and B use the same tokens, but not equally often, {end}"
    lacking, having, other, own = ("A", "B", only_a, only_b) if only_b else ("B", "A", only_b, only_a)

    def look_alike(t: int) -> int | None:  # a token of the other sentence that differs by case or a space
        key = pieces[t].strip().casefold()
        return next((u for u in other if pieces[u].strip().casefold() == key), None)

    distinct = len(dict.fromkeys(ids_b if having == "B" else ids_a))
    verb = "is" if len(own) == 1 else "are"
    pair = next(((t, u) for t in own if (u := look_alike(t)) is not None), None)
    if pair:
        example = f"GPT-2 gives {pieces[pair[0]]!r} and {pieces[pair[1]]!r} different IDs"
    else:
        example = f"for example {pieces[own[0]]!r}"
    return (
        f"A and B are not an exact reordering of each other: {len(own)} of {having}'s {distinct} distinct "
        f"tokens {verb} not in {lacking} ({example}), {end}"
    )
