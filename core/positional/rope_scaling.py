"""RoPE scaling: how today's models run rotary positions past the length they were trained on.

RoPE turns pair i of a query and a key by ``p·θ_i``, ``θ_i = base^(−2i/d)`` (``core.positional.rope``).
Trained on L positions, a slow pair has only seen angles up to ``L·θ_i``; past L it meets angles it never
saw. Every scaling method changes the frequencies ``θ_i`` (``inv_freq``) so that the longer length L' = s·L
stays, for the slow pairs, inside the angles of training:

* ``linear`` — position interpolation: every θ divided by the factor s (Chen et al. 2023);
* ``dynamic`` — NTK-aware: a larger base, recomputed for the current length (bloc97, emozilla 2023);
* ``yarn`` — fast pairs kept, slow pairs divided by s, a linear ramp between, and an attention factor
  (Peng et al. 2023);
* ``llama3`` — the same three bands, cut by wavelength against L (Meta 2024, Llama 3.1);
* ``longrope`` — a searched factor for every pair, one list for short and one for long inputs (Ding et
  al. 2024);
* ``proportional`` — only the fastest pairs of a head rotate, at a full head's frequencies (Gemma 4's
  full-attention layers in transformers);
* ``default`` — plain RoPE (Su et al. 2021).

``scaled_inv_freq`` computes what transformers' ``ROPE_INIT_FUNCTIONS`` compute
(``transformers/modeling_rope_utils.py``, 5.23), in float32 and in the same order of operations, from
the same ``rope_parameters`` keys, without the config object (tests check it to 1e-6 against those
functions, for real models' configs too). It raises ``ValueError`` where transformers would only log a
warning: a factor below 1, a short/long factor list of the wrong length, beta_fast ≤ beta_slow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real

import torch

from core.positional.rope import rope_inv_freq
from core.positional.sinusoidal import check_base

PARTIAL = "partial_rotary_factor"
MAX_HEAD_DIM = 4096  # a head this wide is already 16× the widest in use (Gemma 4's 512)
MAX_FACTOR = 10_000.0  # the extension factor s (DeepSeek-V3 uses 40)


@dataclass(frozen=True)
class RopeVariant:
    """One ``rope_type``: what it changes, its source and the ``rope_parameters`` keys it reads."""

    name: str  # the ``rope_type`` in a config.json
    label: str  # a short name for legends
    idea: str  # one sentence: what it does to the frequencies
    paper: str  # where it comes from
    reference: str  # the transformers function these values are checked against
    keys: tuple[str, ...]  # every rope_parameters key it reads
    required: tuple[str, ...] = ()  # keys it cannot do without


NUMBERS = (
    "factor",
    "low_freq_factor",
    "high_freq_factor",
    "beta_fast",
    "beta_slow",
    "mscale",
    "mscale_all_dim",
    "attention_factor",
    PARTIAL,
)
HF = "transformers modeling_rope_utils."
VARIANTS: dict[str, RopeVariant] = {
    v.name: v
    for v in (
        RopeVariant(
            "default",
            "plain RoPE",
            "every pair turns at its trained frequency θᵢ = base^(−2i/d): nothing is slowed down.",
            "Su et al. 2021, RoFormer §3.4",
            "transformers models/llama/modeling_llama.py "
            "LlamaRotaryEmbedding.compute_default_rope_parameters",
            (PARTIAL,),
        ),
        RopeVariant(
            "linear",
            "position interpolation",
            "every pair is slowed by the factor s, so position p turns each pair as far as position p/s did "
            "in training.",
            "Chen et al. 2023, Extending Context Window of Large Language Models via Positional "
            "Interpolation; kaiokendev 2023",
            HF + "_compute_linear_scaling_rope_parameters",
            ("factor", PARTIAL),
            ("factor",),
        ),
        RopeVariant(
            "dynamic",
            "dynamic NTK",
            "the base grows with the current length, so the fast pairs barely change and the slowest are "
            "slowed by about s or more (NTK-aware scaling, recomputed as the text grows).",
            "bloc97 2023, NTK-aware scaled RoPE (r/LocalLLaMA); emozilla 2023, dynamic NTK; a larger base "
            "as in Rozière et al. 2023 (Code Llama)",
            HF + "_compute_dynamic_ntk_parameters",
            ("factor", PARTIAL),
            ("factor",),
        ),
        RopeVariant(
            "yarn",
            "YaRN",
            "pairs that turn many times within L are kept, pairs that turn about once or less are slowed by "
            "s, the ones between by a blend of the two, and every score is scaled up by an attention factor.",
            "Peng et al. 2023, YaRN: Efficient Context Window Extension of Large Language Models",
            HF + "_compute_yarn_parameters",
            (
                "factor",
                "original_max_position_embeddings",
                "attention_factor",
                "beta_fast",
                "beta_slow",
                "mscale",
                "mscale_all_dim",
                "truncate",
                PARTIAL,
            ),
        ),
        RopeVariant(
            "llama3",
            "Llama 3",
            "pairs that turn often within L are kept, pairs that turn less than about once are slowed by s, "
            "and the ones between by a smooth blend of the two.",
            "Meta 2024, The Llama 3 Herd of Models (Llama 3.1)",
            HF + "_compute_llama3_parameters",
            ("factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor", PARTIAL),
            ("factor", "low_freq_factor", "high_freq_factor"),
        ),
        RopeVariant(
            "longrope",
            "LongRoPE",
            "each pair is slowed by its own factor, found by a search: one list of factors up to L, another "
            "past it; every score is scaled up by an attention factor.",
            "Ding et al. 2024, LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens",
            HF + "_compute_longrope_parameters",
            (
                "short_factor",
                "long_factor",
                "factor",
                "attention_factor",
                "original_max_position_embeddings",
                PARTIAL,
            ),
            ("short_factor", "long_factor"),
        ),
        RopeVariant(
            "proportional",
            "proportional",
            "only the fastest share of each head's pairs turns, at the frequencies a whole head would have; "
            "the other pairs never turn (θ = 0).",
            "Google DeepMind's Gemma 4, in its full-attention layers",
            HF + "_compute_proportional_rope_parameters",
            ("factor", PARTIAL),
        ),
    )
}
ROPE_TYPES = tuple(VARIANTS)


def _number(name: str, value: object) -> float:
    """``value`` as a float; ``ValueError`` naming ``name`` unless it is a finite real number."""
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number (it is {value!r}).")
    return float(value)


def _whole(name: str, value: object, least: int = 1) -> int:
    """``value`` as an int; ``ValueError`` unless it is a whole number of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, Real) or value != int(value) or value < least:
        raise ValueError(f"{name} must be a whole number of at least {least:,} (it is {value!r}).")
    return int(value)


