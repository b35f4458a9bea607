"""Sharing a view: its link, and the PyTorch code that computes it."""

from __future__ import annotations

import streamlit as st

from core.codegen import MAX_INLINE_CHARS, pipeline_code
from core.config import PipelineConfig


def share_link() -> None:
    """The page's current URL in a code box (its copy button copies the link)."""
    with st.sidebar.popover("Copy link", icon=":material/link:", width="stretch"):
        st.caption(
            "This link reopens the view exactly (text aside: pasted and uploaded text stays in this "
            "browser session)."
        )
        st.code(st.context.url or "", language=None, wrap_lines=True)


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
