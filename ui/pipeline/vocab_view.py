"""The vocabulary-size trade-off beside the Pipeline's tokens: sequence length and table size against V."""

from __future__ import annotations

import altair as alt
import streamlit as st

from core.config import PipelineConfig
from core.text.vocab import SweepPoint
from core.views.charts import line_chart, vocab_charts, vocab_frame
from core.views.glossary import define
from core.views.vocab_sentence import tradeoff_sentence
from ui.charts import draw
from ui.server import cache


@cache.per_process(
    max_entries=8, dropped_when_short=True
)  # ~0.35 MB each, within core.serving.budget's chart caches
def _charts(points: tuple[SweepPoint, ...], vocab_size: int, dim: int) -> tuple[alt.Chart, alt.Chart]:
    # Kept: building Altair charts is costly, and these depend only on the sweep, V and d (no text).
    return vocab_charts(vocab_frame(list(points), dim), vocab_size, draw=cache.drawing(line_chart))


def vocab_tradeoff(text: str, cfg: PipelineConfig) -> None:
    """Two small charts over the same log V axis, the sidebar's V marked, and what they show in words."""
    V, d = cfg.vocab_size, cfg.output_dim
    points = cache.vocab_sweep_of(text)
    num_tokens, whole_text = cache.swept_token_count(text, V)
    st.caption(f"Both charts draw the vocabulary size V on a {define('log scale')}.")
    for column, chart in zip(st.columns(2), _charts(tuple(points), V, d), strict=True):
        draw(chart, column, width="stretch", height=290)  # title and axes included
    st.caption(tradeoff_sentence(points, V, num_tokens, d, whole_text))
