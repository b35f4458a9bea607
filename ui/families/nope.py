"""Close-up: no positional encoding."""

from __future__ import annotations

import streamlit as st

from core.config import PipelineConfig
from core.positional.family import FamilyConfig
from core.views.glossary import define


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """NoPE up close: nothing to show but why that matters."""
    st.markdown(  # the causal mask defined here too: this tab may be the only one drawn
        "No position at all: the input embeddings are the token embeddings. Without a "
        f"{define('causal mask')}, attention sees a *set*: shuffle the words and every output is only "
        "shuffled the same way. In GPT the causal mask is the one thing that lets order in (see **Why "
        "position?**)."
    )
