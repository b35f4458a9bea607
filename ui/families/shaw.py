"""Close-up: Shaw et al.'s relative position representations (2018)."""

from __future__ import annotations

import streamlit as st

from core.config import PipelineConfig
from core.pipeline import sample_indices
from core.positional.family import FamilyConfig
from core.positional.shaw import shaw_relative_indices
from core.views.glossary import define
from core.views.units import plural
from ui.families.close_up import GRID, matrix_view


def shaw_words(clip: int, head_dim: int) -> str:
    """What Shaw learns, each word the lecture did not teach defined here."""
    learn = (
        f"learn vectors by {define('offset')}; with the clip at 0, every offset shares one"
        if clip == 0
        else f"learn one vector for each {define('offset')} from −{clip:,} to {clip:,}"
    )
    return (
        f"Shaw et al. {learn}: {plural(2 * clip + 1, 'vector')} of {plural(head_dim, 'number')} added to "
        "the keys, and as many added to what attention passes on from each token. Farther offsets share "
        "the outermost vector."
    )


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """Shaw up close: which clipped-offset vector each query–key pair uses."""
    head_dim = cfg.output_dim // fam.heads
    st.markdown(shaw_words(fam.clip, head_dim))
    positions = sample_indices(cfg.context_length, GRID)  # [P]: never the whole [T, T] matrix
    index = shaw_relative_indices(cfg.context_length, fam.clip, positions)  # [P, P]
    matrix_view(
        index.double(),
        positions,
        "Index of the vector each query–key pair uses",
        scheme="viridis",
        domain=(0.0, 2.0 * fam.clip),
    )
    k = fam.clip
    st.caption(
        f"Each cell: which of the {plural(2 * k + 1, 'vector')} the pair uses, clip(j − i, −{k}, {k}) + {k}: "
        f"offset 0 uses vector {k}. The key vectors aᴷ form a ({2 * k + 1}, {head_dim}) table."
    )
