"""How much of RoPE's position part a head keeps when only its first numbers turn (partial rotary), on the
student's own sentence: the Attention page's seeded random head, the same queries and keys, RoPE turning
all of them against only the first ``turned``."""

from __future__ import annotations

import math

import torch

from core.attention.heads import RandomHead
from core.config import PipelineConfig
from core.positional.family import FamilyConfig
from core.positional.rope import apply_rope


def position_part(q0: torch.Tensor, k0: torch.Tensor, base: float, turned: int) -> torch.Tensor:
    """[T, T] what turning the first ``turned`` numbers (pairs of neighbours, as the page's RoPE) of the
    queries and keys q0, k0 [T, dh] by their positions adds to the scores q·kᵀ/√dh."""
    T, dh = q0.shape
    positions = torch.arange(T)
    q = torch.cat((apply_rope(q0[:, :turned], positions, base), q0[:, turned:]), dim=-1)  # [T, dh]
    k = torch.cat((apply_rope(k0[:, :turned], positions, base), k0[:, turned:]), dim=-1)  # [T, dh]
    return (q @ k.T - q0 @ k0.T) / math.sqrt(dh)


def kept_share(q0: torch.Tensor, k0: torch.Tensor, base: float, turned: int) -> float | None:
    """The mean size of the position part over the pairs a causal mask shows (key j ≤ query i) when only
    the first ``turned`` numbers turn, as a share of it when all turn; None when all of it is 0 (one
    token: a token with itself is at distance 0)."""
    q0, k0 = q0.double(), k0.double()
    seen = torch.ones(len(q0), len(q0), dtype=torch.bool).tril()  # [T, T]
    full = position_part(q0, k0, base, q0.shape[-1])[seen].abs().mean()
    if float(full) == 0.0:
        return None
    return float(position_part(q0, k0, base, turned)[seen].abs().mean() / full)


def sentence_shares(
    tokens: torch.Tensor, cfg: PipelineConfig, fam: FamilyConfig, head: int, fractions: tuple[float, ...]
) -> dict[float, tuple[int, float | None]]:
    """For each share of a head in ``fractions``: how many of its numbers turn (an even count, at least
    one pair) and ``kept_share`` on ``tokens`` [N, d], with the Attention page's seeded random head."""
    q0, k0 = RandomHead(cfg.output_dim, fam.heads, head, cfg.seed).project(tokens)  # [N, dh] each
    dh = q0.shape[-1]
    turned = {f: max(2, int(dh * f) // 2 * 2) for f in fractions}
    return {f: (r, kept_share(q0, k0, fam.base, r)) for f, r in turned.items()}
