"""Layer plans (core/positional/layer_plans.py) against transformers 5.23: Llama 4's layer schedule,
chunked mask and NoPE temperature; Gemma 3's and Gemma 4's layer types, per-type frequencies and sliding
mask."""

import math

import pytest
import torch

from core.positional.layer_plans import (
    CHUNK,
    FULL,
    WINDOW,
    gemma3_plan,
    gemma4_plan,
    layer_inv_freq,
    layer_mask,
    llama4_plan,
    nope_temperature,
)
from core.positional.todays_models import GEMMA2, GEMMA4
from core.positional.todays_views import gemma2_layers, gemma4_full_pairs, gemma4_layers, gpt_oss_layers

transformers = pytest.importorskip("transformers")
from transformers import (  # noqa: E402
    Gemma2Config,
    Gemma3TextConfig,
    Gemma4TextConfig,
    GptOssConfig,
    Llama4TextConfig,
)
from transformers import masking_utils as masks  # noqa: E402
from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding  # noqa: E402
from transformers.models.gemma4.modeling_gemma4 import Gemma4TextRotaryEmbedding  # noqa: E402
from transformers.models.llama4 import modeling_llama4  # noqa: E402

SCOUT_LAYERS = 48  # Llama 4 Scout's config.json: num_hidden_layers


@pytest.mark.parametrize("layers", [1, 4, 7, SCOUT_LAYERS])
def test_llama4s_default_schedule_is_transformers(layers):
    config = Llama4TextConfig(num_hidden_layers=layers)
    plan = llama4_plan(layers)
    assert [int(p.rotates) for p in plan] == config.no_rope_layers
    kinds = {"chunked_attention": CHUNK, "full_attention": FULL}
    assert [p.sees for p in plan] == [kinds[t] for t in config.layer_types]
    assert all(p.span == config.attention_chunk_size for p in plan if p.rotates)


def test_scout_has_twelve_nope_layers_every_fourth():
    nope = [i + 1 for i, p in enumerate(llama4_plan(SCOUT_LAYERS)) if not p.rotates]
    assert nope == list(range(4, 49, 4)) and len(nope) == 12  # layers 4, 8, …, 48 counted from 1


def test_a_given_no_rope_list_is_kept():
    given = [1, 0, 0, 1, 1]
    config = Llama4TextConfig(num_hidden_layers=5, no_rope_layers=given)
    assert [int(p.rotates) for p in llama4_plan(5, no_rope_layers=given)] == config.no_rope_layers == given


def _transformers_mask(mask_function, T: int) -> torch.Tensor:
    i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
    return mask_function(torch.tensor(0), torch.tensor(0), i, j).expand(T, T)


@pytest.mark.parametrize(("T", "chunk"), [(10, 3), (17, 4), (8, 8), (5, 1)])
def test_the_chunked_mask_is_transformers(T, chunk):
    theirs = _transformers_mask(
        masks.chunked_causal_mask_function(chunk, torch.zeros(1, dtype=torch.long)), T
    )
    ours = layer_mask(llama4_plan(1, chunk=chunk)[0], T)
    assert torch.equal(ours, theirs)


def test_a_chunked_layer_sees_only_its_own_chunk_and_a_nope_layer_sees_all_before_it():
    chunked, nope = llama4_plan(4, chunk=3)[0], llama4_plan(4, chunk=3)[3]
    assert layer_mask(chunked, 7)[4].tolist() == [False, False, False, True, True, False, False]
    assert layer_mask(nope, 7)[4].tolist() == [True] * 5 + [False] * 2


@pytest.mark.parametrize(("T", "window"), [(10, 3), (12, 1), (6, 6), (20, 7)])
def test_the_sliding_mask_is_transformers(T, window):
    theirs = _transformers_mask(masks.sliding_window_causal_mask_function(window), T)
    assert torch.equal(layer_mask(gemma3_plan(1, window=window)[0], T), theirs)


def test_the_nope_temperature_is_what_llama4s_attention_multiplies_the_query_by():
    """Positions 0 … 70,000 through Llama4TextAttention.forward itself: a NoPE layer (layer 4), one head of
    1 number, q_proj the identity, every hidden state 1: the query it hands to attention is the factor."""
    T = 70_001
    config = Llama4TextConfig(
        num_hidden_layers=4, hidden_size=1, head_dim=1, num_attention_heads=1, num_key_value_heads=1
    )
    config._attn_implementation = "eager"
    attention = modeling_llama4.Llama4TextAttention(config, layer_idx=3)
    assert not attention.use_rope
    with torch.no_grad():
        attention.q_proj.weight.fill_(1.0)
    seen = {}

    def capture(module, query, key, value, mask, **kwargs):
        seen["query"] = query
        return torch.zeros(1, T, 1, 1), None

    original = modeling_llama4.eager_attention_forward
    modeling_llama4.eager_attention_forward = capture
    try:
        with torch.no_grad():
            attention(torch.ones(1, T, 1), position_embeddings=None, attention_mask=None)
    finally:
        modeling_llama4.eager_attention_forward = original
    theirs = seen["query"].reshape(T)
    ours = nope_temperature(torch.arange(T), config.floor_scale, config.attn_scale)
    assert torch.equal(ours, theirs)
    # known values: 1 below position 8,191; 1 + 0.1·ln 2 from it; 1 + 0.1·ln 9 at 70,000 (⌊70,001/8,192⌋ = 8)
    assert ours[8190] == 1.0 and ours[8191] == pytest.approx(1 + 0.1 * math.log(2), abs=1e-7)
    assert ours[70_000] == pytest.approx(1 + 0.1 * math.log(9), abs=1e-7)


