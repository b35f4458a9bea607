"""Close-up: no positional encoding."""

from __future__ import annotations

import streamlit as st

from core.config import FamilyConfig, PipelineConfig


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """NoPE up close: nothing to show but why that matters."""
    st.markdown(
        "No position at all: the input embeddings are the token embeddings, and attention sees "
        "a *set*. Shuffle the words and every output is shuffled the same way — see **Why position?**."
    )
