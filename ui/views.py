"""Views of real tensor values: small numeric tables and downsampled heatmaps."""

from __future__ import annotations

import pandas as pd
import streamlit as st
import torch

from core.charts import grid_frame, heatmap
from core.colors import TENSOR_COLORS
from core.units import every
from ui.presenter import presenting, readable


def grid_table(ids: torch.Tensor) -> pd.DataFrame:
    """A [B, T] block of token IDs with its axes named: rows b=…, columns t=…."""
    return pd.DataFrame(
        ids.numpy(),
        index=[f"b={b}" for b in range(ids.shape[0])],
        columns=[f"t={t}" for t in range(ids.shape[1])],
    )


def show_table(frame: pd.DataFrame) -> None:
    """A small table: a scrollable grid, or an HTML table in large type when presenting."""
    if presenting():
        st.table(frame)
    else:
        st.dataframe(frame, width="stretch")


def values_table(
    values: torch.Tensor, positions: torch.Tensor, dims: torch.Tensor, labels: list[str] | None = None
) -> None:
    """A [P, D] block of real values, rows labelled by position (or ``labels``).

    Shown to 4 decimals, as torch prints them; the cell's tooltip and a copy hold the full float.
    """
    columns = [f"d{int(j)}" for j in dims]
    index = labels or [f"t={int(t)}" for t in positions]
    frame = pd.DataFrame(values.double().numpy(), index=index, columns=columns)
    if presenting():  # an HTML table grows with the presenter's type; the grid's canvas would not
        st.table(frame.style.format("{:.4f}"))
        return
    # Formatting in the browser (column_config) costs nothing here; a pandas Styler costs ~10 ms.
    config = {c: st.column_config.NumberColumn(format="%.4f") for c in columns}
    st.dataframe(frame, column_config=config, width="stretch")


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
    values: torch.Tensor, positions: torch.Tensor, dims: torch.Tensor, title: str, total: tuple[int, int]
) -> None:
    """A position × dimension heatmap of real values [P, D] with a downsampling note.

    A title that names one of the lesson's tensors takes its colour from ``TENSOR_COLORS``.
    """
    frame = grid_frame(values, positions, dims, "position t", "dimension j")
    color = TENSOR_COLORS.get(title.split("[")[0], (None, None))[1]
    st.altair_chart(
        readable(heatmap(frame, "dimension j", "position t", title, title_color=color)), width="stretch"
    )
    st.caption(sampled_note(total[0], total[1], positions, dims))
