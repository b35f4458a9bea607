"""Gemma 2's soft-capping: each attention score s becomes cap · tanh(s / cap) before the softmax, so no score
passes ±cap, and small ones stay almost as they were.

Matches ``transformers`` 5.23 (``eager_attention_forward`` of ``modeling_gemma2``, ``softcap``):
``tests/core/attention/test_soft_cap.py``.
"""

from __future__ import annotations

import torch


def soft_cap(scores: torch.Tensor, cap: float) -> torch.Tensor:
    """``scores`` squeezed smoothly into (−cap, cap): cap · tanh(scores / cap)."""
    return cap * torch.tanh(scores / cap)
