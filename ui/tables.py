"""Tables of a page: small frames drawn as HTML, with the followed token's rows or cells marked, and
a token's piece as a table shows it (escaped)."""

from __future__ import annotations

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
MARKED_ROW = {"background-color": "#fef08a", "font-weight": "700"}


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
    headers still wrap), so that it stays short on a projector. ``marked``: rows (by place) drawn bold on
    yellow; ``marked_cells``: cells (row, column by place) drawn so, with ``MARK`` before their value.

    HTML rather than a data grid: a screen reader reads it as the table it is, it wraps to a projector's
    type, and the browser draws it with the page (a grid draws on a canvas, then updates its copy for
    screen readers a fifth of a second later, on every change).
    """
    # Streamlit draws each cell and row label as Markdown, the labels from the frame itself (a Styler's
    # index format is not sent): row labels (a token's piece among them) are escaped in the frame, read.
    escaped = lambda label: escape_markdown(label) if isinstance(label, str) else label  # noqa: E731
    frame = frame.set_axis(pd.Index([escaped(label) for label in frame.index], dtype=object), axis=0)
    if marked_cells:  # a column with a marked cell becomes text (Arrow takes no column of mixed types)
        frame = frame.copy()
        for c in {c for _, c in marked_cells}:
            frame.isetitem(c, frame.iloc[:, c].astype(str))
        for r, c in marked_cells:
            frame.iat[r, c] = MARK + frame.iat[r, c]
    data = frame.style.format(formats, na_rep="")
    if marked_cells:
        css = "; ".join(f"{k}: {v}" for k, v in MARKED_ROW.items())
        styles = pd.DataFrame("", index=frame.index, columns=frame.columns)
        for r, c in marked_cells:
            styles.iat[r, c] = css
        data = data.apply(lambda _: styles, axis=None)
    if rows := [frame.index[k] for k in sorted(marked or ()) if k < len(frame)]:  # a row past the table: none
        data = data.set_properties(subset=pd.IndexSlice[rows, :], **MARKED_ROW)
    if one_line is None:
        st.table(data, hide_index=hide_index)
        return
    with st.container(key=f"one-line-{one_line}"):
        st.table(data, hide_index=hide_index)


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
