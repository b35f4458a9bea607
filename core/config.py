"""The pipeline's settings in one frozen dataclass, with the limits the app enforces."""

from __future__ import annotations

from dataclasses import dataclass

from core.positional.family import FAMILIES, MAX_USED_LENGTH, FamilyConfig
from core.text.tokenizer import MIN_VOCAB_SIZE, check_vocab_size

__all__ = ["FAMILIES", "MAX_USED_LENGTH", "FamilyConfig", "PipelineConfig"]

# Limits that keep one rerun within a small Cloud instance's memory (docs/memory.md).
MAX_VOCAB = 1_000_000
MAX_DIM = 16_384
MAX_CONTEXT = 8_192
MAX_BATCH = 128
MAX_STRIDE = 1_000_000
MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class PipelineConfig:
    """What the sidebar sets; the defaults are the book's (ch. 2.8)."""

    vocab_size: int = 50257  # V: the tokenizer's size (GPT-2's BPE cut to V) and the token table's rows
    output_dim: int = 256  # d: the length of every embedding vector
    context_length: int = 4  # T: tokens per window (max_length in the data loader)
    batch_size: int = 8  # B: windows per batch
    stride: int = 4  # tokens between the starts of two windows
    seed: int = 123  # torch.manual_seed before the embedding layers are created
    method: str = "learned"  # a name in core.positional.FAMILIES; only the additive ones add at the input

    def validate(self) -> None:
        """Raise ``ValueError`` with a message for the first setting out of range."""
        check_vocab_size(self.vocab_size)
        bounds = [
            ("Vocab size", self.vocab_size, MIN_VOCAB_SIZE, MAX_VOCAB),
            ("Embedding dim", self.output_dim, 1, MAX_DIM),
            ("Context length", self.context_length, 1, MAX_CONTEXT),
            ("Batch size", self.batch_size, 1, MAX_BATCH),
            ("Stride", self.stride, 1, MAX_STRIDE),
            ("Seed", self.seed, 0, MAX_SEED),
        ]
        for label, value, low, high in bounds:
            if not low <= value <= high:
                raise ValueError(f"{label} must be between {low:,} and {high:,} (it is {value:,}).")
        family = FAMILIES.get(self.method)
        if family is None:
            raise ValueError(f"Unknown positional method {self.method!r}; choose one of {tuple(FAMILIES)}.")
        if family.additive and family.check is not None:  # its table must fit d (a sinusoid's pairs)
            family.check(FamilyConfig(), self.output_dim, self.context_length)
