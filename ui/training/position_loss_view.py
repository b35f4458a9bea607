"""The Training page's extrapolation chart: every finished method's loss at each position, to 2T."""

from __future__ import annotations

import streamlit as st

from core.training.position_loss import extrapolation_sentences, position_loss_chart, position_loss_frame
from core.training.training import TrainResult
from ui.charts import draw


def position_loss_view(results: dict[str, TrainResult], context_length: int) -> None:
    """The chart and one sentence per method (nothing before a run has finished)."""
    frame = position_loss_frame(results, context_length)
    if not len(frame):
        return
    findings = extrapolation_sentences(results, context_length)
    chart = position_loss_chart(frame, context_length, findings=findings)
    draw(chart, width="stretch", height=300)
    st.markdown("\n".join(f"- {s}" for s in findings))
