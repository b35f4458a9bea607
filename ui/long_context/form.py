"""The Long context page's config form: each field's label, kind and help, a preset's values in the
fields, and the ``RopeConfig`` the fields' values make."""

from __future__ import annotations

from dataclasses import dataclass

from core.positional.long_context_config import (
    LISTS,
    ORIGINAL,
    LongContextPreset,
    RopeConfig,
    factor_list_text,
    parse_factor_list,
)
from core.positional.rope_scaling import PARTIAL, VARIANTS


@dataclass(frozen=True)
class Field:
    """One setting of the config: its label, its kind and its help."""

    label: str
    kind: str  # "int", "float", "optional" (a float that may be blank), "bool" or "list"
    help: str


TURNS = "turns within L"
LIST_HELP = "One number per pair, separated by commas: that pair turns this many times slower"
FIELDS: dict[str, Field] = {
    "head_dim": Field(
        "Dimensions per head (head_dim)",
        "int",
        "How many numbers each query and key has in one head (dh). RoPE turns them two at a time, so a head "
        "has dh/2 pairs.",
    ),
    "rope_theta": Field(
        "Frequency base (rope_theta)",
        "float",
        "RoPE's base: pair i turns base^(−2i/dh) radians per position, so a larger base turns the later "
        "pairs slower still.",
    ),
    "max_position_embeddings": Field(
        "Length in the config (max_position_embeddings)",
        "int",
        "For plain RoPE, position interpolation and dynamic NTK: the length the model was trained on, L. For "
        "YaRN, Llama 3 and LongRoPE: the length it reads after scaling; they take L from a box of its own.",
    ),
    ORIGINAL: Field(
        "Trained length L (original_max_position_embeddings)",
        "int",
        "The length the model was trained on. Blank: the length in the config.",
    ),
    "factor": Field(
        "Slow-down factor s (factor)",
        "optional",
        "How many times slower the scaling turns the pairs it slows most (position interpolation: every "
        "pair). It need not equal how many times longer the model reads. Blank for YaRN and LongRoPE: the "
        "length in the config divided by L.",
    ),
    "low_freq_factor": Field(
        f"Slowed by s below this many {TURNS} (low_freq_factor)",
        "float",
        "A pair that turns fewer times than this within L is slowed by the whole s.",
    ),
    "high_freq_factor": Field(
        f"Kept above this many {TURNS} (high_freq_factor)",
        "float",
        "A pair that turns more times than this within L is kept as trained.",
    ),
    "beta_fast": Field(
        f"Kept above this many {TURNS} (beta_fast)",
        "optional",
        "A pair that turns at least this many times within L is kept as trained (blank: 32).",
    ),
    "beta_slow": Field(
        f"Slowed by s below this many {TURNS} (beta_slow)",
        "optional",
        "A pair that turns at most this many times within L is slowed by the whole s (blank: 1).",
    ),
    "mscale": Field(
        "Attention factor, numerator (mscale)",
        "optional",
        "DeepSeek's way to write the attention factor: (0.1·this·ln s + 1) divided by (0.1·the denominator·"
        "ln s + 1). Blank: YaRN's own formula.",
    ),
    "mscale_all_dim": Field(
        "Attention factor, denominator (mscale_all_dim)",
        "optional",
        "DeepSeek's way to write the attention factor; its attention also multiplies every score by "
        "(0.1·this·ln s + 1)². Blank: YaRN's own formula.",
    ),
    "attention_factor": Field(
        "Attention factor, set by hand (attention_factor)",
        "optional",
        "Multiplies the turned part of each query and key. Blank: the paper's formula.",
    ),
    PARTIAL: Field(
        "Share of each head that turns (partial_rotary_factor)",
        "float",
        "The share of each head's pairs RoPE turns: 1, every pair; 0.25, the first quarter of them.",
    ),
    "truncate": Field(
        "Round the blend's ends to whole pairs (truncate)",
        "bool",
        "On: YaRN rounds where its blend starts and ends to whole pairs. Off: it does not, as gpt-oss.",
    ),
    "short_factor": Field(
        "Slow-down of each pair up to L (short_factor)", "list", f"{LIST_HELP}, in texts up to L."
    ),
    "long_factor": Field("Slow-down of each pair past L (long_factor)", "list", f"{LIST_HELP}, past L."),
}
BLANK = {"factor": None, ORIGINAL: None, "beta_fast": None, "beta_slow": None, "mscale": None}
BLANK |= {"mscale_all_dim": None, "attention_factor": None, "low_freq_factor": 1.0, "high_freq_factor": 4.0}
BLANK |= {PARTIAL: 1.0, "truncate": True, "short_factor": "", "long_factor": ""}
LINKED = ("rope_type", *(k for k in FIELDS if FIELDS[k].kind != "list"))  # the settings a link carries


def preset_store(preset: LongContextPreset) -> dict:
    """The widget values of ``preset`` (every field; the ones it does not set at their blank)."""
    cfg = preset.config
    values = {**BLANK, "rope_type": cfg.rope_type, "head_dim": cfg.head_dim, "rope_theta": float(cfg.base)}
    values["max_position_embeddings"] = cfg.max_position_embeddings
    for key, value in cfg.parameters().items():
        values[key] = factor_list_text(value) if key in LISTS else value
    for key, field in FIELDS.items():
        if field.kind in ("float", "optional") and values[key] is not None:
            values[key] = float(values[key])
    return {**values, "preset": preset.key}


def field_label(name: str, rope_type: str) -> str:
    """A field's label: the config's length is the trained length L for the types that read no other."""
    if name == "max_position_embeddings" and ORIGINAL not in VARIANTS[rope_type].keys:
        return "Trained length L (max_position_embeddings)"
    return FIELDS[name].label


def method_name(rope_type: str) -> str:
    """A method as the select box shows it: its name, and its config value where that differs."""
    label = VARIANTS[rope_type].label
    return label if label.lower() == rope_type else f"{label} ({rope_type})"


def rope_config(values: dict) -> RopeConfig:
    """The ``RopeConfig`` of the controls' values: the keys its rope_type reads, blanks left out.

    Raises ``ValueError`` for a missing number or a factor list that does not parse.
    """
    rope_type = values["rope_type"]
    for name in ("head_dim", "rope_theta", "max_position_embeddings"):
        if values[name] is None:
            raise ValueError(f"{field_label(name, rope_type)} is blank: it needs a value.")
    for name in VARIANTS[rope_type].required:
        if values.get(name) in (None, ""):
            raise ValueError(
                f"{field_label(name, rope_type)} is blank: {VARIANTS[rope_type].label} needs a value."
            )
    params = []
    for key in VARIANTS[rope_type].keys:
        value = values.get(key)
        if value is None or (key == PARTIAL and value == 1.0) or (key == "truncate" and value is True):
            continue
        params.append((key, parse_factor_list(key, value) if key in LISTS else value))
    return RopeConfig(
        rope_type, values["head_dim"], values["rope_theta"], values["max_position_embeddings"], tuple(params)
    )
