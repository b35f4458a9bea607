"""RoPE scaling against transformers' own ``ROPE_INIT_FUNCTIONS`` (5.23, modeling_rope_utils.py).

Every rope_type on a grid (odd factors, seq_len below and above the original length, partial rotary),
real models' configs, and the ValueErrors where transformers only logs a warning.
"""

import itertools
import math
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from core.positional.long_context_presets import PRESETS
from core.positional.rope_scaling import MAX_FACTOR, ROPE_TYPES, VARIANTS, scaled_inv_freq

pytest.importorskip("transformers")
from transformers import LlamaConfig  # noqa: E402
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS  # noqa: E402
from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding  # noqa: E402
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
RTOL = 1e-6


def hf(rope_type, head_dim, base, max_position_embeddings, seq_len=None, **params):
    """transformers' inv_freq and attention factor for the same config, through a tiny LlamaConfig."""
    rope_parameters = {"rope_type": rope_type, "rope_theta": base, **params}
    config = LlamaConfig(
        hidden_size=2 * head_dim,
        num_attention_heads=2,
        head_dim=head_dim,
        max_position_embeddings=max_position_embeddings,
        rope_parameters=rope_parameters,
    )
    if rope_type == "default":  # Llama's ignores partial_rotary_factor; GPT-NeoX's reads it
        fn = LlamaRotaryEmbedding if "partial_rotary_factor" not in params else GPTNeoXRotaryEmbedding
        return fn.compute_default_rope_parameters(config)
    return ROPE_INIT_FUNCTIONS[rope_type](config, None, seq_len=seq_len)


def assert_same(rope_type, head_dim, base, max_pos, seq_len=None, **params):
    ours, our_factor = scaled_inv_freq(rope_type, head_dim, base, max_pos, seq_len, **params)
    theirs, their_factor = hf(rope_type, head_dim, base, max_pos, seq_len, **params)
    assert ours.dtype == theirs.dtype == torch.float32
    torch.testing.assert_close(ours, theirs, rtol=RTOL, atol=0)
    assert our_factor == pytest.approx(float(their_factor), rel=RTOL)


def factors_for(rope_type, factor, original):
    """The rope_parameters of ``rope_type`` for an extension by ``factor`` of ``original`` positions."""
    return {
        "default": {},
        "linear": {"factor": factor},
        "dynamic": {"factor": factor},
        "yarn": {"factor": factor, "original_max_position_embeddings": original},
        "llama3": {
            "factor": factor,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": original,
        },
        "longrope": {"factor": factor, "original_max_position_embeddings": original},
        "proportional": {"factor": factor},
    }[rope_type]


def longrope_lists(pairs: int) -> dict:
    return {
        "short_factor": [1.0 + 0.05 * i for i in range(pairs)],
        "long_factor": [1.0 + 1.37 * i for i in range(pairs)],
    }


HEADS = [8, 64, 96, 128]
FACTORS = [1.0, 2.5, 7.3, 40.0]
PARTIALS = [1.0, 0.5]
GRID = list(itertools.product(ROPE_TYPES, HEADS, FACTORS, PARTIALS))


