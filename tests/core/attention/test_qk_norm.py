"""Llama 4's rotation and query-key norm against transformers 5.23's own code: the app's interleaved RoPE
is Meta's complex-number rotation, and ``qk_norm`` is ``Llama4TextL2Norm``."""

import math

import pytest
import torch

from core.attention.qk_norm import qk_norm
from core.positional.rope import apply_rotary

pytest.importorskip("transformers")
from transformers import Llama4TextConfig  # noqa: E402
from transformers.models.llama4 import modeling_llama4  # noqa: E402


def test_llama4_turns_neighbouring_numbers_as_complex_numbers_like_the_apps_interleaved_rope():
    config = Llama4TextConfig(num_hidden_layers=4)  # head 128, base 500,000
    g = torch.Generator().manual_seed(0)
    T, H, dh = 9, 2, config.head_dim
    q, k = (torch.randn(1, T, H, dh, generator=g) for _ in range(2))  # Llama 4's layout: [B, T, H, dh]
    positions = torch.arange(T) * 1000  # far apart: angles up to 8,000 radians
    freqs_cis = modeling_llama4.Llama4TextRotaryEmbedding(config)(q, positions[None])
    theirs_q, theirs_k = modeling_llama4.apply_rotary_emb(q, k, freqs_cis)
    base = config.rope_parameters["rope_theta"]
    ours_q = apply_rotary(q.transpose(1, 2), positions, base, interleaved=True).transpose(1, 2)
    ours_k = apply_rotary(k.transpose(1, 2), positions, base, interleaved=True).transpose(1, 2)
    assert torch.allclose(ours_q, theirs_q, rtol=0, atol=1e-5)
    assert torch.allclose(ours_k, theirs_k, rtol=0, atol=1e-5)
    halves = apply_rotary(q.transpose(1, 2), positions, base, interleaved=False).transpose(1, 2)
    assert not torch.allclose(halves, theirs_q, atol=1e-2)  # not the halves that HF's Llama 3 turns


def test_the_qk_norm_is_llama4s_and_makes_every_vector_root_128_long():
    x = torch.randn(3, 5, 128, generator=torch.Generator().manual_seed(1)) * 7
    assert torch.equal(qk_norm(x), modeling_llama4.Llama4TextL2Norm(1e-6)(x))
    assert torch.allclose(qk_norm(x).norm(dim=-1), torch.full((3, 5), math.sqrt(128)), atol=1e-4)
    # (3, 4): mean square 12.5, so each number over √12.5 = 3.5355
    shown = qk_norm(torch.tensor([3.0, 4.0]), eps=0.0).tolist()
    assert shown == pytest.approx([0.848528, 1.131371], abs=1e-6)
