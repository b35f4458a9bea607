"""The vocabulary-size trade-off: a bigger BPE makes shorter sequences and a bigger token table.

For one text, ``vocab_sweep`` counts its tokens under GPT-2's BPE cut to each of a dozen sizes
(``core.tokenizer.gpt2_tokenizer``) and pairs each count with the table's parameters V × d.
"""

from __future__ import annotations

import heapq
from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import regex

from core.text.tokenizer import ENDOFTEXT, GPT2_PAT_STR, GPT2_VOCAB_SIZE, _gpt2_ranks

_PIECE = regex.compile(GPT2_PAT_STR)  # how GPT-2's BPE splits a text before merging (tiktoken's pattern)

# Roughly log-spaced from the bytes alone (257) to GPT-2's whole BPE (50,257).
SWEEP_SIZES = (257, 400, 700, 1_000, 2_000, 4_000, 8_000, 12_000, 20_000, 32_000, 40_000, GPT2_VOCAB_SIZE)
SWEEP_BYTES = 200_000  # each size encodes at most the text's first 200 kB


@dataclass(frozen=True)
class SweepPoint:
    """Token count of the (first 200 kB of the) text at one vocab size."""

    vocab_size: int  # V
    num_tokens: int  # tokens of the text's swept part under GPT-2's BPE cut to V


def swept_part(text: str) -> str:
    """The text's first ``SWEEP_BYTES`` of UTF-8 (a character cut in two is dropped)."""
    return text.encode("utf-8")[:SWEEP_BYTES].decode("utf-8", errors="ignore")


def vocab_sweep(
    text: str,
    sizes: tuple[int, ...] = SWEEP_SIZES,
    piece_counts: Callable[[bytes, tuple[int, ...]], tuple[int, ...]] | None = None,
) -> list[SweepPoint]:
    """Token counts of ``swept_part(text)`` at each vocab size in ``sizes`` (each ≥ 257), in order.

    The same counts as encoding with each cut encoding (``core.tokenizer.cut_encoding``), without
    building one for each size: GPT-2's BPE merges a piece's adjacent pair of lowest rank
    until none is left, and the cut to V merges the same pairs in the same order until the lowest rank
    left is V − 1 or more. So one run of the whole BPE on each distinct piece, noting the rank of each
    merge, gives the piece's token count at every V (``cut_counts``). ``piece_counts``: a function that
    gives the same counts as ``cut_counts`` (the default), e.g. one that keeps the words it has seen.
    """
    count = piece_counts or cut_counts
    part = swept_part(text)
    segments = part.split(ENDOFTEXT)  # allowed: each one a single token at every V
    pieces = Counter(p for segment in segments for p in _PIECE.findall(segment))
    totals = [len(segments) - 1] * len(sizes)
    for piece, n in pieces.items():
        for k, tokens in enumerate(count(piece.encode("utf-8"), sizes)):
            totals[k] += n * tokens
    return [SweepPoint(size, total) for size, total in zip(sizes, totals, strict=True)]


def cut_counts(piece: bytes, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Tokens of one piece (a match of GPT-2's split pattern) under GPT-2's BPE cut to each size.

    As tiktoken's ``_byte_pair_merge``: a piece that is itself a token kept by the cut is one token;
    otherwise the leftmost adjacent pair of lowest rank merges first. The cut to V keeps ranks < V − 1.
    A long piece (a run of CJK or of one letter, up to the text's 166 kB) is merged with a heap, in
    O(n log n): scanning every pair at every merge is O(n²).
    """
    return _counts_from_merges(piece, _merge_ranks(piece), sizes)


def _merge_ranks(piece: bytes) -> array:
    """The rank of each merge GPT-2's whole BPE makes on ``piece``, in the order it makes them.

    A heap of pairs, each one int ``rank << 36 | left << 18 | right`` (the leftmost pair of lowest rank
    pops first; a piece has < 2**18 bytes), and the parts as arrays of 4-byte ints: ~60 bytes a byte of
    the piece at the peak, ~10 MB for the longest piece a text may have.
    """
    ranks = _gpt2_ranks()
    n = len(piece)
    nxt = array("i", range(1, n + 1))  # nxt[s]: where the part starting at byte s ends
    prv = array("i", range(-1, n - 1))  # prv[s]: where the part before it starts (-1: none)
    alive = bytearray(b"\x01") * n
    heap = [r << 36 | s << 18 | s + 1 for s in range(n - 1) if (r := ranks.get(piece[s : s + 2])) is not None]
    heapq.heapify(heap)
    merged = array("i")
    mask = (1 << 18) - 1
    while heap:
        key = heapq.heappop(heap)
        r, left, right = key >> 36, key >> 18 & mask, key & mask
        if not (alive[left] and alive[right] and nxt[left] == right):
            continue  # one of the two parts has merged since this pair was pushed
        if ranks.get(piece[left : nxt[right]]) != r:
            continue  # the right part grew since: this pair is gone
        merged.append(r)
        alive[right] = 0
        nxt[left] = end = nxt[right]
        if end < n:
            prv[end] = left
        if (before := prv[left]) >= 0 and (r2 := ranks.get(piece[before:end])) is not None:
            heapq.heappush(heap, r2 << 36 | before << 18 | left)
        if end < n and (r2 := ranks.get(piece[left : nxt[end]])) is not None:
            heapq.heappush(heap, r2 << 36 | left << 18 | end)
    return merged


def _counts_from_merges(piece: bytes, merged: array, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """A piece's token count at each size, from the ranks of its merges under the whole BPE."""
    whole = _gpt2_ranks().get(piece)
    counts = []
    for size in sizes:
        limit = min(size, GPT2_VOCAB_SIZE) - 1  # the cut keeps ranks below this
        if whole is not None and whole < limit:
            counts.append(1)
            continue
        done = next((k for k, r in enumerate(merged) if r >= limit), len(merged))  # merges made before it
        counts.append(len(piece) - done)
    return tuple(counts)


def table_parameters(vocab_size: int, dim: int) -> int:
    """Parameters of the token embedding table: V × d."""
    return vocab_size * dim
