"""Reading a page's tables as a student sees them."""

from __future__ import annotations

import re

import pandas as pd

_ESCAPE = re.compile(r"\\(.)")


def row_labels(frame: pd.DataFrame) -> list[str]:
    """A table's row labels as drawn: the app escapes them for Markdown (a backslash before each
    Markdown-active character), which the page reads back as the plain label."""
    return [_ESCAPE.sub(r"\1", str(label)) for label in frame.index]
