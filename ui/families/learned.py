"""Close-up: learned absolute positions (GPT-2)."""

from __future__ import annotations

import streamlit as st

from core.config import PipelineConfig
from core.positional.family import FamilyConfig
from core.positional.learned import INITS
from ui.families.close_up import table_heatmap


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """GPT-2's table up close: one free vector per position, untrained."""
    T, d = cfg.context_length, cfg.output_dim
    st.markdown(
        f"`nn.Embedding({T:,}, {d:,})`: one free vector per position, initialised here with `{fam.init}` "
        f"(random numbers of standard deviation {INITS[fam.init]:g}) and learned in training. It knows "
        f"nothing about distance until it is trained, and it has rows 0 … {T - 1:,} only: a table is only as "
        f"long as it was built. A model can be built with a longer one, `nn.Embedding({2 * T:,}, {d:,})` "
        f"say, but that is a different, bigger table, with {T * d:,} more parameters to train; this one "
        f"has no row {T:,}."
    )
    table_heatmap(cfg, fam, "Learned table (untrained)")
