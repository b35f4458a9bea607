"""Download buttons for the tensors a page shows."""

from __future__ import annotations

import streamlit as st
import torch

from core.export import to_csv, to_npy


def tensor_downloads(
    name: str,
    tensor: torch.Tensor,
    axes: tuple[str, ...],
    note: str = "",
    labels: tuple[list[int], list[int]] | None = None,
) -> None:
    """Two buttons, CSV and .npy, for ``tensor`` saved as ``name`` (``labels``: a grid's real indices)."""
    c1, c2, c3 = st.columns([1, 1, 4])
    c1.download_button(
        "CSV",
        to_csv(tensor, axes, labels),
        f"{name}.csv",
        "text/csv",
        key=f"dl_{name}_csv",
        help=f"Download {name}.csv",
        on_click="ignore",
        icon=":material/download:",
    )
    c2.download_button(
        ".npy",
        to_npy(tensor),
        f"{name}.npy",
        "application/octet-stream",
        key=f"dl_{name}_npy",
        help=f"Download {name}.npy (NumPy)",
        on_click="ignore",
        icon=":material/download:",
    )
    if note:
        c3.caption(note)
