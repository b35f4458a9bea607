"""A model's RoPE config as the Long context page reads it: its rotary settings, a released model's
record of them, the factor lists typed in a box, and the config.json keys they make.

A ``RopeConfig`` holds what a model's config.json says about its rotary positions (``rope_type``,
``rope_theta``, ``max_position_embeddings``, the ``rope_parameters`` keys) and the head size. From it:
the trained length L, the extended length L', and the frequencies before and after scaling
(``core.positional.rope_scaling``).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

import torch

from core.positional.rope_scaling import PARTIAL, VARIANTS, scaled_inv_freq

ORIGINAL = "original_max_position_embeddings"
LISTS = ("short_factor", "long_factor")


@dataclass(frozen=True)
class RopeConfig:
    """The rotary part of a model's config.json, and the head it rotates."""

    rope_type: str  # "default", "linear", "dynamic", "yarn", "llama3", "longrope" or "proportional"
    head_dim: int  # dh (DeepSeek: qk_rope_head_dim, the rotary part of its heads)
    base: float  # rope_theta
    max_position_embeddings: int  # the config's length (see scaled_inv_freq)
    params: tuple[tuple[str, object], ...] = ()  # the other rope_parameters keys, in config order

    def parameters(self) -> dict:
        """The ``rope_parameters`` keys besides rope_type and rope_theta (lists as lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.params}

    @property
    def reads_original(self) -> bool:
        return ORIGINAL in VARIANTS[self.rope_type].keys

    @property
    def original(self) -> int:
        """L, the trained length: ``original_max_position_embeddings`` where the type reads it."""
        if self.reads_original:
            return int(self.parameters().get(ORIGINAL, self.max_position_embeddings))
        return self.max_position_embeddings

    @property
    def factor(self) -> float:
        """The extension factor s: the config's ``factor``, else (yarn, longrope) max / L, else 1."""
        given = self.parameters().get("factor")
        if given is not None:
            return float(given)
        if self.rope_type in ("yarn", "longrope"):
            return self.max_position_embeddings / self.original
        return 1.0

    @property
    def extended(self) -> int:
        """L', the length the page draws to: the config's own length or s·L, whichever is longer."""
        if self.reads_original:
            return max(self.max_position_embeddings, round(self.factor * self.original))
        return round(self.factor * self.max_position_embeddings)

    @property
    def seq_len(self) -> int | None:
        """The length dynamic recomputes for and longrope switches on: L' (None for the others)."""
        return self.extended if self.rope_type in ("dynamic", "longrope") else None

    def inv_freq(self) -> tuple[torch.Tensor, float]:
        """θ after scaling [n] float32 and the attention factor (``scaled_inv_freq``)."""
        return scaled_inv_freq(
            self.rope_type,
            self.head_dim,
            self.base,
            self.max_position_embeddings,
            self.seq_len,
            **self.parameters(),
        )

    def plain_inv_freq(self) -> torch.Tensor:
        """θ of plain RoPE on the same pairs: [n] float32. Proportional compares with the whole head."""
        partial = 1.0 if self.rope_type == "proportional" else self.parameters().get(PARTIAL, 1.0)
        return scaled_inv_freq(
            "default", self.head_dim, self.base, self.max_position_embeddings, partial_rotary_factor=partial
        )[0]


@dataclass(frozen=True)
class LongContextPreset:
    """A released model's RoPE config, with where its numbers come from."""

    key: str
    label: str
    config: RopeConfig
    source: str  # the config.json (or paper) the values are copied from
    note: str = ""  # what else to know (a head_dim taken from another key, a first release, …)
    legacy_type_key: str = "rope_type"  # the key its legacy rope_scaling used: "type" or "rope_type"
    model: str = ""  # the model alone, where the label's name also names its method: "Qwen2.5 7B"

    @property
    def name(self) -> str:
        """The model's name in a sentence: before the method is taught, it must not name the method."""
        return self.model or self.label.split(" (")[0]


def parse_factor_list(name: str, text: str) -> tuple[float, ...]:
    """A factor list typed as numbers separated by commas, spaces or new lines (brackets allowed).

    Raises ``ValueError`` naming the first piece that is not a number.
    """
    pieces = [p for p in re.split(r"[\s,\[\]]+", text) if p]
    values = []
    for piece in pieces:
        try:
            value = float(piece)
        except ValueError:
            raise ValueError(f"{name}: “{piece[:20]}” is not a number.") from None
        if not math.isfinite(value):
            raise ValueError(f"{name}: {piece[:20]} is not a finite number.")
        values.append(value)
    return tuple(values)


def factor_list_text(values: tuple[float, ...] | list[float]) -> str:
    """A factor list as the text box shows it: ``repr`` of each value, so it reads back exactly."""
    return ", ".join(repr(float(v)) for v in values)


def config_json(preset: LongContextPreset | None, cfg: RopeConfig) -> tuple[str, str]:
    """The config.json keys for ``cfg``: the legacy ``rope_scaling`` form and transformers 5's
    ``rope_parameters`` form, as text (lists on one line)."""
    params = cfg.parameters()
    type_key = preset.legacy_type_key if preset else "rope_type"
    partial = params.pop(PARTIAL, None)
    legacy: dict = {"head_dim": cfg.head_dim, "max_position_embeddings": cfg.max_position_embeddings}
    if partial is not None:
        legacy[PARTIAL] = partial
    legacy["rope_theta"] = cfg.base
    legacy["rope_scaling"] = None if cfg.rope_type == "default" else {**params, type_key: cfg.rope_type}
    current_params = {"rope_type": cfg.rope_type, "rope_theta": cfg.base}
    if partial is not None:
        current_params[PARTIAL] = partial
    current = {
        "head_dim": cfg.head_dim,
        "max_position_embeddings": cfg.max_position_embeddings,
        "rope_parameters": {**current_params, **params},
    }
    return _json_text(legacy), _json_text(current)


def _json_text(obj: dict, indent: int = 0) -> str:
    """``obj`` as JSON, one key a line, every list on one line."""
    pad = "  " * (indent + 1)
    lines = []
    for key, value in obj.items():
        text = _json_text(value, indent + 1) if isinstance(value, dict) else json.dumps(value)
        lines.append(f"{pad}{json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n" + "  " * indent + "}"
