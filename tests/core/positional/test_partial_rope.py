"""Part of each head rotated (core/positional/partial_rope.py) against transformers 5.23: partial rotary
of GPT-NeoX, Phi and GLM, and DeepSeek-V3's decoupled RoPE and softmax scale."""

import math

import pytest
import torch

from core.positional.partial_rope import decoupled_rope, mla_softmax_scale, partial_rotary, rotary_dims

pytest.importorskip("transformers")
from transformers import DeepseekV3Config, GlmConfig, GPTNeoXConfig, PhiConfig  # noqa: E402
from transformers.models.deepseek_v3 import modeling_deepseek_v3 as deepseek  # noqa: E402
from transformers.models.glm import modeling_glm as glm  # noqa: E402
from transformers.models.gpt_neox import modeling_gpt_neox as neox  # noqa: E402
from transformers.models.phi import modeling_phi as phi  # noqa: E402

T, HEADS = 9, 2
POSITIONS = torch.arange(T) * 37  # far apart: every pair has turned


def _q(head_dim: int) -> torch.Tensor:
    return torch.randn(1, HEADS, T, head_dim, generator=torch.Generator().manual_seed(1))


CASES = {  # family: (config, its modeling module, fraction turned, neighbouring pairs); head_dim 64
    "GPT-NeoX": (GPTNeoXConfig(hidden_size=128, num_attention_heads=2, rotary_pct=0.25), neox, 0.25, False),
    "Phi": (PhiConfig(hidden_size=128, num_attention_heads=2, partial_rotary_factor=0.5), phi, 0.5, False),
    "GLM": (
        GlmConfig(hidden_size=128, num_attention_heads=2, head_dim=64, partial_rotary_factor=0.5),
        glm,
        0.5,
        True,
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_partial_rotary_is_transformers(name):
    config, module, fraction, interleaved = CASES[name]
    assert config.rope_parameters.get("partial_rotary_factor") == fraction
    rotary = next(getattr(module, n) for n in dir(module) if n.endswith("RotaryEmbedding"))(config)
    cos, sin = rotary(torch.zeros(1), POSITIONS[None])
    head_dim, r = 64, rotary_dims(64, fraction)
    q = _q(head_dim)
    if name == "Phi":  # Phi's attention splits off the turned part itself, then applies to that part only
        turned, _ = module.apply_rotary_pos_emb(q[..., :r], q[..., :r], cos, sin)
        theirs = torch.cat((turned, q[..., r:]), dim=-1)
    else:
        theirs, _ = module.apply_rotary_pos_emb(q, q, cos, sin)
    base = config.rope_parameters["rope_theta"]
    ours = partial_rotary(q, POSITIONS, fraction, base, interleaved)
    assert torch.allclose(ours, theirs, rtol=0, atol=2e-6)
    assert torch.equal(ours[..., r:], q[..., r:])  # the rest passes through
    assert not torch.allclose(ours[..., :r], q[..., :r])


def test_a_score_keeps_position_only_in_its_turned_part():
    """Two tokens shifted together: the turned part's dot product stays, and the passed part never moves."""
    q, k = _q(64)[0, 0, :1], _q(64)[0, 1, :1]
    for shift in (0, 5, 500):
        at = torch.tensor([3 + shift])
        qq, kk = partial_rotary(q, at, 0.25), partial_rotary(k, at - 3, 0.25)
        assert torch.allclose(
            qq[:, :16] @ kk[:, :16].T,
            partial_rotary(q, torch.tensor([3]), 0.25)[:, :16]
            @ partial_rotary(k, torch.tensor([0]), 0.25)[:, :16].T,
            atol=1e-5,
        )
        assert torch.equal(qq[:, 16:], q[:, 16:])


V3 = {
    "hidden_size": 64,
    "num_attention_heads": 2,
    "q_lora_rank": None,
    "kv_lora_rank": 16,
    "v_head_dim": 8,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "num_key_value_heads": 2,
}


def test_deepseeks_rotated_part_is_transformers():
    config = DeepseekV3Config(**V3)
    rotary = deepseek.DeepseekV3RotaryEmbedding(config)
    cos, sin = rotary(torch.zeros(1), POSITIONS[None])
    q = _q(192)
    turned, _ = deepseek.apply_rotary_pos_emb_interleave(q[..., 128:], q[..., 128:], cos, sin)
    theirs = torch.cat((q[..., :128], turned), dim=-1)
    ours = decoupled_rope(q, POSITIONS, 128, config.rope_parameters["rope_theta"])
    assert torch.allclose(ours, theirs, rtol=0, atol=2e-6) and torch.equal(ours[..., :128], q[..., :128])


def test_deepseek_v3s_softmax_scale_is_its_attentions():
    yarn = {
        "rope_type": "yarn",
        "factor": 40.0,
        "mscale": 1.0,
        "mscale_all_dim": 1.0,
        "original_max_position_embeddings": 4096,
        "beta_fast": 32,
        "beta_slow": 1,
    }
    config = DeepseekV3Config(**V3, rope_scaling=yarn)
    attention = deepseek.DeepseekV3Attention(config, layer_idx=0)
    assert mla_softmax_scale(192, 40.0, 1.0) == pytest.approx(attention.scaling, rel=1e-12)
    # known value: (0.1 · ln 40 + 1)² / √192 = 1.36889² / 13.8564 = 0.135236
    assert mla_softmax_scale(192, 40.0, 1.0) == pytest.approx((0.1 * math.log(40) + 1) ** 2 / math.sqrt(192))
    assert mla_softmax_scale(192) == deepseek.DeepseekV3Attention(DeepseekV3Config(**V3), 0).scaling
