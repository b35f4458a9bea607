"""A tensor's download buttons, CSV and .npy, whose files are built only when clicked."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import streamlit as st
import torch

from core.views.export import to_csv, to_npy


def tensor_downloads(
    name: str,
    tensor: torch.Tensor | Callable[[], torch.Tensor],
    axes: tuple[str, ...],
    note: str = "",
    labels: tuple[list[int], list[int]] | None = None,
) -> None:
    """Two buttons, CSV and .npy, for ``tensor`` saved as ``name`` (``labels``: a grid's real indices).

    ``tensor`` may be a function that makes it: a button's file is built when clicked, and until then the
    session keeps what the function needs, not the tensor (a first batch at B 128, T 8192 is 8 MB a
    session; thirty sessions' would not fit the server's memory).
    """
    make = tensor if callable(tensor) else partial(_same, tensor)
    c1, c2, c3 = st.columns([1, 1, 4])
    c1.download_button(
        "CSV",
        partial(_csv_of, make, axes, labels),  # built when clicked, not on every rerun
        f"{name}.csv",
        "text/csv",
        key=f"dl_{name}_csv",
        help=f"Download {name}.csv",
        on_click="ignore",
        icon=":material/download:",
    )
    c2.download_button(
        ".npy",
        partial(_npy_of, make),
        f"{name}.npy",
        "application/octet-stream",
        key=f"dl_{name}_npy",
        help=f"Download {name}.npy (NumPy)",
        on_click="ignore",
        icon=":material/download:",
    )
    if note:
        c3.caption(note)


def _same(tensor: torch.Tensor) -> torch.Tensor:
    return tensor


def _csv_of(make: Callable[[], torch.Tensor], axes: tuple[str, ...], labels) -> bytes:
    return to_csv(make(), axes, labels)


def _npy_of(make: Callable[[], torch.Tensor]) -> bytes:
    return to_npy(make())
