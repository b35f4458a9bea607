"""Released models' RoPE configs, the Long context page's presets, with where their numbers come from."""

from __future__ import annotations

from core.positional.long_context_config import ORIGINAL, LongContextPreset, RopeConfig
from core.positional.rope_scaling import PARTIAL

# Phi-3-mini-128k-instruct's config.json as first released (April 2024, "type": "su"), 48 values per
# list (head_dim 96); the same lists are in torchtune's phi3_mini_128k builder
# (github.com/joecummings/torchtune, torchtune/models/phi3/_model_builders.py).
PHI3_LONG = (
    1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968,
    1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525,
    1.8999998569488525, 2.859999895095825, 3.68999981880188, 5.419999599456787, 5.489999771118164,
    5.489999771118164, 9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355,
    15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055, 30.009998321533203,
    32.35000228881836, 32.590003967285156, 35.56000518798828, 39.95000457763672, 53.840003967285156,
    56.20000457763672, 57.95000457763672, 59.29000473022461, 59.77000427246094, 59.920005798339844,
    61.190006256103516, 61.96000671386719, 62.50000762939453, 63.3700065612793, 63.48000717163086,
    63.48000717163086, 63.66000747680664, 63.850006103515625, 64.08000946044922, 64.760009765625,
    64.80001068115234, 64.81001281738281, 64.81001281738281,
)  # fmt: skip
PHI3_SHORT = (
    1.05, 1.05, 1.05, 1.1, 1.1, 1.1500000000000001, 1.2000000000000002, 1.2500000000000002,
    1.3000000000000003, 1.3500000000000003, 1.5000000000000004, *(2.000000000000001,) * 21,
    *(2.0500000000000007,) * 3, *(2.1000000000000005,) * 3, *(2.1500000000000004,) * 2,
    2.3499999999999996, 2.549999999999999, 2.5999999999999988, 2.5999999999999988, 2.7499999999999982,
    2.849999999999998, 2.849999999999998, 2.9499999999999975,
)  # fmt: skip

PRESETS: dict[str, LongContextPreset] = {
    p.key: p
    for p in (
        LongContextPreset(
            "llama3.1-8b",
            "Llama 3.1 8B (Llama 3 scaling, ×8 on 8,192)",
            RopeConfig(
                "llama3",
                128,  # hidden_size 4096 / 32 heads
                500000.0,
                131072,
                (("factor", 8.0), ("low_freq_factor", 1.0), ("high_freq_factor", 4.0), (ORIGINAL, 8192)),
            ),
            "meta-llama/Llama-3.1-8B config.json",
        ),
        LongContextPreset(
            "deepseek-v3",
            "DeepSeek-V3 (YaRN ×40 on 4,096)",
            RopeConfig(
                "yarn",
                64,  # qk_rope_head_dim: only this part of each head rotates (MLA)
                10000.0,
                163840,
                (
                    ("beta_fast", 32),
                    ("beta_slow", 1),
                    ("factor", 40),
                    ("mscale", 1.0),
                    ("mscale_all_dim", 1.0),
                    (ORIGINAL, 4096),
                ),
            ),
            "deepseek-ai/DeepSeek-V3 config.json",
            "head_dim here is its qk_rope_head_dim, 64: the rotary part of each query and key.",
            "type",
        ),
        LongContextPreset(
            "qwen2.5-7b",
            "Qwen2.5 7B with YaRN (×4 on 32,768)",
            RopeConfig("yarn", 128, 1000000.0, 32768, (("factor", 4.0), (ORIGINAL, 32768))),
            "Qwen/Qwen2.5-7B-Instruct config.json (hidden_size 3584 / 28 heads, rope_theta 1,000,000) and "
            "the rope_scaling its model card adds for texts over 32,768 tokens",
            "Its config.json keeps max_position_embeddings 32,768; the factor 4 extends it to 131,072.",
            "type",
            "Qwen2.5 7B",
        ),
        LongContextPreset(
            "phi3-mini-128k",
            "Phi-3-mini-128k (LongRoPE, 4,096 → 131,072)",
            RopeConfig(
                "longrope",
                96,  # hidden_size 3072 / 32 heads
                10000.0,
                131072,
                (("long_factor", PHI3_LONG), ("short_factor", PHI3_SHORT), (ORIGINAL, 4096)),
            ),
            'microsoft/Phi-3-mini-128k-instruct config.json, as first released (April 2024, type "su")',
            "No factor key: s = max_position_embeddings / L = 32, which sets its attention factor.",
            "type",
        ),
        LongContextPreset(
            "gpt-oss-20b",
            "gpt-oss-20b (YaRN ×32 on 4,096, no truncation)",
            RopeConfig(
                "yarn",
                64,
                150000.0,
                131072,
                (
                    ("beta_fast", 32.0),
                    ("beta_slow", 1.0),
                    ("factor", 32.0),
                    (ORIGINAL, 4096),
                    ("truncate", False),
                ),
            ),
            "openai/gpt-oss-20b config.json (rope_parameters, transformers 5)",
        ),
        LongContextPreset(
            "gemma4-global",
            "Gemma 4 full-attention layers (proportional, 25 % rotated)",
            RopeConfig("proportional", 512, 1000000.0, 131072, ((PARTIAL, 0.25),)),
            "transformers 5.23 Gemma4TextConfig defaults for its full-attention layers "
            "(global_head_dim 512, partial_rotary_factor 0.25, rope_theta 1,000,000)",
            "Gemma 4's sliding-window layers use plain RoPE with rope_theta 10,000 and head_dim 256.",
            model="Gemma 4",
        ),
        LongContextPreset(
            "llama-7b-pi",
            "LLaMA 7B + position interpolation (linear ×16 on 2,048)",
            RopeConfig("linear", 128, 10000.0, 2048, (("factor", 16.0),)),
            "Chen et al. 2023, extending LLaMA 7B (2,048 positions, rope_theta 10,000) to 32,768",
            model="LLaMA 7B",
        ),
        LongContextPreset(
            "llama2-7b-dynamic",
            "Llama 2 7B + dynamic NTK (×4 on 4,096)",
            RopeConfig("dynamic", 128, 10000.0, 4096, (("factor", 4.0),)),
            "meta-llama/Llama-2-7b-hf config.json (rope_theta 10,000, 4,096 positions) with the dynamic "
            "rope_scaling transformers accepts; no released model ships this factor",
            model="Llama 2 7B",
        ),
        LongContextPreset(
            "llama2-7b",
            "Llama 2 7B (plain RoPE, 4,096)",
            RopeConfig("default", 128, 10000.0, 4096),
            "meta-llama/Llama-2-7b-hf config.json",
        ),
    )
}
DEFAULT_PRESET = "llama3.1-8b"
