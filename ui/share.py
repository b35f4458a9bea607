"""The PyTorch code that computes a view."""

from __future__ import annotations

import streamlit as st

from core.codegen import MAX_INLINE_CHARS, pipeline_code
from core.config import PipelineConfig


def code_export(cfg: PipelineConfig, text: str) -> None:
    """The page's computation as a script: shown, and downloadable as ``pipeline.py``."""
    code = pipeline_code(cfg, text)
    with st.expander("PyTorch code for this view", icon=":material/code:"):
        st.caption(
            "Runs as-is with this project's requirements and no network, and prints the shapes above "
            "and the corner of input_embeddings this page shows."
            + (" Save your text as text.txt next to it." if len(text) > MAX_INLINE_CHARS else "")
        )
        st.download_button(
            "pipeline.py",
            code,
            "pipeline.py",
            "text/x-python",
            key="dl_code",
            on_click="ignore",
            icon=":material/download:",
        )
        st.code(code, language="python", line_numbers=True)
