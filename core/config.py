"""The pipeline's settings in one frozen dataclass, with the limits the app enforces."""

from __future__ import annotations

from dataclasses import dataclass

from core.positional import LAYOUTS, check_sinusoidal, check_t5_buckets
from core.tokenizer import MIN_VOCAB_SIZE, check_vocab_size

# Positional methods, in the order the app lists them (URL values of ``method``).
METHODS = ("nope", "learned", "sinusoidal", "shaw", "t5", "alibi", "rope")
ADDITIVE_METHODS = ("learned", "sinusoidal")  # the ones that add a [T, d] table to the input

# Limits that keep one rerun within a small Cloud instance's memory (see README, Performance).
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
    method: str = "learned"  # one of METHODS; only learned and sinusoidal add at the input

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
        if self.method not in METHODS:
            raise ValueError(f"Unknown positional method {self.method!r}; choose one of {METHODS}.")
        if self.method == "sinusoidal" and self.output_dim % 2:
            raise ValueError(
                f"Sinusoidal positions pair a sine with a cosine, so the embedding dim must be "
                f"even (it is {self.output_dim}). Use {self.output_dim + 1} or "
                f"{self.output_dim - 1}, or the learned method."
            )


LEARNED_INITS = {"torch": 1.0, "openai": 0.01, "hf": 0.02}  # init name -> std of N(0, std²)
SINUSOIDAL_LAYOUTS = LAYOUTS
ROPE_PAIRINGS = ("interleaved", "halves")
EXTRAPOLATE_FACTORS = (1, 2, 4, 8)  # used length = factor × trained length (context)
MAX_HEADS = 128
MAX_BUCKETS = 1024
MAX_USED_LENGTH = 65_536


@dataclass(frozen=True)
class FamilyConfig:
    """Settings of the relative and fixed families (the Families page); defaults from the papers."""

    heads: int = 8  # H: attention heads (ALiBi slopes, T5 biases; RoPE and Shaw act per head)
    base: float = 10000.0  # sinusoidal and RoPE frequency base (LLaMA-3 uses 500000)
    buckets: int = 32  # T5: relative-position buckets (num_buckets)
    max_distance: int = 128  # T5: offsets beyond this share the last bucket
    clip: int = 16  # Shaw: offsets are clipped to [-clip, clip] (k = 16 in the paper's base model)
    extrapolate: int = 2  # used length = extrapolate × context length
    layout: str = "interleaved"  # sinusoidal layout: interleaved (paper), concat, fairseq
    pairing: str = "interleaved"  # RoPE pairs: interleaved (paper, LLaMA) or halves (GPT-NeoX, HF)
    init: str = "torch"  # learned table init: torch N(0,1), openai N(0,0.01²), hf N(0,0.02²)

    def validate(self, dim: int, context_length: int) -> None:
        """Raise ``ValueError`` with a message for the first setting that cannot work."""
        if dim % 2:
            raise ValueError(f"Sinusoidal positions need an even embedding dim (it is {dim}).")
        if not 1 <= self.heads <= MAX_HEADS:
            raise ValueError(f"Heads must be between 1 and {MAX_HEADS} (it is {self.heads}).")
        if dim % self.heads:
            raise ValueError(
                f"The embedding dim {dim} does not split into {self.heads} heads: RoPE and Shaw act on "
                f"each head's {dim}/{self.heads} dimensions. Pick heads that divide {dim}."
            )
        if (dim // self.heads) % 2:
            raise ValueError(
                f"RoPE rotates pairs of dimensions, so the head dim must be even (it is "
                f"{dim} / {self.heads} = {dim // self.heads}). Change the heads or the embedding dim."
            )
        if not self.base > 1:
            raise ValueError(f"The frequency base must be greater than 1 (it is {self.base:g}).")
        if not 2 <= self.buckets <= MAX_BUCKETS:
            raise ValueError(f"T5 needs between 2 and {MAX_BUCKETS} buckets (it has {self.buckets}).")
        if not 1 <= self.max_distance <= MAX_USED_LENGTH:
            raise ValueError(
                f"T5's max distance must be between 1 and {MAX_USED_LENGTH:,} (it is {self.max_distance:,})."
            )
        check_t5_buckets(self.buckets, self.max_distance)  # the bucket layout T5's code can build
        if not 0 <= self.clip <= MAX_CONTEXT:
            raise ValueError(
                f"Shaw's clipping distance must be between 0 and {MAX_CONTEXT:,} (it is {self.clip:,})."
            )
        if self.extrapolate not in EXTRAPOLATE_FACTORS:
            raise ValueError(
                f"The used length must be 1, 2, 4 or 8 × the context (it is {self.extrapolate})."
            )
        if self.extrapolate * context_length > MAX_USED_LENGTH:
            raise ValueError(
                f"The used length {self.extrapolate} × {context_length:,} is over {MAX_USED_LENGTH:,} "
                "positions: lower the factor or the context length."
            )
        check_sinusoidal(dim, self.layout)
        for name, value, allowed in (
            ("pairing", self.pairing, ROPE_PAIRINGS),
            ("init", self.init, tuple(LEARNED_INITS)),
        ):
            if value not in allowed:
                raise ValueError(f"Unknown {name} {value!r}; choose one of {allowed}.")
