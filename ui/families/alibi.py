"""Close-up: ALiBi (Press, Smith & Lewis 2022)."""

from __future__ import annotations

import pandas as pd
import streamlit as st
import torch

from core.config import FamilyConfig, PipelineConfig
from core.pipeline import sample_indices
from core.positional import alibi_bias, alibi_slopes
from core.views.charts import bar_chart
from ui.families.close_up import GRID, matrix_view
from ui.presenter import presenting, readable
from ui.server import cache


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """ALiBi up close: the slope per head and one head's bias matrix."""
    slopes = alibi_slopes(fam.heads)
    st.markdown(
        "ALiBi adds −m·(i − j) to the attention score of query i for key j: a penalty growing linearly "
        "with distance, with a different slope m per head (a geometric sequence, from the paper's code). "
        "No parameters, nothing added at the input."
    )
    c1, c2 = st.columns(2)
    with c1:
        frame = pd.DataFrame({"head": range(1, fam.heads + 1), "slope m": slopes.numpy()})
        st.altair_chart(
            readable(cache.chart(bar_chart, frame, "head", "slope m", "Slope per head")), width="stretch"
        )
    with c1 if presenting() else c2:  # presenting, under the slopes: the matrix keeps the screen's height
        head = st.selectbox("Head", range(1, fam.heads + 1), key="alibi_head")
    with c2:
        positions = sample_indices(cfg.context_length, GRID)  # [P]: never the whole [T, T] matrix
        bias = alibi_bias(fam.heads, cfg.context_length, positions)[head - 1].double()  # [P, P]
        bias = torch.where(positions[None, :] <= positions[:, None], bias, torch.nan)  # causal mask: j ≤ i
        matrix_view(bias, positions, f"Bias of head {head} (masked above the diagonal)")