def check_factor(factor: float, what: str = "factor") -> float:
    """The extension factor s: ``ValueError`` unless 1 ≤ s ≤ ``MAX_FACTOR`` (s < 1 would shorten)."""
    factor = _number(what, factor)
    if not 1.0 <= factor <= MAX_FACTOR:
        raise ValueError(
            f"The {what} s must be at least 1 (s < 1 would shrink the context, not extend it) and at most "
            f"{MAX_FACTOR:,.0f}; it is {factor:g}."
        )
    return factor


def rotary_dim(head_dim: int, partial_rotary_factor: float = 1.0) -> int:
    """How many of a head's dims rotate: ``int(head_dim · partial_rotary_factor)``, as transformers.

    Raises ``ValueError`` for a head_dim that is not even, a factor outside (0, 1], or an odd or empty
    rotary part (RoPE turns pairs).
    """
    head_dim = _whole("head_dim", head_dim, 2)
    if head_dim > MAX_HEAD_DIM or head_dim % 2:
        raise ValueError(f"head_dim must be even and at most {MAX_HEAD_DIM:,} (it is {head_dim:,}).")
    partial = _number(PARTIAL, partial_rotary_factor)
    if not 0 < partial <= 1:
        raise ValueError(f"{PARTIAL} is the share of a head that rotates: in (0, 1], not {partial:g}.")
    dim = int(head_dim * partial)
    if dim < 2 or dim % 2:
        raise ValueError(
            f"RoPE rotates pairs, so head_dim × {PARTIAL} must be an even number of at least 2 "
            f"(it is int({head_dim} × {partial:g}) = {dim})."
        )
    return dim


