"""The Pipeline page's steps 4 and 5: the positional table, and the broadcasting add."""

from __future__ import annotations

import streamlit as st
import torch

from core.config import FAMILIES, PipelineConfig
from core.diagrams import MAX_LOOKUP_ROWS, broadcast_svg, lookup_svg
from core.pipeline import EmbeddingView
from ui.widgets import heatmap_view, picture, values_table


def position_step(cfg: PipelineConfig, corner: EmbeddingView, grid: EmbeddingView) -> None:
    """The [T, d] table the method adds (its lookup, a corner of values and a heatmap), or why none."""
    family, T, d = FAMILIES[cfg.method], cfg.context_length, cfg.output_dim
    if not family.additive:
        st.info(
            f"**{cfg.method}** adds nothing to the input: the input embeddings are the token embeddings, and "
            "position enters inside attention (see **Families side by side**). Below, the table is all zeros."
        )
        return
    st.caption(
        "One vector per position 0 … T−1, the same for every sequence in the batch. " + family.input_note
    )
    labels = [f"t = {t}" for t in range(min(T, MAX_LOOKUP_ROWS))]
    picture(lookup_svg(labels, list(range(T)), T, d, family.table_name, "pos_embeddings", "pos_embeddings"))
    values_table(corner.pos_embeddings, corner.positions, corner.dims)
    heatmap_view(grid.pos_embeddings, grid.positions, grid.dims, "pos_embeddings", (T, d))


def broadcast_step(B: int, T: int, d: int, corner: EmbeddingView) -> None:
    """``[B, T, d] + [T, d]``: the diagram, in words, and position 0 of two sequences with real values."""
    picture(broadcast_svg(B, T, d))
    st.markdown(
        f"`[{B}, {T}, {d}] + [{T}, {d}]`: PyTorch lines the shapes up from the right and gives "
        f"the `[{T}, {d}]` table an implicit leading axis of size 1, then repeats it over the "
        f"{B} sequences without copying it (stride 0). Position t of **every** row gets the same vector:"
    )
    if len(corner.batch_rows) < 2:
        return
    rows, labels = [], []
    for b in (0, 1):
        rows += [corner.token_embeddings[b, 0], corner.pos_embeddings[0], corner.input_embeddings[b, 0]]
        labels += [f"token_embeddings[{b}, 0]", "+ pos_embeddings[0]", f"= input_embeddings[{b}, 0]"]
    values_table(torch.stack(rows), corner.positions, corner.dims, labels)
