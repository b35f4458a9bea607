"""What the Long context page measures for a RoPE config: which pairs scaling keeps, slows or speeds up,
which pairs meet angles at L' that training never showed them, the position-only score against
distance, and the attention factor against s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

from core.positional.long_context_config import ORIGINAL, RopeConfig
from core.positional.rope_scaling import PARTIAL, VARIANTS, get_mscale, longrope_attention_factor

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