def _factor_list(name: str, values: object, pairs: int) -> torch.Tensor:
    """A LongRoPE factor list as float32 [pairs]; ``ValueError`` for the wrong length or bad values."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise ValueError(f"{name} must be a list of {pairs} numbers, one per rotated pair.")
    if len(values) != pairs:
        raise ValueError(
            f"{name} has {len(values)} values, but this head rotates {pairs} pairs: LongRoPE needs one "
            "factor per pair (head_dim × partial_rotary_factor / 2)."
        )
    numbers = [_number(f"{name}[{i}]", v) for i, v in enumerate(values)]
    if min(numbers) <= 0:
        raise ValueError(f"Every {name} value divides a frequency, so it must be positive.")
    return torch.tensor(numbers, dtype=torch.float32)  # [d/2]


def _checked_keys(rope_type: str, params: dict) -> dict:
    """The keys given (None counts as not given), after checking that ``rope_type`` reads each of them."""
    if rope_type not in VARIANTS:
        raise ValueError(f"rope_type must be one of {', '.join(ROPE_TYPES)} (it is {rope_type!r}).")
    variant = VARIANTS[rope_type]
    given = {k: v for k, v in params.items() if v is not None}
    unread = [k for k in given if k not in variant.keys]
    if unread:
        raise ValueError(
            f"rope_type {rope_type!r} does not read {', '.join(unread)}; it reads {', '.join(variant.keys)}."
        )
    missing = [k for k in variant.required if k not in given]
    if missing:
        raise ValueError(f"rope_type {rope_type!r} needs {', '.join(missing)}.")
    return given


def get_mscale(scale: float, mscale: float = 1.0) -> float:
    """YaRN's attention factor for an extension by ``scale``: ``0.1·mscale·ln(scale) + 1`` (1 for scale ≤ 1).

    Peng et al. 2023 §3.4 (``sqrt(1/t) = 0.1 ln s + 1``); transformers ``_compute_yarn_parameters``.
    """
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def longrope_attention_factor(factor: float, original: int) -> float:
    """LongRoPE's attention factor: ``sqrt(1 + ln s / ln L)`` (1 for s ≤ 1), as transformers and Phi-3."""
    if factor <= 1.0:
        return 1.0
    return math.sqrt(1 + math.log(factor) / math.log(original))


def yarn_correction_range(
    beta_fast: float, beta_slow: float, dim: int, base: float, original: int, truncate: bool = True
) -> tuple[float, float]:
    """The pairs where YaRN's ramp runs: from the pair that turns ``beta_fast`` times within L to the one
    that turns ``beta_slow`` times (Peng et al. 2023 §3.2, "NTK-by-parts"), clamped to [0, dim − 1].

    Pair i turns ``L·θ_i / 2π`` times within L, so it turns n times where
    ``i = dim·ln(L / (2π·n)) / (2·ln base)``; ``truncate`` rounds the ends outwards, as transformers.
    """

    def pair_turning(turns: float) -> float:
        return (dim * math.log(original / (turns * 2 * math.pi))) / (2 * math.log(base))

    low, high = pair_turning(beta_fast), pair_turning(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, dim - 1)


def yarn_ramp(low: float, high: float, pairs: int) -> torch.Tensor:
    """YaRN's ramp γ per pair, 0 below ``low`` … 1 above ``high``: the share of interpolation. [pairs]"""
    if low == high:
        high += 0.001  # as transformers: no division by zero
    return torch.clamp((torch.arange(pairs, dtype=torch.float32) - low) / (high - low), 0, 1)  # [d/2]