GEMMA3_27B = {"num_hidden_layers": 62, "sliding_window": 1024, "head_dim": 128}  # the released config.json


def test_gemma3s_layer_types_are_transformers():
    config = Gemma3TextConfig(**GEMMA3_27B)
    kinds = {"sliding_attention": WINDOW, "full_attention": FULL}
    plan = gemma3_plan(62)
    assert [p.sees for p in plan] == [kinds[t] for t in config.layer_types]
    assert [i + 1 for i, p in enumerate(plan) if p.sees == FULL] == [6, 12, 18, 24, 30, 36, 42, 48, 54, 60]


@pytest.mark.parametrize("factor", [1.0, 8.0])
def test_gemma3s_frequencies_per_layer_type_are_transformers(factor):
    """The local base on sliding layers, the global base with the linear factor on full layers only."""
    scaling = {"rope_scaling": {"rope_type": "linear", "factor": factor}} if factor != 1.0 else {}
    config = Gemma3TextConfig(**GEMMA3_27B, **scaling)
    rotary = Gemma3RotaryEmbedding(config)
    plan = gemma3_plan(62, global_factor=factor)
    local, full = plan[0], plan[5]
    assert torch.equal(layer_inv_freq(local, 128), rotary.sliding_attention_inv_freq)
    assert torch.allclose(layer_inv_freq(full, 128), rotary.full_attention_inv_freq, rtol=1e-7, atol=0)
    assert layer_inv_freq(full, 128)[0] == pytest.approx(1 / factor)  # pair 0 turns 1/factor rad a position


def test_gemma2_alternates_a_window_and_the_whole_text_with_one_base_as_transformers():
    config = Gemma2Config(num_hidden_layers=42, sliding_window=4096)  # Gemma 2 9B's config.json
    kinds = {"sliding_attention": WINDOW, "full_attention": FULL}
    layers = gemma2_layers()
    assert [p.sees for p in layers] == [kinds[t] for t in config.layer_types]
    assert [i + 1 for i, p in enumerate(layers) if p.sees == FULL] == list(range(2, 43, 2))
    assert {p.span for p in layers if p.sees == WINDOW} == {config.sliding_window}
    assert {(p.base, p.factor) for p in layers} == {(config.rope_parameters["rope_theta"], 1.0)}
    assert config.attn_logit_softcapping == GEMMA2.cap


def test_gpt_oss_alternates_a_window_and_the_whole_text_as_transformers():
    config = GptOssConfig(num_hidden_layers=24)
    kinds = {"sliding_attention": WINDOW, "full_attention": FULL}
    assert [p.sees for p in gpt_oss_layers()] == [kinds[t] for t in config.layer_types]
    assert all(p.span == config.sliding_window for p in gpt_oss_layers() if p.sees == WINDOW)


def test_a_nope_layer_has_no_frequencies():
    with pytest.raises(ValueError, match="NoPE"):
        layer_inv_freq(llama4_plan(4)[3], 64)


@pytest.mark.parametrize("layers", [1, 6, 28, GEMMA4.layers])  # 28: the last layer forced full
def test_gemma4s_layer_types_are_transformers(layers):
    config = Gemma4TextConfig(num_hidden_layers=layers)
    kinds = {"sliding_attention": WINDOW, "full_attention": FULL}
    plan = gemma4_plan(layers)
    assert [p.sees for p in plan] == [kinds[t] for t in config.layer_types]
    assert {p.span for p in plan if p.sees == WINDOW} <= {config.sliding_window}
    assert plan[-1].sees == FULL


def test_gemma4s_frequencies_per_layer_type_are_transformers():
    """A sliding layer: plain RoPE on a 256-number head; a full one: proportional RoPE on 512 numbers, the
    first quarter of the pairs at the whole head's frequencies, the rest not turning."""
    config = Gemma4TextConfig()
    rotary = Gemma4TextRotaryEmbedding(config)
    layers = gemma4_layers()
    assert [p.sees for p in layers] == [
        {"sliding_attention": WINDOW}.get(t, FULL) for t in config.layer_types
    ]
    sliding, full = layers[0], layers[5]
    heads = config.per_layer_config[0].head_dim, config.per_layer_config[5].head_dim
    assert heads == (GEMMA4.head_dim, GEMMA4.global_head_dim)
    assert torch.equal(layer_inv_freq(sliding, GEMMA4.head_dim), rotary.sliding_attention_inv_freq)
    assert torch.equal(layer_inv_freq(full, GEMMA4.global_head_dim), rotary.full_attention_inv_freq)
    rope = config.rope_parameters
    assert (sliding.base, full.base) == (
        rope["sliding_attention"]["rope_theta"],
        rope["full_attention"]["rope_theta"],
    )
    assert full.turned == rope["full_attention"]["partial_rotary_factor"]


def test_a_gemma4_full_layers_slowest_turning_pair_turns_within_189_positions():
    pairs = gemma4_full_pairs()
    assert (pairs.turned, pairs.pairs) == (64, 256)
    assert pairs.slowest == pytest.approx(2 * math.pi * 1e6 ** (126 / 512), rel=1e-6)  # pair 63 of a 512 head
    assert 188.2 < pairs.slowest < 188.3
