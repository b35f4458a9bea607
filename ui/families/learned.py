"""Close-up: learned absolute positions (GPT-2)."""

from __future__ import annotations

import streamlit as st

from core.config import FamilyConfig, PipelineConfig
from core.positional.learned import INITS
from ui.families.close_up import table_heatmap


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """GPT-2's table up close: one free vector per position, untrained."""
    st.markdown(
        f"`nn.Embedding({cfg.context_length}, {cfg.output_dim})`: one free vector per position, "
        f"initialised here with `{fam.init}` (std {INITS[fam.init]:g}) and "
        "learned in training. It knows nothing about distance until it is trained, and it has no row "
        "for a position past the context length."
    )
    table_heatmap(cfg, fam, "Learned table (untrained)")
