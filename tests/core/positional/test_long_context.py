"""The Long context page's core: released models' presets, their config.json keys, which pairs
are kept or interpolated, the position-only score, the sentences and the charts."""

import json
import math

import pytest
import torch

from core.positional.long_context import (
    BLENDED,
    INTERPOLATED,
    KEPT,
    PLAIN,
    STILL,
    attention_factor_curves,
    banded_score,
    comparisons,
    log_distances,
    long_context_view,
    pair_regimes,
    position_score,
    unseen_pairs,
)
from core.positional.long_context_config import RopeConfig, config_json, factor_list_text, parse_factor_list
from core.positional.long_context_presets import PRESETS
from core.positional.long_context_story import story
from core.positional.long_context_words import pair_findings
from core.positional.rope_scaling_charts import (
    attention_chart,
    attention_frame,
    pair_frame,
    score_chart,
    score_frame,
    slowdown_chart,
    wavelength_chart,
)


def test_presets_hold_the_published_config_values():
    # meta-llama/Llama-3.1-8B config.json: hidden_size 4096, 32 heads, rope_theta 500000.0,
    # max_position_embeddings 131072, rope_scaling {"factor": 8.0, "low_freq_factor": 1.0,
    # "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"}
    llama = PRESETS["llama3.1-8b"].config
    assert (llama.rope_type, llama.head_dim, llama.base, llama.max_position_embeddings) == (
        "llama3",
        4096 // 32,
        500000.0,
        131072,
    )
    assert llama.parameters() == {
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    }
    # deepseek-ai/DeepSeek-V3 config.json: qk_rope_head_dim 64, rope_theta 10000, max_position_embeddings
    # 163840, rope_scaling {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
    # "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}
    deepseek = PRESETS["deepseek-v3"].config
    assert (deepseek.rope_type, deepseek.head_dim, deepseek.base, deepseek.max_position_embeddings) == (
        "yarn",
        64,
        10000.0,
        163840,
    )
    assert deepseek.parameters() == {
        "beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0,
        "original_max_position_embeddings": 4096,
    }  # fmt: skip
    # Qwen/Qwen2.5-7B-Instruct config.json: hidden_size 3584, 28 heads, rope_theta 1000000.0,
    # max_position_embeddings 32768; its model card's rope_scaling {"factor": 4.0,
    # "original_max_position_embeddings": 32768, "type": "yarn"}
    qwen = PRESETS["qwen2.5-7b"].config
    assert (qwen.head_dim, qwen.base, qwen.max_position_embeddings) == (3584 // 28, 1000000.0, 32768)
    assert qwen.parameters() == {"factor": 4.0, "original_max_position_embeddings": 32768}
    # microsoft/Phi-3-mini-128k-instruct config.json (April 2024): hidden_size 3072, 32 heads, rope_theta
    # 10000.0, max_position_embeddings 131072, original_max_position_embeddings 4096, 48 factors per list
    phi = PRESETS["phi3-mini-128k"].config
    p = phi.parameters()
    assert (phi.rope_type, phi.head_dim, phi.base, phi.max_position_embeddings) == (
        "longrope",
        96,
        1e4,
        131072,
    )
    assert p["original_max_position_embeddings"] == 4096 and "factor" not in p
    assert len(p["short_factor"]) == len(p["long_factor"]) == 3072 // 32 // 2
    assert p["long_factor"][0] == 1.0299999713897705 and p["long_factor"][-1] == 64.81001281738281
    assert p["short_factor"][:3] == [1.05] * 3 and p["short_factor"][-1] == 2.9499999999999975
    assert p["short_factor"].count(2.000000000000001) == 21
    # openai/gpt-oss-20b config.json: head_dim 64, max_position_embeddings 131072, rope_parameters
    # {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0, "original_max_position_embeddings": 4096,
    # "rope_theta": 150000, "rope_type": "yarn", "truncate": false}
    oss = PRESETS["gpt-oss-20b"].config
    assert (oss.head_dim, oss.base, oss.max_position_embeddings) == (64, 150000.0, 131072)
    assert oss.parameters()["truncate"] is False and oss.parameters()["factor"] == 32.0
    # meta-llama/Llama-2-7b-hf config.json: 4096 / 32 heads, rope_theta 10000.0, 4096 positions
    plain = PRESETS["llama2-7b"].config
    assert (plain.rope_type, plain.head_dim, plain.base, plain.max_position_embeddings) == (
        "default",
        128,
        10000.0,
        4096,
    )


def test_the_gemma_preset_is_transformers_gemma4_full_attention_default():
    pytest.importorskip("transformers")
    from transformers.models.gemma4.configuration_gemma4 import Gemma4TextConfig

    config = Gemma4TextConfig()
    full = config.rope_parameters["full_attention"]
    gemma = PRESETS["gemma4-global"].config
    assert full["rope_type"] == gemma.rope_type == "proportional"
    assert (
        full["rope_theta"] == gemma.base
        and full["partial_rotary_factor"] == gemma.parameters()["partial_rotary_factor"]
    )
    assert config.per_layer_config[config.layer_types.index("full_attention")].head_dim == gemma.head_dim
    assert config.max_position_embeddings == gemma.max_position_embeddings


@pytest.mark.parametrize("key", list(PRESETS))
def test_both_config_json_forms_give_transformers_the_same_frequencies(key):
    """The legacy ``rope_scaling`` and the current ``rope_parameters`` text, read by transformers' own
    LlamaConfig, compute what ``scaled_inv_freq`` computes."""
    pytest.importorskip("transformers")
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding

    preset = PRESETS[key]
    cfg = preset.config
    ours, our_factor = cfg.inv_freq()
    for text in config_json(preset, cfg):
        keys = json.loads(text)
        config = LlamaConfig(hidden_size=2 * keys["head_dim"], num_attention_heads=2, **keys)
        rope_type = config.rope_parameters["rope_type"]
        assert rope_type == cfg.rope_type
        if rope_type == "default":
            theirs, their_factor = GPTNeoXRotaryEmbedding.compute_default_rope_parameters(config)
        else:
            theirs, their_factor = ROPE_INIT_FUNCTIONS[rope_type](config, None, seq_len=cfg.seq_len)
        torch.testing.assert_close(ours, theirs, rtol=1e-6, atol=0)
        assert our_factor == pytest.approx(float(their_factor), rel=1e-6)


def test_config_json_shows_each_forms_keys():
    legacy, current = config_json(PRESETS["deepseek-v3"], PRESETS["deepseek-v3"].config)
    assert '"type": "yarn"' in legacy and '"rope_scaling": {' in legacy and '"rope_theta": 10000.0' in legacy
    assert (
        '"rope_parameters": {' in current
        and '"rope_type": "yarn"' in current
        and "rope_scaling" not in current
    )
    legacy, current = config_json(PRESETS["gemma4-global"], PRESETS["gemma4-global"].config)
    assert '"partial_rotary_factor": 0.25' in legacy.split('"rope_scaling"')[0]  # top level in the old form
    legacy, _ = config_json(None, PRESETS["llama2-7b"].config)
    assert '"rope_scaling": null' in legacy
    _, current = config_json(PRESETS["phi3-mini-128k"], PRESETS["phi3-mini-128k"].config)
    line = next(x for x in current.splitlines() if '"long_factor"' in x)
    assert line.strip().startswith('"long_factor": [1.0299999713897705,') and line.rstrip(",").endswith("]")


def test_lengths_and_factor_of_each_kind_of_config():
    llama = PRESETS["llama3.1-8b"].config
    assert (llama.original, llama.factor, llama.extended) == (8192, 8.0, 131072)  # 8 × 8192 < 131072
    phi = PRESETS["phi3-mini-128k"].config
    assert (phi.original, phi.factor, phi.extended, phi.seq_len) == (4096, 32.0, 131072, 131072)
    qwen = PRESETS["qwen2.5-7b"].config
    assert (qwen.original, qwen.extended) == (32768, 131072)  # the factor, not the config's length
    pi = PRESETS["llama-7b-pi"].config
    assert (pi.original, pi.factor, pi.extended, pi.seq_len) == (2048, 16.0, 32768, None)
    assert PRESETS["llama2-7b"].config.extended == 4096


def test_regimes_follow_the_slow_down():
    plain = torch.tensor([1.0, 0.1, 0.01, 0.001, 0.0001, 0.5])
    scaled = torch.tensor([1.0, 0.05, 0.0025, 0.00005, 0.0, 1.0])
    regimes = [KEPT, BLENDED, INTERPOLATED, "slowed by more than s", STILL, "sped up"]
    assert pair_regimes(plain, scaled, 4.0) == regimes


@pytest.mark.parametrize(
    "key, kept, blended, interpolated",
    [
        ("llama3.1-8b", 29, 6, 29),
        ("deepseek-v3", 11, 12, 9),
        ("qwen2.5-7b", 24, 16, 24),
        ("llama-7b-pi", 0, 0, 64),
    ],
)
def test_released_configs_keep_and_interpolate_these_pairs(key, kept, blended, interpolated):
    view = long_context_view(PRESETS[key].config, "x")
    assert [view.regimes.count(r) for r in (KEPT, BLENDED, INTERPOLATED)] == [kept, blended, interpolated]


def test_unseen_pairs_counts_pairs_past_their_trained_angle():
    trained = torch.tensor([1.0, 1e-4, 1e-5])  # only the first turns whole circles within L = 10,000
    assert unseen_pairs(trained, trained, 10_000, 40_000) == 2
    assert unseen_pairs(trained / 4, trained, 10_000, 40_000) == 0  # PI ×4: exactly the trained angles
    assert unseen_pairs(trained / 4, trained, 10_000, 80_000) == 2


def test_scaling_removes_the_unseen_angles_of_released_configs():
    for key in ("deepseek-v3", "qwen2.5-7b", "phi3-mini-128k", "gpt-oss-20b", "llama-7b-pi"):
        view = long_context_view(PRESETS[key].config, "x")
        assert view.unseen_plain > 0 and view.unseen_scaled == 0, key
    llama = long_context_view(PRESETS["llama3.1-8b"].config, "x")  # 8 × 8,192 is half of 131,072
    assert llama.unseen_scaled == llama.unseen_plain == 29


def test_position_score_is_one_at_zero_and_the_attention_factor_squared_scales_it():
    inv = torch.tensor([1.0, 0.1, 0.01])
    r = torch.tensor([0, 5, 100])
    plain = position_score(inv, 6, 1.0, r)
    assert float(plain[0]) == 1.0
    expected = torch.cos(r.double()[:, None] * inv.double()).mean(dim=-1)
    torch.testing.assert_close(plain, expected)
    torch.testing.assert_close(position_score(inv, 6, 1.5, r), 2.25 * expected)
    # a head of 10 with 3 rotated pairs: 2 pairs keep their full contribution
    torch.testing.assert_close(position_score(inv, 10, 1.0, r), (3 * expected + 2) / 5)


def test_banded_score_is_the_mean_over_every_distance_of_each_band():
    inv = torch.tensor([1.0, 0.3, 1e-6, 0.0])
    d = torch.tensor([1, 2, 5, 17, 100, 1000, 1001])
    ends = [2, 5, 17, 100, 1000, 1001, 1002]
    brute = [
        float(position_score(inv, 10, 1.2, torch.arange(a, b)).mean())
        for a, b in zip(d.tolist(), ends, strict=True)
    ]
    torch.testing.assert_close(banded_score(inv, 10, 1.2, d), torch.tensor(brute, dtype=torch.float64))


def test_log_distances_run_from_one_to_the_longest():
    r = log_distances(131072)
    assert int(r[0]) == 1 and int(r[-1]) == 131072 and len(r) <= 401
    assert torch.all(r[1:] > r[:-1])
    with pytest.raises(ValueError):
        log_distances(0)


def test_pi_reaches_at_s_r_the_score_plain_rope_has_at_r():
    cfg = PRESETS["llama-7b-pi"].config
    plain, pi = cfg.plain_inv_freq(), cfg.inv_freq()[0]
    r = torch.tensor([1, 10, 100, 2000])
    torch.testing.assert_close(position_score(pi, 128, 1.0, 16 * r), position_score(plain, 128, 1.0, r))


def test_the_view_compares_with_plain_rope_and_the_general_methods():
    view = long_context_view(PRESETS["deepseek-v3"].config, "DeepSeek-V3")
    assert list(view.scores) == [PLAIN, "position interpolation", "dynamic NTK", "Llama 3", "DeepSeek-V3"]
    assert view.factors["DeepSeek-V3"] == 1.0
    assert view.factors["position interpolation"] == 1.0
    gemma = long_context_view(PRESETS["gemma4-global"].config, "Gemma 4")
    assert list(gemma.scores) == [PLAIN, "Gemma 4"]  # s = 1: nothing to compare
    assert comparisons(PRESETS["llama2-7b"].config) == {}
    one_pair = long_context_view(RopeConfig("linear", 2, 1e4, 64, (("factor", 4.0),)), "x")  # one pair
    assert "dynamic NTK" not in one_pair.scores and "YaRN" in one_pair.scores  # dynamic needs 4 dims


def test_findings_are_computed_from_the_numbers():
    llama = pair_findings(long_context_view(PRESETS["llama3.1-8b"].config, "x"))
    counts = "29 kept as trained, 6 slowed by less than s, 29 slowed by s"
    assert llama[0] == f"Of the 64 pairs: {counts}."
    assert "more than 4 times within L = 8,192 (each turn under 2,048 positions)" in llama[1]
    assert "less than once (each turn over 8,192 positions) by s = 8" in llama[1]
    deepseek = " ".join(pair_findings(long_context_view(PRESETS["deepseek-v3"].config, "x")))
    assert "YaRN keeps the pairs up to pair 10 (at least 32 turns within L = 4,096)" in deepseek
    assert "slows the pairs from 23 on (at most 1 turn) by s = 40" in deepseek
    assert "Papers call a kept pair extrapolated" in deepseek
    gemma = pair_findings(long_context_view(PRESETS["gemma4-global"].config, "x"))
    assert gemma == ["Of the 256 pairs: 64 kept as trained, 192 never turned (θ = 0)."]
    dynamic = " ".join(pair_findings(long_context_view(PRESETS["llama2-7b-dynamic"].config, "x")))
    assert "the slowest pair is slowed by s·L'/L − (s − 1) = 13" in dynamic
    phi = " ".join(pair_findings(long_context_view(PRESETS["phi3-mini-128k"].config, "x")))
    assert "its own factor, found by a search (shown here: 1.03 to 64.8)" in phi


def test_the_story_joins_plain_ropes_unseen_angles_to_what_scaling_changes():
    # Llama 3.1: 29 pairs never finish a turn within 8,192; s·L = 65,536 is half of L' = 131,072, so the
    # 29 still pass the angles seen, but reach 2 times the largest (131,072 / 8 / 8,192), not 16 times.
    llama = story(long_context_view(PRESETS["llama3.1-8b"].config, "x"), "Llama 3.1 8B")
    assert llama[0].startswith("**Llama 3.1 8B**: trained on texts of up to L = 8,192 positions")
    assert "its config lets it read L' = 131,072 (16 × L)." in llama[0]
    assert "pair 0 makes a full turn every 6.3 positions" in llama[1]
    assert "the 35 fastest pairs make at least one full turn" in llama[2]
    assert "the 29 slowest never finish one" in llama[2]
    assert "by L' = 131,072 they reach 16 times the largest angle" in llama[2]
    assert "keeps 29 pairs as trained, slows 6 pairs by less than s = 8 and slows 29 pairs by s." in llama[3]
    assert (
        "The 29 slow pairs still turn past the angles seen by L' = 131,072, but only up to 2 times the "
        "largest angle seen, not 16 times: s·L = 65,536 is shorter than L'." in llama[3]
    )
    deepseek = story(long_context_view(PRESETS["deepseek-v3"].config, "x"), "DeepSeek-V3")
    assert (
        "the 9 slow pairs stay within the angles seen in training all the way to L' = 163,840" in deepseek[3]
    )
    plain = story(long_context_view(PRESETS["llama2-7b"].config, "x"), "Llama 2 7B")
    assert len(plain) == 3 and "does not make it read further (s = 1, so L' = L)" in plain[0]
    assert "this config stops at L" in plain[2]
    gemma = story(long_context_view(PRESETS["gemma4-global"].config, "x"), "Gemma 4")
    assert "Only 64 of each head's 256 pairs turn; the other 192 carry no position." in gemma[1]
    assert "every turning pair makes at least one full turn" in gemma[2]


def test_the_reach_is_the_farthest_slow_pair_in_trained_angles():
    view = long_context_view(PRESETS["llama3.1-8b"].config, "x")
    assert int(view.slow.sum()) == view.unseen_plain == 29
    assert view.reach == pytest.approx(131072 / 8 / 8192)
    assert long_context_view(PRESETS["gemma4-global"].config, "x").reach == 0.0  # no slow pair


def test_attention_factor_curves_use_the_configs_mscale_and_length():
    factors = torch.tensor([1.0, 4.0, 40.0], dtype=torch.float64)
    deepseek = attention_factor_curves(PRESETS["deepseek-v3"].config, factors)
    yarn, longrope = deepseek.values()
    torch.testing.assert_close(yarn, torch.ones(3, dtype=torch.float64))  # mscale = mscale_all_dim
    assert float(longrope[1]) == pytest.approx(math.sqrt(1 + math.log(4) / math.log(4096)))
    qwen_yarn = next(iter(attention_factor_curves(PRESETS["qwen2.5-7b"].config, factors).values()))
    assert float(qwen_yarn[1]) == pytest.approx(0.1 * math.log(4) + 1)


def test_factor_lists_read_back_exactly_and_bad_ones_are_named():
    values = PRESETS["phi3-mini-128k"].config.parameters()["short_factor"]
    assert list(parse_factor_list("short_factor", factor_list_text(values))) == values
    assert parse_factor_list("x", "[1, 2.5,\n3e0]") == (1.0, 2.5, 3.0)
    with pytest.raises(ValueError, match="short_factor: “abc” is not a number"):
        parse_factor_list("short_factor", "1, abc")
    with pytest.raises(ValueError, match="not a finite number"):
        parse_factor_list("long_factor", "1, inf")


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_chart_passes_vega_lites_schema_and_stays_small(key):
    cfg = PRESETS[key].config
    view = long_context_view(cfg, "this config")
    frame = pair_frame(view)
    factors = torch.logspace(0, 2, 60, dtype=torch.float64)
    curves = attention_factor_curves(cfg, factors)
    charts = [
        wavelength_chart(frame, cfg.original, cfg.extended),
        wavelength_chart(frame, cfg.original, cfg.extended, side=True),
        slowdown_chart(frame, cfg.factor),
        score_chart(score_frame(view), "this config", cfg.original),
        attention_chart(attention_frame(curves, factors), cfg.factor, view.attention_factor),
    ]
    specs = [c.to_dict() for c in charts]  # validates against Vega-Lite's schema
    assert sum(len(json.dumps(s)) for s in specs) < 1_000_000
    assert len(frame) == sum(r != STILL for r in view.regimes)


def test_a_custom_config_is_checked_by_scaled_inv_freq():
    with pytest.raises(ValueError, match="at least 1"):
        long_context_view(RopeConfig("linear", 64, 1e4, 2048, (("factor", 0.5),)), "x")
