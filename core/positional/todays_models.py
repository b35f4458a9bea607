"""Released models' position settings, for the Today's models page, with where each number comes from.

Each model's numbers are its config.json's as ``transformers`` 5.23 reads them (shipped here: the page
works offline). ``layer_plans``, ``mrope`` and ``partial_rope`` turn them into what each layer does.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Llama4:
    name: str = "Llama 4 Scout"
    layers: int = 48  # num_hidden_layers
    interval: int = 4  # no_rope_layer_interval: every 4th layer has no position
    chunk: int = 8192  # attention_chunk_size
    base: float = 500_000.0  # rope_theta
    head_dim: int = 128  # after RoPE, use_qk_norm scales each query and key to length √head_dim
    floor_scale: int = 8192
    attn_scale: float = 0.1
    source: str = (
        "meta-llama/Llama-4-Scout-17B-16E config.json (text_config); no_rope_layer_interval, floor_scale and "
        "attn_scale as Llama4TextConfig sets them"
    )


@dataclass(frozen=True)
class Gemma3:
    name: str = "Gemma 3 27B"
    layers: int = 62  # num_hidden_layers
    pattern: int = 6  # sliding_window_pattern: every 6th layer is full
    window: int = 1024  # sliding_window
    head_dim: int = 128
    local_base: float = 10_000.0  # rope_local_base_freq
    global_base: float = 1_000_000.0  # rope_theta
    global_factor: float = 8.0  # rope_scaling: linear, factor 8, on full layers only
    source: str = "google/gemma-3-27b-pt config.json (text_config)"


@dataclass(frozen=True)
class Gemma2:
    name: str = "Gemma 2 9B"
    layers: int = 42  # num_hidden_layers
    pattern: int = 2  # layer_types as Gemma2Config sets them: every 2nd layer is full
    window: int = 4096  # sliding_window
    base: float = 10_000.0  # rope_theta, on every layer
    cap: float = 50.0  # attn_logit_softcapping
    source: str = "google/gemma-2-9b config.json; layer_types as Gemma2Config sets them"


@dataclass(frozen=True)
class Gemma4:
    name: str = "Gemma 4"
    layers: int = 30  # num_hidden_layers
    pattern: int = 6  # layer_types by default: every 6th layer full, and the last always full
    window: int = 512  # sliding_window
    head_dim: int = 256  # a sliding layer's heads
    global_head_dim: int = 512  # a full layer's heads
    local_base: float = 10_000.0  # rope_parameters["sliding_attention"]
    global_base: float = 1_000_000.0  # rope_parameters["full_attention"]: proportional RoPE
    turned: float = 0.25  # its partial_rotary_factor: the share of a full layer's head that turns
    source: str = (
        "transformers 5.23 Gemma4TextConfig's defaults (layer_types, rope_parameters, global_head_dim)"
    )


@dataclass(frozen=True)
class GptOss:
    name: str = "gpt-oss-20b"
    layers: int = 24  # num_hidden_layers
    window: int = 128  # sliding_window, on every other layer (the odd ones, counted from 1)
    base: float = 150_000.0  # rope_theta, on every layer
    source: str = "openai/gpt-oss-20b config.json; layer_types as GptOssConfig sets them"


@dataclass(frozen=True)
class QwenVL:
    name: str = "Qwen2.5-VL 7B"
    section: tuple[int, int, int] = (16, 24, 24)  # rope_scaling.mrope_section: pairs for t, h, w
    merge: int = 2  # vision_config.spatial_merge_size: 2 × 2 patches make one token
    tokens_per_second: float = 2.0  # vision_config.tokens_per_second
    head_dim: int = 128  # hidden_size 3584 / 28 heads
    base: float = 1_000_000.0  # rope_theta
    source: str = "Qwen/Qwen2.5-VL-7B-Instruct config.json"
    interleaved_name: str = "Qwen3-VL"
    interleaved_section: tuple[int, int, int] = (24, 20, 20)  # Qwen3VLTextConfig's mrope_section


@dataclass(frozen=True)
class PartHead:
    """A model that turns part of each head: its head's numbers, the fraction turned, its pairs."""

    name: str
    head_dim: int
    fraction: float
    neighbours: bool  # pairs of neighbouring numbers (else a number and the one half a head later)
    source: str


PART_HEADS = (
    PartHead(
        "GPT-NeoX-20B", 96, 0.25, False, "EleutherAI/gpt-neox-20b config.json: 6,144 / 64 heads, rotary_pct"
    ),
    PartHead(
        "Phi-1.5", 64, 0.5, False, "microsoft/phi-1_5 config.json: 2,048 / 32 heads, partial_rotary_factor"
    ),
    PartHead("GLM-4 9B", 128, 0.5, True, "THUDM/glm-4-9b config.json: head 128, partial_rotary_factor 0.5"),
)


@dataclass(frozen=True)
class DeepSeekV3:
    name: str = "DeepSeek-V3"
    passed: int = 128  # qk_nope_head_dim: a query head's numbers that never turn
    turned: int = 64  # qk_rope_head_dim: the turned part, and the one key part every head shares
    heads: int = 128  # num_attention_heads
    factor: float = 40.0  # rope_scaling: YaRN, factor 40 on 4,096
    mscale_all_dim: float = 1.0
    source: str = "deepseek-ai/DeepSeek-V3 config.json"


LLAMA4, GEMMA3, GEMMA2, GEMMA4, GPT_OSS = Llama4(), Gemma3(), Gemma2(), Gemma4(), GptOss()
QWEN_VL, DEEPSEEK_V3 = QwenVL(), DeepSeekV3()
