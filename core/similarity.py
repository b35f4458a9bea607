"""Similarity of embedding vectors."""

from __future__ import annotations

import torch


def cosine(a: torch.Tensor, b: torch.Tensor) -> float:
    """Cosine similarity of two vectors [d], computed in float64."""
    a, b = a.double(), b.double()
    return float(a @ b / (a.norm() * b.norm()))


def cosine_matrix(x: torch.Tensor) -> torch.Tensor:
    """Pairwise cosine similarity of the rows of x: [N, d] → [N, N] (float64)."""
    x = x.double()
    x = x / x.norm(dim=1, keepdim=True)  # [N, d]
    return x @ x.T  # [N, N]


def pair_distances(positions: torch.Tensor) -> torch.Tensor:
    """Distance |p_i − p_j| between every two positions.

    Args:
        positions: [P] integer positions (sampled positions need not be consecutive).

    Returns:
        [P, P] integer distances, 0 on the diagonal.
    """
    return (positions[None, :] - positions[:, None]).abs()  # [P, P]


def mean_by_distance(sim: torch.Tensor, positions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean of a pairwise matrix (e.g. cosine similarity) over all pairs at each distance |p_i − p_j|.

    Every ordered pair counts once, so a symmetric matrix's two halves weigh the same.

    Args:
        sim: [P, P] values for the positions' pairs.
        positions: [P] integer positions of the rows (and columns) of ``sim``.

    Returns:
        [G] the distinct distances in increasing order (0 first) and [G] the float64 mean at each.
    """
    P = positions.shape[0]
    distances, group = torch.unique(pair_distances(positions).flatten(), return_inverse=True)  # [G], [P*P]
    total = torch.zeros(len(distances), dtype=torch.float64).index_add_(0, group, sim.reshape(P * P).double())
    count = torch.bincount(group, minlength=len(distances))  # [G] pairs at each distance
    return distances, total / count
