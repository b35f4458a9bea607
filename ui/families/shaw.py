"""Close-up: Shaw et al.'s relative position representations (2018)."""

from __future__ import annotations

import streamlit as st

from core.config import FamilyConfig, PipelineConfig
from core.pipeline import sample_indices
from core.positional import shaw_relative_indices
from core.views.units import plural
from ui.families.close_up import GRID, matrix_view


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """Shaw up close: which clipped-offset vector each query–key pair uses."""
    head_dim = cfg.output_dim // fam.heads
    st.markdown(
        f"Shaw et al. learn one vector per clipped offset clip(j − i, ±{fam.clip}): "
        f"{plural(2 * fam.clip + 1, 'vector')} of {plural(head_dim, 'number')} for the keys (and as many "
        "for the values). Offsets further than the clip share the outermost vector."
    )
    positions = sample_indices(cfg.context_length, GRID)  # [P]: never the whole [T, T] matrix
    index = shaw_relative_indices(cfg.context_length, fam.clip, positions)  # [P, P]
    matrix_view(
        index.double(),
        positions,
        "Index of the vector each query–key pair uses",
        scheme="viridis",
        domain=(0.0, 2.0 * fam.clip),
    )
    st.caption(
        f"Index = clip(j − i, −{fam.clip}, {fam.clip}) + {fam.clip}; a^K has shape "
        f"({2 * fam.clip + 1}, {head_dim})."
    )
