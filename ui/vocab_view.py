"""The vocabulary-size trade-off beside the Pipeline's tokens: sequence length and table size against V."""

from __future__ import annotations

import streamlit as st

from core.charts import vocab_charts, vocab_frame
from core.config import PipelineConfig
from core.vocab import tradeoff_sentence
from ui import cache
from ui.presenter import readable


def vocab_tradeoff(text: str, cfg: PipelineConfig) -> None:
    """Two small charts over the same log V axis, the sidebar's V marked, and what they show in words."""
    V, d = cfg.vocab_size, cfg.output_dim
    points = cache.vocab_sweep_of(text)
    num_tokens, whole_text = cache.swept_token_count(text, V)
    charts = vocab_charts(vocab_frame(points, d), V)
    for column, chart in zip(st.columns(2), charts, strict=True):
        column.altair_chart(readable(chart), width="stretch", height=290)  # title and axes included
    st.caption(tradeoff_sentence(points, V, num_tokens, d, whole_text))
