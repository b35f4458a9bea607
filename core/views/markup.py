"""Text from users shown through Markdown: escaped so that it is read, never rendered."""

from __future__ import annotations

import re

# Everything CommonMark, Streamlit's directives (:red[x], :material/icon:) and its LaTeX ($x$) act on.
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|$<>:~&=])")


def escape_markdown(text: str) -> str:
    """``text`` with every Markdown-active character backslash-escaped; line breaks become spaces."""
    return _SPECIAL.sub(r"\\\1", text.replace("\r", " ").replace("\n", " "))
