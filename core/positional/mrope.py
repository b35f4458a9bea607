"""Positions in three dimensions (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): M-RoPE.

Every token gets three position numbers (t, h, w): time, row and column. A text token has the same
number on all three, counting on from the token before. An image's patches (after ``merge`` × ``merge``
patches are merged into one token) get (s, s + row, s + column), s being where the image starts; a
video's frames advance t by 1 (Qwen2-VL) or by ``tokens_per_second`` × the seconds a frame stands for
(Qwen2.5-VL). The text after an image or a video goes on from s + max(H, W) / merge.

The rotation's pairs are split among the three axes: ``mrope_section`` pairs follow t, then h, then w
(Qwen2-VL, Qwen2.5-VL), or the axes take turns pair by pair (Qwen3-VL, ``interleaved``).

Each function matches ``transformers`` 5.23 (``get_rope_index``, ``Qwen2VLRotaryEmbedding``,
``Qwen3VLTextRotaryEmbedding``): ``tests/core/positional/test_mrope.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

QWEN2_VL_SECTION = (16, 24, 24)  # pairs that follow t, h and w (64 pairs: head dim 128)
QWEN3_VL_SECTION = (24, 20, 20)


@dataclass(frozen=True)
class Segment:
    """A run of tokens: ``text`` tokens, or an image or a video of ``grid`` (frames, rows, columns) patches
    before merging; ``seconds`` a frame stands for (a video in Qwen2.5-VL)."""

    kind: str  # "text", "image" or "video"
    tokens: int = 0  # a text's
    grid: tuple[int, int, int] = (1, 1, 1)
    seconds: float = 1.0


def _grid_positions(start: int, grid: tuple[int, int, int], merge: int, step: float) -> torch.Tensor:
    """[3, T·H·W] (t, h, w) of an image's or a video's tokens, frame by frame, row by row."""
    frames, rows, columns = grid[0], grid[1] // merge, grid[2] // merge
    t = (torch.arange(frames) * step).long() + start
    h, w = torch.arange(rows) + start, torch.arange(columns) + start
    return torch.stack(torch.meshgrid(t, h, w, indexing="ij")).reshape(3, -1)


def mrope_positions(
    segments: list[Segment], merge: int = 2, tokens_per_second: float | None = None
) -> torch.Tensor:
    """[3, L] (t, h, w) of every token. ``tokens_per_second`` None: Qwen2-VL (a video's frames 1 apart);
    a number: Qwen2.5-VL (frames ``tokens_per_second`` × ``seconds`` apart, rounded down)."""
    parts, at = [], 0
    for segment in segments:
        if segment.kind == "text":
            parts.append((torch.arange(segment.tokens) + at).expand(3, -1))
            at += segment.tokens
            continue
        video = segment.kind == "video" and tokens_per_second is not None
        step = tokens_per_second * segment.seconds if video else 1
        parts.append(_grid_positions(at, segment.grid, merge, step))
        at += max(segment.grid[1], segment.grid[2]) // merge
    return torch.cat(parts, dim=1)


def pair_axes(section: tuple[int, ...], interleaved: bool = False) -> torch.Tensor:
    """[P] which axis (0 t, 1 h, 2 w) each rotation pair turns with: in blocks of ``section``, or taking
    turns t, h, w pair by pair while the h and w shares last (the rest on t)."""
    pairs = sum(section)
    if not interleaved:
        return torch.cat([torch.full((n,), k % 3) for k, n in enumerate(section)])
    axes = torch.zeros(pairs, dtype=torch.long)
    for axis in (1, 2):
        axes[axis : 3 * section[axis] : 3] = axis
    return axes


def mrope_angles(positions: torch.Tensor, inv_freq: torch.Tensor, axes: torch.Tensor) -> torch.Tensor:
    """[L, P] the angle each token turns each pair by: its position on that pair's axis times θᵢ."""
    return positions[axes].T.float() * inv_freq
