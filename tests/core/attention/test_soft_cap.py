"""Gemma 2's soft-capping (core/attention/soft_cap.py) against transformers 5.23's own attention."""

import math
from types import SimpleNamespace

import pytest
import torch

from core.attention.soft_cap import soft_cap

pytest.importorskip("transformers")
from transformers.models.gemma2 import modeling_gemma2  # noqa: E402


def test_the_weights_are_gemma2_eager_attentions():
    g = torch.Generator().manual_seed(0)
    B, H, T, dh = 1, 2, 6, 8
    q, k, v = (torch.randn(B, H, T, dh, generator=g, dtype=torch.float64) * 8 for _ in range(3))
    mask = torch.full((T, T), -math.inf, dtype=torch.float64).triu(1)[None, None]  # causal
    module = SimpleNamespace(head_dim=dh, num_key_value_groups=1, training=False)
    _, theirs = modeling_gemma2.eager_attention_forward(module, q, k, v, mask, scaling=dh**-0.5, softcap=50.0)
    capped = soft_cap(q @ k.transpose(-1, -2) * dh**-0.5, 50.0) + mask
    ours = torch.softmax(capped, dim=-1, dtype=torch.float32).double()  # its softmax is float32
    assert torch.equal(ours, theirs)
    raw = q @ k.transpose(-1, -2) * dh**-0.5
    assert soft_cap(raw, 50.0).abs().max() <= 50 < raw.abs().max()  # some scores were over the cap


def test_no_score_passes_the_cap_and_small_ones_stay():
    """Known values: 50 · tanh(1) = 38.08 at 50; 100 → 48.20; 1 → 0.99987."""
    scores = soft_cap(torch.tensor([0.0, 1.0, 50.0, 100.0, -1000.0], dtype=torch.float64), 50.0)
    assert scores.tolist() == pytest.approx([0.0, 0.999866687, 38.0797078, 48.2013790, -50.0], abs=1e-7)
