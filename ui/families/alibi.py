"""Close-up: ALiBi (Press, Smith & Lewis 2022)."""

from __future__ import annotations

import pandas as pd
import streamlit as st
import torch

from core.config import PipelineConfig
from core.pipeline import sample_indices
from core.positional.alibi import alibi_bias, alibi_slopes
from core.positional.family import FamilyConfig
from core.views.charts import bar_chart
from core.views.glossary import define
from ui.charts import draw
from ui.families.close_up import GRID, matrix_view
from ui.presenter import presenting
from ui.server import cache


def alibi_words(slopes: torch.Tensor, teach: bool = True) -> str:
    """What ALiBi adds, and its slopes from the first head to the last; when ``teach`` (not on a slide,
    where the picture shows it), why its matrix is blank above the diagonal."""
    H = len(slopes)
    per_head = (
        f"one slope m = {float(slopes[0]):.3g} for its one head"
        if H == 1
        else f"a slope m of its own for each head, from {float(slopes[0]):.3g} for head 1 down to "
        f"{float(slopes.min()):.3g}"
    )
    return (
        "ALiBi adds −m·(i − j) to the attention score of query i for key j: a penalty growing linearly "
        f"with the distance i − j, with {per_head} (the paper's rule). Nothing to train, nothing added at "
        "the input."
    ) + (
        f" The matrix below is blank above its diagonal: the {define('causal mask')} shows query i only the "
        "keys j ≤ i."
        if teach
        else ""
    )


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """ALiBi up close: the slope per head and one head's bias matrix."""
    slopes = alibi_slopes(fam.heads)
    st.markdown(alibi_words(slopes, teach=not presenting()))
    c1, c2 = st.columns(2)
    with c1:
        frame = pd.DataFrame({"head": range(1, fam.heads + 1), "slope m": slopes.numpy()})
        draw(cache.chart(bar_chart, frame, "head", "slope m", "Slope per head"), width="stretch")
    with c1 if presenting() else c2:  # presenting, under the slopes: the matrix keeps the screen's height
        head = st.selectbox("Head", range(1, fam.heads + 1), key="alibi_head")
    with c2:
        positions = sample_indices(cfg.context_length, GRID)  # [P]: never the whole [T, T] matrix
        bias = alibi_bias(fam.heads, cfg.context_length, positions)[head - 1].double()  # [P, P]
        bias = torch.where(positions[None, :] <= positions[:, None], bias, torch.nan)  # causal mask: j ≤ i
        matrix_view(bias, positions, f"Bias of head {head} (masked above the diagonal)")
