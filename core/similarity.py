"""Similarity of embedding vectors."""

from __future__ import annotations

import math
from dataclasses import dataclass

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
    flat = pair_distances(positions).flatten()  # [P*P]
    # bincount, not unique(return_inverse): no sort of the P² distances
    count = torch.bincount(flat)  # [max + 1] pairs at each distance
    total = torch.bincount(flat, weights=sim.reshape(P * P).double())  # [max + 1]
    distances = torch.nonzero(count).flatten()  # [G] the distances that occur
    return distances, total[distances] / count[distances]


PEAK_GAP = 64  # the two peaks a fade's description names are at least this many positions apart
CLIMB = 0.1  # a peak counts as a climb back when it stands this much above the lowest point


@dataclass(frozen=True)
class Fade:
    """Landmarks of a curve of mean similarity against distance, read from the whole curve."""

    low_at: int  # the lowest point past distance 0
    zero_at: int | None  # the first distance at which the curve is 0 or below (None: never)
    peaks: tuple[int, ...]  # past the lowest point, the highest, and the highest ≥ PEAK_GAP from it
    as_high_at: int | None  # the first distance ≥ 1 at which the curve is no higher than its top peak


def fade(curve: torch.Tensor) -> Fade:
    """Where a similarity-by-distance curve is lowest, first reaches 0, and climbs back to afterwards.

    Args:
        curve: [T] the mean similarity at each distance r = 0 … T−1 (T ≥ 2), e.g. ``mean_by_distance``'s.
    Returns:
        its ``Fade``; ``peaks`` are in order of distance, only those at least ``CLIMB`` above the low.
    """
    T = curve.shape[0]
    if T < 2:
        raise ValueError(f"A curve by distance needs distances 0 and 1 at least (it has {T}).")
    r = torch.arange(T)
    low = int(curve[1:].argmin()) + 1
    below = (curve[1:] <= 0).nonzero()
    zero = int(below[0]) + 1 if len(below) else None
    rising = (r > low) & (curve >= curve[low] + CLIMB)  # [T] points that stand above the low, past it
    peaks: list[int] = []
    if bool(rising.any()):
        top = int(torch.where(rising, curve, -math.inf).argmax())
        peaks.append(top)
        other = rising & ((r - top).abs() >= PEAK_GAP)  # [T]
        if bool(other.any()):
            peaks.append(int(torch.where(other, curve, -math.inf).argmax()))
    as_high = None
    if peaks:
        at_most = (curve[1:] <= curve[peaks[0]]).nonzero()
        as_high = int(at_most[0]) + 1  # exists: the top peak itself is one
    return Fade(low, zero, tuple(sorted(peaks)), as_high)


def fade_sentence(curve: torch.Tensor) -> str:
    """What a similarity-by-distance curve [T] does past distance 1, in words, from ``fade(curve)``: how
    low it gets, where it first reaches 0, and whether (and how high) it climbs back farther out."""
    f = fade(curve)
    text = (
        f"the likeness fades with distance, with ripples, to its lowest, {curve[f.low_at]:+.2f} at {f.low_at}"
    )
    if f.zero_at is not None and f.zero_at < f.low_at:
        text += f" (it first reaches 0 at {f.zero_at})"
    if not f.peaks:
        return text + ", and stays low from there on."
    climbs = " and ".join(f"{curve[p]:+.2f} at {p}" for p in f.peaks)
    return text + f"; farther out it climbs back, to {climbs}, as high as at distance {f.as_high_at}."
