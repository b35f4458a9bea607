"""How the inlining exporter (``core.script_export``) sets a script's text; going with it (issue 13)."""

from __future__ import annotations

MAX_INLINE_CHARS = 20_000  # longer texts are read from a file next to the script
TEXT_FILE = "text.txt"


def read_text_lines(text: str) -> str:
    """The script lines that set ``raw_text``: the text itself, or (when long) read from ``TEXT_FILE``."""
    if len(text) <= MAX_INLINE_CHARS:
        return f"raw_text = {text!r}\n"
    return (
        f"with open({TEXT_FILE!r}, encoding='utf-8') as f:  # save your text next to this script\n"
        "    raw_text = f.read()\n"
    )
