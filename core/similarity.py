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
