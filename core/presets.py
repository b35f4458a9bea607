"""Published model configurations as presets, with the size of their embedding tables.

Every number comes from the model's published configuration (docs/pages.md, "Presets", cites each).
Total parameters are computed from the architecture and checked against the published totals
in ``tests/core/test_presets.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.positional.family import FAMILIES, FamilyConfig
from core.text.data import num_windows

GPT2_VOCAB = 50257


@dataclass(frozen=True)
class Preset:
    """One model's embedding-relevant configuration."""

    name: str  # URL value of ``preset``
    label: str
    vocab_size: int  # V
    dim: int  # d (hidden size)
    context_length: int  # trained context length
    method: str  # positional method
    layers: int  # transformer blocks (decoder blocks; T5: per stack)
    ffn: int  # feed-forward inner size
    kv_dim: int | None = None  # grouped-query attention: keys/values width (None: d)
    heads: int | None = None  # attention heads
    rope_base: float | None = None
    buckets: int | None = None
    max_distance: int | None = None
    architecture: str = "gpt2"  # gpt2 (tied, learned), llama (untied, RMSNorm, SwiGLU), bloom, t5
    source: str = ""

    @property
    def stride(self) -> int:
        """Tokens between two windows' starts: the context length, so that windows do not overlap, as the
        book's loaders over training data (ch. 2.8: max_length=4, stride=4; ch. 5: stride=context_length)."""
        return self.context_length

    def data_settings(self, num_tokens: int, batch_size: int) -> tuple[int, int]:
        """The stride and batch size this preset sets for a text of ``num_tokens`` tokens.

        The stride is ``stride``; the batch keeps ``batch_size`` unless the text makes fewer windows at
        that stride, then as many as it makes (at least 1: a text too short for one window is said
        elsewhere). Returns (stride, batch size).
        """
        windows = num_windows(num_tokens, self.context_length, self.stride)
        return self.stride, max(1, min(batch_size, windows))

    def embedding_parameters(self) -> int:
        """Parameters of the input tables: the token table, plus its family's trained position numbers
        (``Family.parameter_count``: learned positions, or T5's biases, one table per stack)."""
        V, d = self.vocab_size, self.dim
        settings = {"heads": self.heads, "buckets": self.buckets, "max_distance": self.max_distance}
        fam = FamilyConfig(**{key: value for key, value in settings.items() if value is not None})
        stacks = 2 if self.architecture == "t5" else 1  # T5: an encoder and a decoder, a bias table each
        return V * d + stacks * FAMILIES[self.method].parameter_count(self.context_length, d, fam)

    def total_parameters(self) -> int:
        """The whole model's parameters, from the architecture (biases and norms included)."""
        V, d, L, f = self.vocab_size, self.dim, self.layers, self.ffn
        if self.architecture == "gpt2":  # wte + wpe, L × (2 LN, qkv, proj, fc, proj), ln_f; head tied
            return (
                V * d + self.context_length * d + L * (4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d) + 2 * d
            )
        if self.architecture == "bloom":  # like gpt2 without wpe, plus an embedding layer norm
            return V * d + 2 * d + L * (4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d) + 2 * d
        if (
            self.architecture == "llama"
        ):  # embed + untied head, L × (q, k, v, o, gate/up/down, 2 RMSNorm), norm
            kv = self.kv_dim or d
            return 2 * V * d + L * (2 * d * d + 2 * d * kv + 3 * d * f + 2 * d) + d
        if self.architecture == "t5":  # shared embedding (tied head); encoder and decoder stacks
            attn = 4 * d * d
            encoder = L * (attn + 2 * d * f + 2 * d) + self.buckets * self.heads + d
            decoder = L * (2 * attn + 2 * d * f + 3 * d) + self.buckets * self.heads + d
            return V * d + encoder + decoder
        raise ValueError(f"Unknown architecture {self.architecture!r}.")


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "book",
            "The book's setting (ch. 2.8)",
            GPT2_VOCAB,
            256,
            4,
            "learned",
            0,
            0,
            architecture="gpt2",
            source="Raschka, Build a LLM from Scratch, ch. 2.8",
        ),
        Preset(
            "gpt2-small",
            "GPT-2 small (124M)",
            GPT2_VOCAB,
            768,
            1024,
            "learned",
            12,
            3072,
            heads=12,
            source="openai-community/gpt2 config.json",
        ),
        Preset(
            "gpt2-medium",
            "GPT-2 medium (355M)",
            GPT2_VOCAB,
            1024,
            1024,
            "learned",
            24,
            4096,
            heads=16,
            source="openai-community/gpt2-medium config.json",
        ),
        Preset(
            "gpt2-large",
            "GPT-2 large (774M)",
            GPT2_VOCAB,
            1280,
            1024,
            "learned",
            36,
            5120,
            heads=20,
            source="openai-community/gpt2-large config.json",
        ),
        Preset(
            "gpt2-xl",
            "GPT-2 XL (1.5B)",
            GPT2_VOCAB,
            1600,
            1024,
            "learned",
            48,
            6400,
            heads=25,
            source="openai-community/gpt2-xl config.json",
        ),
        Preset(
            "gpt3-175b",
            "GPT-3 175B",
            GPT2_VOCAB,
            12288,
            2048,
            "learned",
            96,
            49152,
            heads=96,
            source="Brown et al. 2020, Table 2.1",
        ),
        Preset(
            "llama2-7b",
            "LLaMA-2 7B",
            32000,
            4096,
            4096,
            "rope",
            32,
            11008,
            heads=32,
            rope_base=10000.0,
            architecture="llama",
            source="meta-llama/Llama-2-7b-hf config.json",
        ),
        Preset(
            "llama3-8b",
            "LLaMA-3 8B",
            128256,
            4096,
            8192,
            "rope",
            32,
            14336,
            kv_dim=1024,
            heads=32,
            rope_base=500000.0,
            architecture="llama",
            source="meta-llama/Meta-Llama-3-8B config.json",
        ),
        Preset(
            "bloom-176b",
            "BLOOM 176B",
            250880,
            14336,
            2048,
            "alibi",
            70,
            57344,
            heads=112,
            architecture="bloom",
            source="bigscience/bloom config.json",
        ),
        Preset(
            "t5-base",
            "T5-base",
            32128,
            768,
            512,
            "t5",
            12,
            3072,
            heads=12,
            buckets=32,
            max_distance=128,
            architecture="t5",
            source="google-t5/t5-base config.json",
        ),
    )
}
