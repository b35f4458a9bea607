"""Long context as released models do it: a RoPE config, real models' presets, and what the page measures.

A ``RopeConfig`` holds what a model's config.json says about its rotary positions (``rope_type``,
``rope_theta``, ``max_position_embeddings``, the ``rope_parameters`` keys) and the head size. From it:
the trained length L, the extended length L', the frequencies before and after scaling
(``core.positional.rope_scaling``), which pairs are kept, interpolated or blended, which pairs meet
angles at L' that training never showed them, and the position-only score against distance.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

import torch

from core.positional.rope_scaling import (
    PARTIAL,
    VARIANTS,
    get_mscale,
    longrope_attention_factor,
    scaled_inv_freq,
)
from core.views.glossary import GLOSSARY, define

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


# --- what the page measures ----------------------------------------------------------------------

KEPT = "kept as trained"
BLENDED = "slowed by less than s"
INTERPOLATED = "slowed by s"
BEYOND = "slowed by more than s"
FASTER = "sped up"
STILL = "never turned (θ = 0)"
REGIMES = (KEPT, BLENDED, INTERPOLATED, BEYOND, FASTER, STILL)
TOL = 1e-4  # relative: float32 frequencies divided by s agree with θ/s to ~1e-7


def pair_regimes(plain: torch.Tensor, scaled: torch.Tensor, factor: float) -> list[str]:
    """What scaling did to each pair: kept, slowed by s, by less, … (``REGIMES``).

    Args:
        plain: [n] θ of plain RoPE; scaled: [n] θ after scaling; factor: s.
    Returns one label per pair, from the slow-down θ_plain / θ_scaled.
    """
    labels = []
    for p, s in zip(plain.double().tolist(), scaled.double().tolist(), strict=True):
        if s == 0:
            labels.append(STILL)
            continue
        ratio = p / s
        if abs(ratio - 1) <= TOL:
            labels.append(KEPT)
        elif abs(ratio - factor) <= TOL * factor:
            labels.append(INTERPOLATED)
        elif ratio < 1:
            labels.append(FASTER)
        elif ratio < factor:
            labels.append(BLENDED)
        else:
            labels.append(BEYOND)
    return labels


def unseen_pairs(inv_freq: torch.Tensor, trained: torch.Tensor, original: int, extended: int) -> int:
    """How many pairs meet, somewhere up to distance L', an angle training never showed them.

    A pair that made a full turn within L saw every angle; otherwise training showed it the angles up to
    ``L·θ_trained``, and by L' it reaches ``L'·θ``.
    Args:
        inv_freq: [n] θ used up to L'; trained: [n] θ of training (the page: plain RoPE's).
    """
    seen = original * trained.double()  # [n] the largest angle each pair reached in training
    reached = extended * inv_freq.double()  # [n]
    return int(((seen < 2 * math.pi) & (reached > seen * (1 + TOL))).sum())


def log_distances(longest: int, most: int = 400) -> torch.Tensor:
    """About ``most`` whole distances from 1 to ``longest``, evenly spaced on a log axis: [R] int64."""
    if longest < 1:
        raise ValueError(f"The longest distance must be at least 1 (it is {longest}).")
    grid = torch.logspace(0, math.log10(longest), most, dtype=torch.float64).round().long()  # [most]
    return torch.unique(torch.cat((grid, torch.tensor([longest]))))  # [R] sorted


def position_score(
    inv_freq: torch.Tensor, head_dim: int, attention_factor: float, distances: torch.Tensor
) -> torch.Tensor:
    """What position alone does to a score: q·k / (q·q) for q = k = the all-ones head, r positions apart.

    Rotated pair i contributes ``2·cos(r·θ_i)``, times the attention factor squared (transformers
    multiplies cos and sin by it, for the query and the key); a pair that does not rotate keeps 2.
    Args:
        inv_freq: [n] θ of the rotated pairs (n ≤ dh/2); distances: [R].
    Returns:
        [R] float64, 1 at r = 0 for plain RoPE.
    """
    phase = distances.double()[:, None] * inv_freq.double()  # [R, n]
    rotated = attention_factor**2 * phase.cos().sum(dim=-1)  # [R]
    return (rotated + (head_dim // 2 - len(inv_freq))) / (head_dim // 2)  # [R]


def banded_score(
    inv_freq: torch.Tensor, head_dim: int, attention_factor: float, distances: torch.Tensor
) -> torch.Tensor:
    """``position_score`` averaged over every whole distance from each r_k up to the next one: [R] float64.

    A log axis of 400 points cannot show a pair that turns once every 6 positions: a single sample per
    point would alias. The mean over the band is exact, by the Dirichlet sum
    ``Σ_{r=a}^{b−1} cos(rθ) = (sin((b − ½)θ) − sin((a − ½)θ)) / (2·sin(θ/2))`` (θ = 0: every term is 1).
    Args:
        inv_freq: [n]; distances: [R] sorted whole distances (the last band is that distance alone).
    """
    a = distances.double()  # [R]
    b = torch.cat((a[1:], a[-1:] + 1))  # [R] each band's end (exclusive)
    theta = inv_freq.double()  # [n]
    half = torch.sin(theta / 2)  # [n]
    still = half == 0  # [n] pairs that do not turn
    dirichlet = (torch.sin((b[:, None] - 0.5) * theta) - torch.sin((a[:, None] - 0.5) * theta)) / (
        2 * torch.where(still, torch.ones_like(half), half)
    )  # [R, n] Σ cos(rθ) over the band
    sums = torch.where(still, (b - a)[:, None], dirichlet)  # [R, n]
    mean_cos = sums / (b - a)[:, None]  # [R, n]
    rotated = attention_factor**2 * mean_cos.sum(dim=-1)  # [R]
    return (rotated + (head_dim // 2 - len(inv_freq))) / (head_dim // 2)  # [R]


def comparisons(cfg: RopeConfig) -> dict[str, RopeConfig]:
    """Plain RoPE and the four general methods at the same head, base, L and s (their papers' defaults).

    Empty when s = 1: there is nothing to extend. The config's own type is left out (it is drawn itself).
    """
    if cfg.factor <= 1:
        return {}
    head, base, s, L, longest = cfg.head_dim, cfg.base, cfg.factor, cfg.original, cfg.extended
    # partial_rotary_factor means the same for these four; proportional's is another idea: whole heads here
    keep = cfg.rope_type != "proportional"
    partial = tuple((k, v) for k, v in cfg.params if k == PARTIAL and keep)
    out = {
        "linear": RopeConfig("linear", head, base, L, (("factor", s), *partial)),
        "dynamic": RopeConfig("dynamic", head, base, L, (("factor", s), *partial)),
        "yarn": RopeConfig("yarn", head, base, longest, (("factor", s), (ORIGINAL, L), *partial)),
        "llama3": RopeConfig(
            "llama3",
            head,
            base,
            longest,
            (("factor", s), ("low_freq_factor", 1.0), ("high_freq_factor", 4.0), (ORIGINAL, L), *partial),
        ),
    }
    return {VARIANTS[k].label: c for k, c in out.items() if k != cfg.rope_type}


@dataclass(frozen=True)
class LongContextView:
    """Everything the Long context page draws for one config."""

    cfg: RopeConfig
    plain: torch.Tensor  # [n] θ of plain RoPE on the same pairs
    scaled: torch.Tensor  # [n] θ after scaling (at L' for dynamic and longrope)
    attention_factor: float
    regimes: list[str]  # [n] one of REGIMES
    unseen_plain: int  # pairs that meet unseen angles by L' without scaling
    unseen_scaled: int  # … with this config
    distances: torch.Tensor  # [R]
    scores: dict[str, torch.Tensor] = field(default_factory=dict)  # label -> [R] banded_score, plain first
    factors: dict[str, float] = field(default_factory=dict)  # label -> that curve's attention factor

    @property
    def turning(self) -> torch.Tensor:
        """[n] bool: the pairs this config turns (proportional leaves the rest at θ = 0)."""
        return self.scaled != 0

    @property
    def slow(self) -> torch.Tensor:
        """[n] bool: the turning pairs that never finish a full turn within L (plain RoPE's θ, as trained)."""
        return self.turning & (self.cfg.original * self.plain.double() < 2 * math.pi)

    @property
    def reach(self) -> float:
        """How far the slow pairs turn by L' with this config, in multiples of the largest angle each
        reached within L in training (the most of any slow pair; 0 when there is none)."""
        slow = self.slow
        if not bool(slow.any()):
            return 0.0
        ratio = self.cfg.extended * self.scaled.double() / (self.cfg.original * self.plain.double())  # [n]
        return float(ratio[slow].max())


PLAIN = "plain RoPE"


def long_context_view(cfg: RopeConfig, label: str, most: int = 400) -> LongContextView:
    """Compute the page's numbers for ``cfg`` (``label``: its name on the score chart).

    Raises ``ValueError`` (from ``scaled_inv_freq``) for a config that cannot work.
    """
    scaled, attention = cfg.inv_freq()  # [n]
    plain = cfg.plain_inv_freq()  # [n]
    L, longest = cfg.original, cfg.extended
    distances = log_distances(longest, most)  # [R]
    curves = {PLAIN: (plain, 1.0)}
    for name, other in comparisons(cfg).items():
        try:
            curves[name] = other.inv_freq()
        except ValueError:  # a method this head cannot take (dynamic NTK needs 4 dims): not drawn
            continue
    curves[label] = (scaled, attention)
    scores = {name: banded_score(inv, cfg.head_dim, a, distances) for name, (inv, a) in curves.items()}
    return LongContextView(
        cfg,
        plain,
        scaled,
        attention,
        pair_regimes(plain, scaled, cfg.factor),
        unseen_pairs(plain, plain, L, longest),
        unseen_pairs(scaled, plain, L, longest),
        distances,
        scores,
        {name: a for name, (_, a) in curves.items()},
    )


def attention_factor_curves(cfg: RopeConfig, factors: torch.Tensor) -> dict[str, torch.Tensor]:
    """The attention factor against s for YaRN and LongRoPE (with this config's mscale and L): [S] each."""
    p = cfg.parameters()
    mscale, mscale_all_dim = p.get("mscale"), p.get("mscale_all_dim")
    if cfg.rope_type == "yarn" and mscale and mscale_all_dim:
        yarn_label = f"YaRN, DeepSeek's form ({mscale:g}, {mscale_all_dim:g})"
        yarn = [get_mscale(s, mscale) / get_mscale(s, mscale_all_dim) for s in factors.tolist()]
    else:
        yarn_label, yarn = "YaRN: 0.1·ln s + 1", [get_mscale(s) for s in factors.tolist()]
    L = cfg.original
    longrope = [longrope_attention_factor(s, L) for s in factors.tolist()]
    return {
        yarn_label: torch.tensor(yarn, dtype=torch.float64),
        f"LongRoPE: √(1 + ln s / ln {L:,})": torch.tensor(longrope, dtype=torch.float64),
    }


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


class FirstUse:
    """A page's glossary words as it writes them in reading order: defined the first time (``define``),
    plain after. ``teach=False`` writes every word plain (a projector's slide, a chart's description)."""

    def __init__(self, teach: bool = True):
        self.teach = teach
        self.taught: set[str] = set()

    def __call__(self, name: str, shown: str | None = None) -> str:
        """The word ``name`` (or its form ``shown``), with its definition where the page first writes it."""
        if not self.teach or name in self.taught:
            return shown or GLOSSARY[name].name
        self.taught.add(name)
        return define(name, shown)


def _n(count: int, noun: str, plural: str = "") -> str:
    """``count`` and ``noun``, agreeing: "1 pair", "2 pairs", "no pair"."""
    if count == 0:
        return f"no {noun}"
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def _ratio(x: float) -> str:
    """A ratio as "16", "1.5", "2,048"."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def _times(x: float) -> str:
    return f"{_ratio(x)} times"


def _count_times(x: float) -> str:
    """How many times a pair turns: "once", "4 times", "0.5 times"."""
    return "once" if x == 1 else f"{x:g} times"


def _positions(wavelength: float) -> str:
    return f"{wavelength:,.1f}" if wavelength < 100 else f"{wavelength:,.0f}"


def _listed(parts: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def scaling_clause(view: LongContextView) -> str:
    """What this config does to its turning pairs, as a verb phrase: "keeps 29 pairs as trained, slows 6
    pairs by less than s = 8 and slows 29 pairs by s"; empty when it changes no pair."""
    counts = {r: view.regimes.count(r) for r in REGIMES if r in view.regimes and r != STILL}
    if set(counts) <= {KEPT}:
        return ""
    s, named = view.cfg.factor, False

    def s_text() -> str:  # the value of s where it is first named
        nonlocal named
        text, named = ("s" if named else f"s = {s:g}"), True
        return text

    phrases = {
        KEPT: lambda c: f"keeps {_n(c, 'pair')} as trained",
        BLENDED: lambda c: f"slows {_n(c, 'pair')} by less than {s_text()}",
        INTERPOLATED: lambda c: f"slows {_n(c, 'pair')} by {s_text()}",
        BEYOND: lambda c: f"slows {_n(c, 'pair')} by more than {s_text()}",
        FASTER: lambda c: f"speeds up {_n(c, 'pair')}",
    }
    return _listed([phrases[r](c) for r, c in counts.items()])


def _lengths_step(view: LongContextView, name: str) -> str:
    """The story's first step: the trained length L and the length L' the config reads."""
    L, longest = view.cfg.original, view.cfg.extended
    trained = f"**{name}**: trained on texts of up to L = {L:,} positions"
    if longest > L:
        return f"{trained}; its config lets it read L' = {longest:,} ({_ratio(longest / L)} × L)."
    return f"{trained}; its config does not make it read further (s = 1, so L' = L)."


def _rope_step(view: LongContextView, words: FirstUse) -> str:
    """Where RoPE acts and how fast its pairs turn, each word defined where the story first uses it."""
    m, half = int(view.turning.sum()), view.cfg.head_dim // 2
    waves = (2 * math.pi / view.plain.double()[view.turning]).tolist()  # [m] positions per full turn
    rope = (
        f"RoPE acts in {words('attention')}, on each token's {words('query and key')} in every "
        f"{words('head')}: it turns each {words('pair i', 'pair')} of their dimensions at its own "
        f"{words('frequency θᵢ')}, by the angle p·θᵢ at position p."
    )
    if m < half:
        rest = half - m
        other = "the other one carries" if rest == 1 else f"the other {rest:,} carry"
        rope += f" Only {m:,} of each head's {half:,} pairs turn{'s' * (m == 1)}; {other} no position."
    wavelength = words("wavelength 2π/θᵢ", "wavelength")
    if m == 1:
        once = _positions(waves[0])
        return rope + f" Its one turning pair makes a full turn every {once} positions, its {wavelength}."
    return rope + (
        f" The first pairs turn fast: pair 0 makes a full turn every {_positions(waves[0])} positions, its "
        f"{wavelength}; the later ones slower: pair {m - 1:,} needs {_positions(waves[-1])} positions for "
        "one."
    )


def lecture_join(view: LongContextView, words: FirstUse) -> str:
    """What the lecture's "relative methods generalize to unseen lengths" means for RoPE, and where it
    stops: next to the story's unseen angles, which seem to say the opposite."""
    angles = ", nor the angles such distances turn the slow pairs to" if bool(view.slow.any()) else ""
    return (
        "The lecture says a relative method “can generalize better to sequences of varying lengths, even if "
        "it hasn't seen such lengths during training”, and the notebook that a fixed sinusoid "
        f"{words('extrapolate', 'extrapolates')}. That holds in one sense: with RoPE the {words('score')} of "
        "a query for a key depends only on how far apart their two tokens are, so past L no position is "
        "missing, as a row would be from a learned table of L rows. It stops where training stopped: the "
        f"model never saw two tokens further apart than L{angles}. That is why released models scale RoPE "
        "and then train further on long texts."
    )


def _unseen_step(view: LongContextView, words: FirstUse, join: bool) -> str:
    """Which pairs finish a turn within L, and the angles the others meet past L."""
    L, longest = view.cfg.original, view.cfg.extended
    m, slow = int(view.turning.sum()), int(view.slow.sum())
    fast = m - slow
    if slow == 0:
        every = "its pair makes" if m == 1 else "every turning pair makes"
        seen = (
            f"Within L = {L:,} {every} at least one full turn, so the model has seen every angle: past L no "
            "pair meets an angle it has not seen."
        )
        return f"{seen} {lecture_join(view, words)}" if join else seen
    if fast == 0:
        seen = f"Within L = {L:,} no pair finishes a full turn."
    else:
        quick = "the fastest pair makes" if fast == 1 else f"the {fast:,} fastest pairs make"
        rest = "the slowest never finishes one" if slow == 1 else f"the {slow:,} slowest never finish one"
        seen = f"Within L = {L:,} {quick} at least one full turn, so every angle was seen; {rest}."
    they = "it" if slow == 1 else "they"
    if longest > L:
        past = (
            f" Past L, {_the_slow(slow)} turn{'s' * (slow == 1)} to angles the model never saw in training: "
            f"by L' = {longest:,} {they} reach{'es' * (slow == 1)} {_times(longest / L)} the largest angle "
            f"{they} reached within L."
        )
    else:
        past = f" Past L {they} would turn to angles never seen in training; this config stops at L."
    return f"{seen}{past} {lecture_join(view, words)}" if join else seen + past


def _the_slow(slow: int) -> str:
    return "the slow pair" if slow == 1 else f"the {slow:,} slow pairs"


def _scaling_step(view: LongContextView, counts: bool = True) -> str:
    """What the config's scaling does to the pairs, and how far past the seen angles the slow ones go;
    without ``counts``, only what scaling is for (a class is about to predict how many pairs it keeps)."""
    L, longest, s = view.cfg.original, view.cfg.extended, view.cfg.factor
    if not counts:
        return (
            "Scaling can slow pairs down, so that their angles at L' stay closer to the ones seen in "
            "training. A later slide asks how many pairs this config leaves as they were trained."
        )
    slow, clause = int(view.slow.sum()), scaling_clause(view)
    if not clause:
        return "This config leaves every pair as trained" + (
            ": nothing slows the slow pairs down." if slow else "."
        )
    scaling = (
        "Scaling slows pairs down, so that their angles at L' stay closer to the ones seen in training: "
        f"this config {clause}."
    )
    unseen, the_slow = view.unseen_scaled, _the_slow(slow)
    if slow and not unseen:
        stay = "stays" if slow == 1 else "stay"
        within = f"within the angles seen in training all the way to L' = {longest:,}"
        return f"{scaling} Slowed down, {the_slow} {stay} {within}."
    if not unseen:
        return scaling
    if unseen == slow:
        who = f"{the_slow[0].upper()}{the_slow[1:]} still turn{'s' * (slow == 1)}"
    else:
        who = f"{unseen:,} of the {slow:,} slow pairs still turn{'s' * (unseen == 1)}"
    short = f": s·L = {s * L:,.0f} is shorter than L'" if s * L < longest else ""
    if view.reach < longest / L:
        far = f"but only up to {_times(view.reach)} the largest angle seen, not {_times(longest / L)}{short}"
    else:  # sped up: further than plain RoPE goes
        far = f"up to {_times(view.reach)} the largest angle seen (plain RoPE: {_times(longest / L)})"
    return scaling + f" {who} past the angles seen by L' = {longest:,}, {far}."


def story(
    view: LongContextView, name: str, words: FirstUse | None = None, join: bool = True, counts: bool = True
) -> list[str]:
    """The page's story for this config, in the order a student follows it: the two lengths, how RoPE
    turns fast and slow pairs, the angles the slow pairs never saw (and what the lecture's claim about
    unseen lengths means for them), and what scaling changes about that.

    ``name`` is the model's name ("Llama 3.1 8B", "A model with your settings"), in bold at the start;
    ``words`` defines each glossary word where the story first uses it (default: every word plain);
    ``join=False`` leaves the lecture's claim out (a projector shows it on a slide of its own);
    ``counts=False`` leaves out how many pairs scaling keeps or slows (a projector asks it later).
    Every number is computed from the view.
    """
    words = words or FirstUse(teach=False)
    out = [_lengths_step(view, name), _rope_step(view, words), _unseen_step(view, words, join)]
    if view.cfg.extended > view.cfg.original:
        out.append(_scaling_step(view, counts))
    return out


def _yarn_finding(view: LongContextView) -> str:
    """Which pairs YaRN keeps, blends and slows by s, from its turn thresholds."""
    from core.positional.rope_scaling import rotary_dim, yarn_correction_range

    cfg, n, p = view.cfg, len(view.regimes), view.cfg.parameters()
    L, s = cfg.original, cfg.factor
    dim = rotary_dim(cfg.head_dim, p.get(PARTIAL, 1.0))
    fast, slow = p.get("beta_fast") or 32, p.get("beta_slow") or 1
    low, high = yarn_correction_range(fast, slow, dim, cfg.base, L, p.get("truncate", True))
    turns = f"{slow:g} turn{'s' * (slow != 1)}"
    least = f"at least {fast:g} turn{'s' * (fast != 1)}"
    keep = f"keeps the pairs up to pair {low:.3g} ({least} within L = {L:,})"
    if low >= n - 1:
        return f"YaRN keeps every pair: each turns at least {_count_times(fast)} within L = {L:,}."
    if high > n - 1:  # the blend runs past the last pair (transformers clamps it to dims, not pairs)
        return (
            f"YaRN {keep} and blends all the later ones: none turns so few times (at most {turns}) that it "
            "is slowed by the whole s."
        )
    return (
        f"YaRN {keep}, slows the pairs from {high:.3g} on (at most {turns}) by s = {s:g}, and blends the "
        "ones between."
    )


def _method_finding(view: LongContextView) -> str | None:
    """The config's method's own rule for picking pairs, in its numbers (None: a method without one)."""
    cfg, p = view.cfg, view.cfg.parameters()
    L, longest, s = cfg.original, cfg.extended, cfg.factor
    if cfg.rope_type == "yarn":
        return _yarn_finding(view)
    if cfg.rope_type == "llama3":
        low, high = p["low_freq_factor"], p["high_freq_factor"]
        return (
            f"Llama 3 scaling keeps the pairs that turn more than {_count_times(high)} within L = {L:,} "
            f"(each turn under {L / high:,.0f} positions), slows those that turn less than "
            f"{_count_times(low)} (each turn over {L / low:,.0f} positions) by s = {s:g}, and blends the "
            "ones between."
        )
    if cfg.rope_type == "dynamic":
        slowest = float(view.plain[-1] / view.scaled[-1])
        return (
            f"Dynamic NTK raises RoPE's base for the current length; at L' = {longest:,} the slowest pair is "
            f"slowed by s·L'/L − (s − 1) = {slowest:.4g}, the fastest by 1."
        )
    if cfg.rope_type == "longrope":
        factors = p["long_factor"]
        return (
            f"Past L = {L:,} LongRoPE slows each pair by its own factor, found by a search (shown here: "
            f"{min(factors):.3g} to {max(factors):.3g}); up to L it uses a second list."
        )
    if cfg.rope_type == "linear" and s != 1:
        return f"Position interpolation slows every pair by s = {s:g}: position p turns as p/{s:g} did."
    return None


def _papers_names(view: LongContextView, words: FirstUse) -> str | None:
    """What papers call a kept pair and a pair slowed by s (None: the config has neither)."""
    names = []
    if KEPT in view.regimes and scaling_clause(view):
        names.append(
            f"a kept pair {words('extrapolate', 'extrapolated')} (past L it turns on as in training)"
        )
    if INTERPOLATED in view.regimes:
        names.append(
            f"a pair slowed by s interpolated, after {words('position interpolation')}, which slows every "
            "pair by s (up to s·L its angles stay within the ones it saw)"
        )
    return f"Papers call {_listed(names)}." if names else None


def pair_findings(view: LongContextView, words: FirstUse | None = None) -> list[str]:
    """What the two pair charts show, in sentences computed from the numbers: how many pairs each kind of
    change touches (first), which pairs the config's method picks, and the papers' names for them
    (``words``: the page's glossary words, defined at first use; default: every word plain)."""
    n = len(view.regimes)
    counts = {r: view.regimes.count(r) for r in REGIMES if r in view.regimes}
    parts = ", ".join(f"{c:,} {r}" for r, c in counts.items())
    out = [f"Of the {n:,} pairs: {parts}." if n > 1 else f"Its one pair: {view.regimes[0]}."]
    more = (_method_finding(view), _papers_names(view, words or FirstUse(teach=False)))
    return out + [sentence for sentence in more if sentence]