def _linear(dim: int, base: float, p: dict) -> tuple[torch.Tensor, float]:
    # Chen et al. 2023: position p is read as p / s, which is the same as every θ divided by s.
    return rope_inv_freq(dim, base) / p["factor"], 1.0  # [d/2]


def _dynamic(dim: int, base: float, p: dict, max_position_embeddings: int, seq_len: int | None):
    # Difference to the original RoPE: a larger base, recomputed for the current length (emozilla 2023).
    if dim < 4:
        raise ValueError("dynamic NTK scales the base by an exponent dim / (dim − 2): it needs dim ≥ 4.")
    factor = p["factor"]
    seq_len = max_position_embeddings if seq_len is None else max(seq_len, max_position_embeddings)
    base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    return rope_inv_freq(dim, base), 1.0  # [d/2]


def _yarn(dim: int, base: float, p: dict, original: int) -> tuple[torch.Tensor, float]:
    factor, mscale, mscale_all_dim = p["factor"], p.get("mscale"), p.get("mscale_all_dim")
    attention_factor = p.get("attention_factor")
    if attention_factor is None:  # DeepSeek-V2/V3 write mscale and mscale_all_dim; Peng et al. only s
        if mscale and mscale_all_dim:
            attention_factor = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = get_mscale(factor)
    beta_fast, beta_slow = p.get("beta_fast") or 32, p.get("beta_slow") or 1  # the paper's 32 and 1
    if not beta_fast > beta_slow > 0:
        raise ValueError(
            f"YaRN ramps from the pair that turns beta_fast times within L to the one that turns beta_slow "
            f"times, so it needs beta_fast > beta_slow > 0 (they are {beta_fast:g} and {beta_slow:g})."
        )
    pos_freqs = base ** (torch.arange(0, dim, 2).to(dtype=torch.float) / dim)  # [d/2]
    inv_freq_extrapolation = 1.0 / pos_freqs  # [d/2]: plain RoPE
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)  # [d/2]: PI
    low, high = yarn_correction_range(beta_fast, beta_slow, dim, base, original, p.get("truncate", True))
    extrapolation = 1 - yarn_ramp(low, high, dim // 2)  # [d/2]: 1 for fast pairs, 0 for slow
    inv_freq = inv_freq_interpolation * (1 - extrapolation) + inv_freq_extrapolation * extrapolation
    return inv_freq, attention_factor  # [d/2]


def _llama3(dim: int, base: float, p: dict, original: int) -> tuple[torch.Tensor, float]:
    factor, low_freq_factor, high_freq_factor = p["factor"], p["low_freq_factor"], p["high_freq_factor"]
    if not high_freq_factor > low_freq_factor > 0:
        raise ValueError(
            "llama3 keeps pairs shorter than L/high_freq_factor and divides those longer than "
            "L/low_freq_factor, so it needs high_freq_factor > low_freq_factor > 0 (they are "
            f"{high_freq_factor:g} and {low_freq_factor:g})."
        )
    inv_freq = rope_inv_freq(dim, base)  # [d/2]
    low_freq_wavelen, high_freq_wavelen = original / low_freq_factor, original / high_freq_factor
    wavelen = 2 * math.pi / inv_freq  # [d/2]
    inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)  # [d/2]
    smooth_factor = (original / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)  # [d/2]
    smoothed = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama  # [d/2]
    is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)  # [d/2]
    return torch.where(is_medium_freq, smoothed, inv_freq_llama), 1.0  # [d/2]


