"""Fixed sinusoidal positions (Vaswani et al. 2017, §3.5).

``PE[p, 2i] = sin(p / base^(2i/d))`` and ``PE[p, 2i+1] = cos(p / base^(2i/d))``.
"""

from __future__ import annotations

import torch


def sinusoidal_at(positions: torch.Tensor, dim: int, base: float = 10000.0) -> torch.Tensor:
    """Sinusoidal encodings of the given positions, paper layout (sin/cos interleaved).

    Computed in float64 and rounded once to float32, so every value is the float32 nearest
    the exact formula (a float32 computation drifts by up to ~1e-4 at large positions).

    Args:
        positions: [P] integer positions.
        dim: d, even.
    Returns:
        [P, d] float32.
    """
    if dim % 2:
        raise ValueError(f"Sinusoidal encodings need an even dimension (got {dim}).")
    inv_freq = base ** (-torch.arange(0, dim, 2, dtype=torch.float64) / dim)  # [d/2]
    angles = positions.to(torch.float64)[:, None] * inv_freq  # [P, d/2]
    pe = torch.stack((angles.sin(), angles.cos()), dim=-1)  # [P, d/2, 2]
    return pe.flatten(1).to(torch.float32)  # [P, d]


def sinusoidal(num_positions: int, dim: int, base: float = 10000.0) -> torch.Tensor:
    """The whole table for positions ``0 … num_positions-1``: [T, d] float32."""
    return sinusoidal_at(torch.arange(num_positions), dim, base)
