"""Llama 4's query-key norm (``use_qk_norm``): after RoPE, each query and key of a rotating layer is scaled
to a root mean square of 1 (no learned weight), so a score compares directions and cannot grow with a
vector's length.

Matches ``transformers`` 5.23 (``Llama4TextL2Norm``): ``tests/core/attention/test_qk_norm.py``.
"""

from __future__ import annotations

import torch


def qk_norm(x: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """[..., dh] ``x`` divided by its root mean square (plus ``eps`` inside the root): length √dh."""
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