@pytest.mark.parametrize("rope_type, head_dim, factor, partial", GRID)
def test_every_type_matches_transformers_on_a_grid(rope_type, head_dim, factor, partial):
    original = 2048
    params = factors_for(rope_type, factor, original)
    if partial != 1.0:
        params["partial_rotary_factor"] = partial
    if rope_type == "longrope":
        params |= longrope_lists(int(head_dim * partial) // 2)
    max_pos = round(factor * original) if rope_type in ("yarn", "llama3", "longrope") else original
    for seq_len in (None, original // 2, original, original + 1, 3 * round(factor * original)):
        assert_same(rope_type, head_dim, 10000.0, max_pos, seq_len, **params)


@pytest.mark.parametrize("base", [10000.0, 500000.0, 1e6, 150000.0])
@pytest.mark.parametrize("beta", [(32, 1), (64, 2), (16.5, 0.5), (None, None)])
@pytest.mark.parametrize("truncate", [True, False])
def test_yarn_ramps_and_attention_factors_match(base, beta, truncate):
    params = {"factor": 13.7, "original_max_position_embeddings": 4096, "truncate": truncate}
    if beta[0] is not None:
        params |= {"beta_fast": beta[0], "beta_slow": beta[1]}
    assert_same("yarn", 128, base, 4096 * 16, **params)
    assert_same("yarn", 128, base, 4096 * 16, **params, mscale=0.707, mscale_all_dim=0.707)  # DeepSeek-V2
    assert_same("yarn", 128, base, 4096 * 16, **params, mscale=1.0, mscale_all_dim=0.5)
    assert_same("yarn", 128, base, 4096 * 16, **params, attention_factor=1.25)


def test_yarn_and_longrope_take_the_factor_from_the_lengths_when_it_is_absent():
    # transformers' yarn wants the key even when it is None; ours takes None as absent
    assert_same("yarn", 64, 10000.0, 163840, factor=None, original_max_position_embeddings=4096)
    assert_same(
        "longrope", 96, 10000.0, 131072, 131072, original_max_position_embeddings=4096, **longrope_lists(48)
    )
    # original_max_position_embeddings from max_position_embeddings, as transformers' standardize_rope_params
    assert_same("llama3", 64, 10000.0, 8192, factor=4.0, low_freq_factor=1.0, high_freq_factor=4.0)


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_released_config_matches_transformers(key):
    cfg = PRESETS[key].config
    params = cfg.parameters()
    for seq_len in (None, cfg.original, cfg.original + 1, cfg.extended):
        assert_same(cfg.rope_type, cfg.head_dim, cfg.base, cfg.max_position_embeddings, seq_len, **params)


def test_llama31_known_values():
    """Llama 3.1 8B: 29 pairs kept, the slowest divided by 8, as Meta's apply_scaling (llama-models)."""
    inv, factor = scaled_inv_freq(
        "llama3", 128, 500000.0, 131072, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
        original_max_position_embeddings=8192,
    )  # fmt: skip
    plain = 1.0 / (500000.0 ** (torch.arange(0, 128, 2, dtype=torch.float64) / 128))
    wavelength = 2 * math.pi / plain
    assert factor == 1.0
    kept = wavelength < 8192 / 4
    divided = wavelength > 8192 / 1
    assert int(kept.sum()) == 29 and int(divided.sum()) == 29
    torch.testing.assert_close(inv.double()[kept], plain[kept], rtol=1e-6, atol=0)
    torch.testing.assert_close(inv.double()[divided], plain[divided] / 8, rtol=1e-6, atol=0)


def test_deepseek_v3_attention_factor_is_one_and_yarn_alone_is_the_papers():
    _, deepseek = scaled_inv_freq(
        "yarn", 64, 10000.0, 163840, factor=40, beta_fast=32, beta_slow=1, mscale=1.0, mscale_all_dim=1.0,
        original_max_position_embeddings=4096,
    )  # fmt: skip
    assert deepseek == 1.0  # mscale / mscale_all_dim: the same formula above and below
    _, qwen = scaled_inv_freq("yarn", 128, 1e6, 32768, factor=4.0, original_max_position_embeddings=32768)
    assert qwen == pytest.approx(0.1 * math.log(4) + 1)  # Peng et al. 2023: sqrt(1/t) = 0.1 ln s + 1


def test_phi3_switches_from_short_to_long_factors_past_the_original_length():
    cfg = PRESETS["phi3-mini-128k"].config
    p = cfg.parameters()
    plain = 1.0 / (10000.0 ** (torch.arange(0, 96, 2, dtype=torch.int64).float() / 96))
    short, factor = scaled_inv_freq("longrope", 96, 10000.0, 131072, 4096, **p)
    long, _ = scaled_inv_freq("longrope", 96, 10000.0, 131072, 4097, **p)
    torch.testing.assert_close(
        short, 1.0 / (torch.tensor(p["short_factor"]) * (1 / plain)), rtol=RTOL, atol=0
    )
    torch.testing.assert_close(long, 1.0 / (torch.tensor(p["long_factor"]) * (1 / plain)), rtol=RTOL, atol=0)
    assert factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))


def test_proportional_rotates_a_quarter_of_the_head_at_a_whole_heads_frequencies():
    inv, _ = scaled_inv_freq("proportional", 512, 1e6, 131072, partial_rotary_factor=0.25)
    whole = 1.0 / (1e6 ** (torch.arange(0, 512, 2, dtype=torch.int64).float() / 512))
    assert inv.shape == (256,)
    torch.testing.assert_close(inv[:64], whole[:64], rtol=0, atol=0)
    assert torch.count_nonzero(inv[64:]) == 0


