"""The vocabulary-size trade-off: a bigger BPE makes shorter sequences and a bigger token table.

For one text, ``vocab_sweep`` counts its tokens under GPT-2's BPE cut to each of a dozen sizes
(``core.text.tokenizer.gpt2_tokenizer``) and pairs each count with the table's parameters V × d.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.text.tokenizer import ENDOFTEXT, GPT2_VOCAB_SIZE, cut_encoding, gpt2_tokenizer

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


def vocab_sweep(text: str, sizes: tuple[int, ...] = SWEEP_SIZES) -> list[SweepPoint]:
    """Token counts of ``swept_part(text)`` at each vocab size in ``sizes`` (each ≥ 257), in order.

    Sizes from 50,257 up share GPT-2's whole BPE; smaller ones build their cut encoding once here
    (≤ 0.1 s each) and let it go, so the sweep leaves the tokenizer cache alone.
    """
    part = swept_part(text)
    points = []
    for size in sizes:
        enc = gpt2_tokenizer() if size >= GPT2_VOCAB_SIZE else cut_encoding(size)
        points.append(SweepPoint(size, len(enc.encode(part, allowed_special={ENDOFTEXT}))))
    return points


def table_parameters(vocab_size: int, dim: int) -> int:
    """Parameters of the token embedding table: V × d."""
    return vocab_size * dim


def tradeoff_sentence(
    points: list[SweepPoint], vocab_size: int, num_tokens: int, dim: int, whole_text: bool = True
) -> str:
    """What the sweep shows, from its numbers: the smallest V against GPT-2's, and where V stands.

    Args:
        points: ``vocab_sweep`` of the text (first point the smallest V, last GPT-2's 50,257).
        vocab_size, num_tokens: the sidebar's V and the text's swept part's token count at V.
        dim: d, for the table's parameters.
        whole_text: False when the text is longer than the swept 200 kB (the sentence says so).
    """
    small, large = points[0], points[-1]
    shorter = small.num_tokens / max(large.num_tokens, 1)
    text = "the text" if whole_text else f"the text's first {SWEEP_BYTES // 1000:,} kB"
    return (
        f"From V = {small.vocab_size:,} (bytes only) to {large.vocab_size:,} {text} goes from "
        f"{small.num_tokens:,} to {large.num_tokens:,} tokens ({shorter:.1f}× shorter: a window of T "
        f"tokens covers {shorter:.1f}× more text, and the text fills that many times fewer windows), while "
        f"the token table grows from {table_parameters(small.vocab_size, dim):,} to "
        f"{table_parameters(large.vocab_size, dim):,} parameters at d = {dim:,}. At the sidebar's "
        f"V = {vocab_size:,}: {num_tokens:,} tokens and {table_parameters(vocab_size, dim):,} parameters."
    )
