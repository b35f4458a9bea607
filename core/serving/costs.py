"""What a text and a step cost in memory: the cost models the memory governor reserves by.

Each model predicts the rise of the server's resident size (RSS) that a step causes from a warm,
trimmed server, fitted on this machine (glibc, mmap threshold 128 KiB, ``core.serving.memory_governor``) and
checked against measured peaks by ``tests/core/serving/test_memory_governor.py`` and
``benchmarks/memory_bench.py``. A text is bounded by what it costs (``core.serving.budget``): its UTF-8 bytes,
which are its tokens at the smallest vocabulary (V = 257, one token per byte), and what the server keeps
of it while a session uses it. A training run's model is ``core.training.training.estimated_bytes``,
beside its time model: ``TrainConfig.validate`` bounds a run by it and the train queue reserves it.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.serving.budget import PASTE_COPIES

MB = 10**6
# V = 257, the smallest vocabulary: the 256 byte tokens and <|endoftext|>, so every token is a byte
# (core.text.tokenizer.MIN_VOCAB_SIZE, which the tests hold it to).
BYTES_VOCAB_SIZE = 257


@dataclass(frozen=True)
class TextCost:
    """What one text costs: its size, its tokens at V = 257, and what the server keeps of it."""

    chars: int  # characters (code points)
    utf8_bytes: int  # its UTF-8 bytes = its tokens at V = 257 (bytes only), "<|endoftext|>" aside
    held_bytes: int  # what the server keeps while a session uses it (see ``held_bytes``)

    @property
    def byte_tokens(self) -> int:
        """Tokens at V = 257: one per UTF-8 byte."""
        return self.utf8_bytes


def string_bytes(text: str) -> int:
    """Bytes of a Python ``str`` of ``text``: 1, 2 or 4 a character (the widest one decides), plus its
    UTF-8 kept beside it once it has been encoded (never for ASCII, whose UTF-8 is the string)."""
    if text.isascii():
        return len(text)
    widest = max(text)
    kind = 1 if widest <= "\xff" else 2 if widest <= "\uffff" else 4
    return kind * len(text) + len(text.encode("utf-8"))


def text_cost(text: str, pasted: bool = True) -> TextCost:
    """The cost of ``text``: pasted texts are kept ``PASTE_COPIES`` times as UTF-8 in Streamlit's
    protocol buffers, an uploaded file's bytes once; both keep the string itself."""
    utf8 = len(text.encode("utf-8"))
    kept = (PASTE_COPIES if pasted else 1) * utf8 + string_bytes(text)
    return TextCost(len(text), utf8, kept)


def tokenize_bytes(utf8_bytes: int, longest: int, vocab_size: int) -> int:
    """Peak bytes of tokenizing a text of ``utf8_bytes`` (longest piece ``longest`` bytes, as
    ``core.text.tokenizer.longest_piece`` measures it) at V.

    At V = 257 the tokens are the bytes: a list of n small ints (8 bytes each, no int objects) and
    tiktoken's own buffers, ~10 bytes a token, plus ~23 bytes a byte of its longest piece (BPE's
    working list) and ~0.35 MB of allocator pages. Above, a token is one to n bytes and an ID ≥ 257 is an
    int object of its own (28 bytes): the model takes the bound n = bytes, so it never predicts less
    than it takes.
    """
    if vocab_size <= BYTES_VOCAB_SIZE:
        return int(350_000 + 10 * utf8_bytes + 24 * longest)
    return int(MB + (10 + 28) * utf8_bytes + 32 * longest)


SWEEP_BASE_BYTES = 1_800_000  # the sweep's pieces and counts kept between texts, and allocator pages


def sweep_bytes(utf8_bytes: int, longest: int) -> int:
    """Peak bytes of ``core.text.vocab.vocab_sweep`` on a text: its pieces (~10 bytes a byte) and the heap
    merge of its longest piece, ~36 bytes a byte at worst (one letter repeated, which merges at every
    step): 9.4 MB for one 166 kB word. ASCII text and a long run of CJK or emoji, which merges less,
    take less: a bound."""
    return SWEEP_BASE_BYTES + 10 * utf8_bytes + 36 * longest


def batch_bytes(batch_size: int, max_length: int, stride: int, num_tokens: int) -> int:
    """Peak bytes of ``core.text.data.first_batch`` on ``num_tokens`` tokens: the tokens it is cut from, its
    [B, T+1] index and windows (int64), 16.8 MB at B 128, T 8,192."""
    span = min(num_tokens, (batch_size - 1) * stride + max_length + 1)
    return 8 * span + 2 * 8 * batch_size * (max_length + 1)


def table_rows_bytes(rows: int, dim: int, streamed: bool) -> int:
    """Peak bytes of drawing ``rows`` rows of d values (``core.embeddings``), a bound: the rows and a
    float64 copy, and a streamed table's 4 MB buffer twice."""
    return rows * dim * 12 + (8 * 2**20 if streamed else 0)


def why_bytes(num_tokens: int, dim: int) -> int:
    """Peak bytes of Why position?'s comparisons for sentences of up to ``num_tokens`` tokens at d:
    ~66 bytes per token and dimension (its float64 [N, d] copies)."""
    return 66 * num_tokens * dim


def families_view_bytes(context_length: int, dim: int, span: int) -> int:
    """Peak bytes of the Families page's views drawn anew at context T, d and chart 1's distance span:
    per dimension ~2,300 bytes, and ~1,100 more for the learned table's rows below T."""
    below = min(1.0, context_length / max(span, 1))  # the share of chart 1's distances a learned table has
    return int(4 * MB + dim * (2_300 + 1_100 * below))
