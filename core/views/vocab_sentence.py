"""What the vocabulary-size sweep shows, in one sentence read from its numbers (``core.text.vocab``)."""

from __future__ import annotations

from core.text.vocab import SWEEP_BYTES, SweepPoint, table_parameters
from core.views.units import capitalized, plural

BYTES_ONLY = "the 256 single bytes and <|endoftext|>, no merged tokens"  # the smallest V, in words


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
    text = "the text" if whole_text else f"the text's first {SWEEP_BYTES // 1000:,} kB"
    table = (
        f"the token table grows from {table_parameters(small.vocab_size, dim):,} to "
        f"{table_parameters(large.vocab_size, dim):,} parameters at d = {dim:,}"
    )
    if large.num_tokens >= small.num_tokens:  # no merge at all: every V gives the bytes themselves
        change = (
            f"{text} has no tokens at any V, while {table}"
            if small.num_tokens == 0
            else f"{text} stays at {plural(small.num_tokens, 'token')} from V = {small.vocab_size:,} "
            f"({BYTES_ONLY}) to {large.vocab_size:,}: GPT-2's BPE finds no pair of bytes in it to merge, "
            f"while {table}"
        )
    else:
        fewer, ratio = small.num_tokens - large.num_tokens, small.num_tokens / max(large.num_tokens, 1)
        if ratio >= 1.1:
            shorter = (
                f"{ratio:.1f}× shorter: a window of T tokens covers {ratio:.1f}× more text, and the text "
                "fills that many times fewer windows"
            )
        else:  # "1.0× shorter" would say no change: the count and share say how little
            share = 100 * fewer / small.num_tokens
            part = f"{share:.1f}%" if share >= 0.1 else "under 0.1%"
            shorter = (
                f"{plural(fewer, 'token')} fewer, {part} of them: a window of T tokens covers only a little "
                "more text"
            )
        change = (
            f"from V = {small.vocab_size:,} ({BYTES_ONLY}) to {large.vocab_size:,} "
            f"{text} goes from {small.num_tokens:,} to {plural(large.num_tokens, 'token')} ({shorter}), "
            f"while {table}"
        )
    return (
        f"{capitalized(change)}. At the sidebar's V = {vocab_size:,}: {plural(num_tokens, 'token')} and "
        f"{table_parameters(vocab_size, dim):,} parameters."
    )
