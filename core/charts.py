"""Charts as pure functions: data in, ``alt.Chart`` out (no Streamlit)."""

from __future__ import annotations

import altair as alt
import pandas as pd
import torch


def grid_frame(
    values: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor, row_name: str, col_name: str
) -> pd.DataFrame:
    """Long-form frame of a [R, C] grid: one row per cell with its row, column and value."""
    r, c = torch.meshgrid(rows, cols, indexing="ij")  # [R, C] each
    return pd.DataFrame(
        {
            row_name: r.flatten().numpy(),
            col_name: c.flatten().numpy(),
            "value": values.flatten().double().numpy(),
        }
    )


def heatmap(frame: pd.DataFrame, x: str, y: str, title: str, height: int = 220) -> alt.Chart:
    """A position × dimension heatmap of ``frame`` (columns x, y, value); blue < 0 < red."""
    limit = float(frame["value"].abs().max()) or 1.0
    return (
        alt.Chart(frame, title=title, height=height)
        .mark_rect()
        .encode(
            x=alt.X(f"{x}:O", title=x, axis=alt.Axis(labelOverlap=True, labelAngle=0)),
            y=alt.Y(f"{y}:O", title=y, axis=alt.Axis(labelOverlap=True)),
            color=alt.Color(
                "value:Q",
                title="value",
                scale=alt.Scale(scheme="redblue", reverse=True, domain=[-limit, limit]),
            ),
            tooltip=[alt.Tooltip(f"{y}:O"), alt.Tooltip(f"{x}:O"), alt.Tooltip("value:Q", format=".4f")],
        )
    )
