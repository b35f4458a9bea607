"""Part of each head rotated: partial rotary (GPT-NeoX, Phi, GLM) and DeepSeek-V3's decoupled RoPE.

* **Partial rotary**: only the first ``int(d · fraction)`` numbers of a query or key turn (GPT-NeoX 0.25,
  Phi 0.5, GLM 0.5 with neighbouring pairs); the rest pass through, so that part of a score ignores
  position entirely.
* **DeepSeek-V3 (MLA)**: a query head is 128 numbers that never turn and 64 that do; every head shares
  one 64-number turned key. The softmax's scale grows with YaRN's stretch (``mla_softmax_scale``).

Each function matches ``transformers`` 5.23 (``apply_rotary_pos_emb`` of GPT-NeoX, Phi and GLM,
``DeepseekV3Attention``): ``tests/core/positional/test_partial_rope.py``.
"""

from __future__ import annotations

import math

import torch

from core.positional.rope import apply_rotary


def rotary_dims(head_dim: int, fraction: float) -> int:
    """How many of a head's numbers turn, as transformers counts them: int(head_dim · fraction)."""
    return int(head_dim * fraction)


def partial_rotary(
    x: torch.Tensor,
    positions: torch.Tensor,
    fraction: float,
    base: float = 10_000.0,
    interleaved: bool = False,
) -> torch.Tensor:
    """[..., T, d] ``x`` with its first ``rotary_dims(d, fraction)`` numbers turned by position (pairs
    (i, i + r/2), or neighbours when ``interleaved``) and the rest passed through unchanged."""
    r = rotary_dims(x.shape[-1], fraction)
    return torch.cat((apply_rotary(x[..., :r], positions, base, interleaved), x[..., r:]), dim=-1)


def decoupled_rope(
    x: torch.Tensor, positions: torch.Tensor, nope_dim: int = 128, base: float = 10_000.0
) -> torch.Tensor:
    """DeepSeek-V3's query [..., T, nope_dim + r]: the first ``nope_dim`` numbers pass, the last r turn as
    neighbouring pairs; the turned part comes out halves first (each pair's first numbers, then its
    second), as transformers lays it out for its interleaved weights. q·k is the same in either layout."""
    passed, turned = x[..., :nope_dim], apply_rotary(x[..., nope_dim:], positions, base, interleaved=True)
    return torch.cat((passed, turned[..., 0::2], turned[..., 1::2]), dim=-1)


def mla_softmax_scale(head_dim: int, factor: float = 1.0, mscale_all_dim: float = 0.0) -> float:
    """The score's scale: 1/√head_dim, times YaRN's m² when the context is stretched by ``factor``
    (m = 0.1 · mscale_all_dim · ln factor + 1; DeepSeek-V3: head 192, factor 40, mscale_all_dim 1)."""
    m = 0.1 * mscale_all_dim * math.log(factor) + 1.0 if mscale_all_dim and factor > 1 else 1.0
    return head_dim**-0.5 * m * m