BAD = [
    (("linear", 64, 1e4, 2048), {"factor": 0.5}, "at least 1"),
    (("yarn", 64, 1e4, 2048), {"factor": 0.99, "original_max_position_embeddings": 1024}, "at least 1"),
    (("yarn", 64, 1e4, 1024), {"original_max_position_embeddings": 2048}, "at least 1"),  # derived s = 0.5
    (("dynamic", 64, 1e4, 2048), {"factor": MAX_FACTOR * 2}, "at most"),
    (("longrope", 8, 1e4, 64), {"short_factor": [1.0] * 3, "long_factor": [2.0] * 4}, "short_factor has 3"),
    (("longrope", 8, 1e4, 64), {"short_factor": [1.0] * 4, "long_factor": [2.0] * 5}, "long_factor has 5"),
    (("longrope", 8, 1e4, 64), {"short_factor": [1.0, 0, 1, 1], "long_factor": [2.0] * 4}, "positive"),
    (("longrope", 8, 1e4, 64), {"short_factor": "1, 2", "long_factor": [2.0] * 4}, "list of 4"),
    (("yarn", 64, 1e4, 8192), {"factor": 4.0, "beta_fast": 1, "beta_slow": 32}, "beta_fast > beta_slow"),
    (("yarn", 64, 1e4, 8192), {"factor": 4.0, "beta_fast": 4, "beta_slow": 4}, "beta_fast > beta_slow"),
    (("yarn", 64, 1e4, 8192), {"factor": 4.0, "beta_slow": -1}, "beta_slow > 0"),
    (
        ("llama3", 64, 1e4, 8192),
        {"factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0},
        "high_freq",
    ),
    (("llama3", 64, 1e4, 8192), {"factor": 8.0, "low_freq_factor": 1.0}, "needs high_freq_factor"),
    (("linear", 64, 1e4, 8192), {}, "needs factor"),
    (("yarn", 64, 1e4, 8192), {"factor": 4.0, "low_freq_factor": 1.0}, "does not read low_freq_factor"),
    (("default", 64, 1e4, 8192), {"factor": 4.0}, "does not read factor"),
    (("ntk", 64, 1e4, 8192), {}, "rope_type must be one of"),
    (("linear", 63, 1e4, 8192), {"factor": 2.0}, "even"),
    (("linear", 64, 1e4, 8192), {"factor": 2.0, "partial_rotary_factor": 0.0}, "(0, 1]"),
    (("linear", 64, 1e4, 8192), {"factor": 2.0, "partial_rotary_factor": 1.5}, "(0, 1]"),
    (("linear", 20, 1e4, 8192), {"factor": 2.0, "partial_rotary_factor": 0.25}, "even number"),  # 5 dims
    (("linear", 64, 1.0, 8192), {"factor": 2.0}, "greater than 1"),
    (("linear", 64, float("nan"), 8192), {"factor": 2.0}, "finite"),
    (("linear", 64, 1e4, 0), {"factor": 2.0}, "max_position_embeddings"),
    (("linear", 64, 1e4, 8192), {"factor": "8"}, "finite number"),
    (("linear", 64, 1e4, 8192), {"factor": float("inf")}, "finite number"),
    (("yarn", 64, 1e4, 8192), {"factor": 4.0, "attention_factor": -1.0}, "positive"),
    (("yarn", 64, 1e4, 8192), {"factor": 4.0, "truncate": "no"}, "true or false"),
    (("dynamic", 2, 1e4, 8192), {"factor": 2.0}, "dim ≥ 4"),
    (("linear", 8192, 1e4, 8192), {"factor": 2.0}, "at most 4,096"),
]


@pytest.mark.parametrize("args, params, message", BAD, ids=[m for *_, m in BAD])
def test_bad_parameters_raise_a_clear_value_error(args, params, message):
    with pytest.raises(ValueError, match=None) as info:
        scaled_inv_freq(*args, **params)
    assert message in str(info.value)


def test_a_none_value_counts_as_absent():
    with_none, _ = scaled_inv_freq("yarn", 64, 1e4, 8192, factor=4.0, mscale=None, attention_factor=None)
    without, _ = scaled_inv_freq("yarn", 64, 1e4, 8192, factor=4.0)
    assert torch.equal(with_none, without)


def test_every_variant_cites_a_paper_and_its_reference_function():
    for v in VARIANTS.values():
        assert any(str(year) in v.paper for year in (2021, 2023, 2024)) or "Gemma" in v.paper
        assert v.reference.startswith("transformers ")
    names = " ".join(v.paper for v in VARIANTS.values())
    for who in ("Chen et al. 2023", "bloc97", "Rozière", "Peng et al. 2023", "Meta 2024", "Ding et al. 2024"):
        assert who in names


def test_core_does_not_import_transformers():
    code = (
        "import sys; import core.positional.rope_scaling, core.positional.long_context_presets, "
        "core.positional.long_context_words, core.positional.rope_scaling_charts; "
        "assert 'transformers' not in sys.modules, 'transformers'"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