def _longrope(dim: int, base: float, p: dict, original: int, seq_len: int | None):
    factor = p["factor"]
    attention_factor = p.get("attention_factor")
    if attention_factor is None:
        attention_factor = longrope_attention_factor(factor, original)
    short_factor = _factor_list("short_factor", p["short_factor"], dim // 2)  # [d/2]
    long_factor = _factor_list("long_factor", p["long_factor"], dim // 2)  # [d/2]
    # Past L the long factors, up to L the short ones (transformers' dynamic_rope_update switches them).
    ext_factors = long_factor if seq_len and seq_len > original else short_factor  # [d/2]
    inv_freq_shape = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim  # [d/2]
    return 1.0 / (ext_factors * base**inv_freq_shape), attention_factor  # [d/2]


def _proportional(head_dim: int, base: float, p: dict) -> tuple[torch.Tensor, float]:
    # Difference to partial RoPE: the exponent divides by the whole head_dim, so the rotated pairs turn
    # as the fastest pairs of a full head would, and the rest of the head's pairs get θ = 0.
    rope_angles = int(p.get(PARTIAL, 1.0) * head_dim // 2)
    exponents = torch.arange(0, 2 * rope_angles, 2, dtype=torch.int64).float() / head_dim  # [n]
    inv_freq = torch.cat((1.0 / (base**exponents), torch.zeros(head_dim // 2 - rope_angles)))  # [dh/2]
    return inv_freq / p.get("factor", 1.0), 1.0


def scaled_inv_freq(
    rope_type: str,
    head_dim: int,
    base: float,
    max_position_embeddings: int,
    seq_len: int | None = None,
    **rope_parameters,
) -> tuple[torch.Tensor, float]:
    """The rotation frequencies of a scaled RoPE and its attention factor, as transformers computes them.

    Args:
        rope_type: one of ``ROPE_TYPES`` (a config.json's ``rope_type``, or ``type`` in old configs).
        head_dim: dh, the size of one head's query (DeepSeek: its rotary part, ``qk_rope_head_dim``).
        base: ``rope_theta``.
        max_position_embeddings: the config's length: the trained one for linear and dynamic, the
            extended one for yarn, llama3 and longrope (which read the trained one from
            ``original_max_position_embeddings``, by default this length).
        seq_len: the current sequence length (dynamic recomputes for it; longrope takes its long factors
            past the original length); None as at a model's start.
        rope_parameters: the config's ``rope_parameters`` keys (``factor``, ``low_freq_factor``, …); see
            ``VARIANTS[rope_type].keys``. A None value counts as absent.
    Returns:
        ``inv_freq`` [dh·partial_rotary_factor/2] float32 (proportional: [dh/2], zeros for the pairs
        that do not turn), and the attention factor that multiplies cos and sin (1.0 when unused).
    """
    p = _checked_keys(rope_type, rope_parameters)
    for key in NUMBERS:
        if key in p:
            p[key] = _number(key, p[key])
    check_base(_number("base (rope_theta)", base))
    max_position_embeddings = _whole("max_position_embeddings", max_position_embeddings)
    if seq_len is not None:
        seq_len = _whole("seq_len", seq_len)
    dim = rotary_dim(head_dim, p.get(PARTIAL, 1.0))
    original = p.get("original_max_position_embeddings", max_position_embeddings)
    original = _whole("original_max_position_embeddings", original, 2)
    if not isinstance(p.get("truncate", True), bool):
        raise ValueError(f"truncate is true or false (it is {p['truncate']!r}).")
    if "factor" in p:
        p["factor"] = check_factor(p["factor"])
    elif rope_type in ("yarn", "longrope"):  # DeepSeek-V3, Phi-3: the factor is the ratio of the lengths
        p["factor"] = check_factor(max_position_embeddings / original, "factor max_position_embeddings / L")
    if p.get("attention_factor", 1.0) <= 0:
        raise ValueError(
            f"attention_factor multiplies cos and sin: it must be positive ({p['attention_factor']:g})."
        )
    if rope_type == "default":
        return rope_inv_freq(dim, base), 1.0
    if rope_type == "linear":
        return _linear(dim, base, p)
    if rope_type == "dynamic":
        return _dynamic(dim, base, p, max_position_embeddings, seq_len)
    if rope_type == "yarn":
        return _yarn(dim, base, p, original)
    if rope_type == "llama3":
        return _llama3(dim, base, p, original)
    if rope_type == "longrope":
        return _longrope(dim, base, p, original, seq_len)
    return _proportional(head_dim, base, p)
