"""Pictures of a page: a diagram drawn as an image, and a position × dimension heatmap of real values
with the note that says what it skipped."""

from __future__ import annotations

import html

import streamlit as st
import torch

from core.views.charts import grid_frame, heatmap
from core.views.colors import TENSOR_COLORS
from core.views.describe import grid_description
from core.views.units import every
from ui.charts import draw
from ui.server import cache


def picture(svg: str) -> None:
    """A diagram from ``core.views.diagrams``, drawn as an image; its accessible label becomes the alt
    text."""
    label = svg.split('aria-label="', 1)[1].split('"', 1)[0]
    st.image(svg, alt=html.unescape(label), width="content")


def sampled_note(total_positions: int, total_dims: int, positions: torch.Tensor, dims: torch.Tensor) -> str:
    """Says what a heatmap shows when it is downsampled (every k-th position / dimension)."""
    if len(positions) == total_positions and len(dims) == total_dims:
        return f"All {total_positions:,} × {total_dims:,} values."
    step_t = int(positions[1] - positions[0]) if len(positions) > 1 else 1
    step_d = int(dims[1] - dims[0]) if len(dims) > 1 else 1
    return (
        f"Downsampled for drawing: {every(step_t, total_positions, 'positions')} and "
        f"{every(step_d, total_dims, 'dimensions')}; every cell is a real value, none averaged."
    )


def heatmap_view(
    values: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
    title: str,
    total: tuple[int, int],
    marked: set[int] | frozenset[int] = frozenset(),
) -> None:
    """A position × dimension heatmap of real values [P, D] with a downsampling note.

    A title that names one of the lesson's tensors has a bar of its colour (``TENSOR_COLORS``) above the plot.
    ``marked``: the followed token's positions t, outlined where the heatmap draws them.
    """
    frame = grid_frame(values, positions, dims, "position t", "dimension j")
    color = TENSOR_COLORS.get(title.split("[")[0], (None, None))[1]
    note = sampled_note(total[0], total[1], positions, dims)
    rows = tuple(t for t in positions.tolist() if t in marked)
    said = f"{grid_description(title, frame, 'dimension j', 'position t')} {note}"  # a screen reader's
    if rows:
        said += f" The followed token's row{'s' * (len(rows) > 1)} t = {', '.join(map(str, rows))}: outlined."
    chart = cache.chart(
        heatmap, frame, "dimension j", "position t", title, accent=color, description=said, marked=rows
    )
    draw(chart, width="stretch")
    missed = sorted(set(marked) - set(rows))
    if missed:
        at, falls = ", ".join(f"{t:,}" for t in missed), "falls" if len(missed) == 1 else "fall"
        note += f" The followed token's t = {at} {falls} between the rows drawn."
    elif rows:
        note += f" The followed token's {'row is' if len(rows) == 1 else 'rows are'} outlined in black."
    st.caption(note)
