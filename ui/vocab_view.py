"""The vocabulary-size trade-off beside the Pipeline's tokens: sequence length and table size against V."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.charts import line_chart
from core.config import PipelineConfig
from core.vocab import table_parameters, tradeoff_sentence
from ui import cache
from ui.presenter import readable

V_AXIS = "vocab size V (log)"


def vocab_tradeoff(text: str, cfg: PipelineConfig) -> None:
    """Two small charts over the same log V axis, the sidebar's V marked, and what they show in words."""
    V, d = cfg.vocab_size, cfg.output_dim
    points = cache.vocab_sweep_of(text)
    num_tokens, whole_text = cache.swept_token_count(text, V)
    frame = pd.DataFrame(
        {
            V_AXIS: [p.vocab_size for p in points],
            "tokens in the text": [p.num_tokens for p in points],
            "parameters V × d": [table_parameters(p.vocab_size, d) for p in points],
        }
    )
    mark = {"rule_at": V, "rule_label": f"V = {V:,}", "log_x": True, "y_format": ","}
    charts = (
        line_chart(frame, V_AXIS, "tokens in the text", "Vocabulary size against sequence length", **mark),
        line_chart(frame, V_AXIS, "parameters V × d", "…and the token table's size", log_y=True, **mark),
    )
    for column, chart in zip(st.columns(2), charts, strict=True):
        column.altair_chart(readable(chart), width="stretch", height=290)  # title and axes included
    st.caption(tradeoff_sentence(points, V, num_tokens, d, whole_text))
