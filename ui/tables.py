"""Tables of a page: small frames drawn as HTML, with the followed token's rows or cells marked, and
a token's piece as a table shows it (escaped)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st
import torch

from core.views.markup import escape_markdown


def grid_table(ids: torch.Tensor) -> pd.DataFrame:
    """A [B, T] block of token IDs with its axes named: rows b=…, columns t=…."""
    return pd.DataFrame(
        ids.numpy(),
        index=[f"b={b}" for b in range(ids.shape[0])],
        columns=[f"t={t}" for t in range(ids.shape[1])],
    )


def token_text(piece: str) -> str:
    """A token as a table shows it: quoted, so its leading space shows (' cat'), and escaped."""
    return escape_markdown(repr(piece))


MARK = "▶ "  # a marked row's label starts with it: the followed token's rows are not marked by colour alone
# The browser shows a float column by itself to 4 decimals (with a thousands comma from 1,000 on, a
# missing value empty), so a table of such floats needs no pandas Styler (~15 ms a table, every rerun).
BROWSER_FLOAT = "{:.4f}"


def table(
    frame: pd.DataFrame,
    formats: str | dict[str, str] | None = None,
    hide_index: bool = False,
    one_line: str | None = None,
    marked: set[int] | None = None,
    marked_cells: set[tuple[int, int]] | None = None,
) -> None:
    """A small table as HTML, numbers shown with ``formats`` (one format, or a format per column).

    ``one_line``: a key of its own for a table whose cells are short phrases, kept on one line each (its
    headers still wrap), so that it stays short on a projector. ``marked``: rows (by place) whose first
    cell starts with ``MARK``; ``marked_cells``: cells (row, column by place) whose value does. The page
    draws a row or cell that starts with ``MARK`` bold on yellow (``ui.page_setup``).

    HTML rather than a data grid: a screen reader reads it as the table it is, it wraps to a projector's
    type, and the browser draws it with the page (a grid draws on a canvas, then updates its copy for
    screen readers a fifth of a second later, on every change).
    """
    # Streamlit draws each cell and row label as Markdown, the labels from the frame itself (a Styler's
    # index format is not sent): row labels (a token's piece among them) are escaped in the frame, read.
    escaped = lambda label: escape_markdown(label) if isinstance(label, str) else label  # noqa: E731
    frame = frame.set_axis(pd.Index([escaped(label) for label in frame.index], dtype=object), axis=0)
    frame, formats = _text_formatted(frame, formats)
    frame = _with_marks(frame, marked or set(), marked_cells or set(), hide_index)
    numeric = pd.api.types.is_numeric_dtype
    formats = {c: f for c, f in formats.items() if numeric(frame.dtypes[c])}  # a marked column is text
    data = frame if _browser_shows(frame, formats) else frame.style.format(formats, na_rep="")
    if one_line is None:
        st.table(data, hide_index=hide_index)
        return
    with st.container(key=f"one-line-{one_line}"):
        st.table(data, hide_index=hide_index)


def _with_marks(
    frame: pd.DataFrame, rows: set[int], cells: set[tuple[int, int]], hide_index: bool
) -> pd.DataFrame:
    """``MARK`` before each marked cell's value and each marked row's first shown cell (once)."""
    rows = {r for r in rows if r < len(frame)}  # a row past the table: none
    if not rows and not cells:
        return frame
    frame = frame.copy()
    if rows and not hide_index:
        labels = [
            MARK + str(label) if k in rows and not str(label).startswith(MARK) else label
            for k, label in enumerate(frame.index)
        ]
        frame.index = pd.Index(labels, dtype=object)
    elif rows:
        cells = cells | {(r, 0) for r in rows}
    for c in {c for _, c in cells}:  # a column with a marked cell becomes text (Arrow takes no mixed types)
        frame.isetitem(c, frame.iloc[:, c].astype(object).map(str))
    for r, c in cells:
        if not frame.iat[r, c].startswith(MARK):
            frame.iat[r, c] = MARK + frame.iat[r, c]
    return frame


def _text_formatted(frame: pd.DataFrame, formats: str | dict | None) -> tuple[pd.DataFrame, dict]:
    """The frame with its text columns' formats applied (the table holds what it shows), and the formats
    of its number columns."""
    numeric = {c for c, dtype in frame.dtypes.items() if pd.api.types.is_numeric_dtype(dtype)}
    if isinstance(formats, str):
        return frame, dict.fromkeys(numeric, formats)
    formats = formats or {}
    text = {c: f for c, f in formats.items() if c in frame.columns and c not in numeric}
    if text:
        frame = frame.copy()
        for c, f in text.items():
            frame[c] = frame[c].map(f if callable(f) else f.format)
    return frame, {c: f for c, f in formats.items() if c in numeric}


def _browser_shows(frame: pd.DataFrame, formats: dict) -> bool:
    """Whether the browser shows the number columns as ``formats`` says by itself: floats below 1,000 to
    4 decimals (a missing one empty), whole numbers as they are."""
    floats = [k for k, dtype in enumerate(frame.dtypes) if pd.api.types.is_float_dtype(dtype)]
    names = {frame.columns[k] for k in floats}
    if any(formats.get(c) != BROWSER_FLOAT for c in names) or any(c not in names for c in formats):
        return False
    return not floats or not bool((np.abs(frame.iloc[:, floats].to_numpy()) >= 1000).any())  # NaN: empty


def values_table(
    values: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
    labels: list[str] | None = None,
    marked: set[int] | None = None,
) -> None:
    """A [P, D] block of real values, rows labelled by position (or ``labels``).

    Shown to 4 decimals, as torch prints them; the cell's tooltip and a copy hold the full float.
    ``marked``: rows (by place) of the followed token, labelled with ``MARK`` and drawn bold on yellow
    (places past the block are left out: the block is a corner of a larger tensor).
    """
    columns = [f"d{int(j)}" for j in dims]
    index = labels or [f"t={int(t)}" for t in positions]
    index = [MARK + label if k in (marked or ()) else label for k, label in enumerate(index)]
    # Labels as plain objects: pandas' Arrow-backed str labels are converted back to objects for every
    # lookup while the frame is converted for sending.
    frame = pd.DataFrame(
        values.double().numpy(), index=pd.Index(index, dtype=object), columns=pd.Index(columns, dtype=object)
    )
    table(frame, "{:.4f}", marked=marked)
