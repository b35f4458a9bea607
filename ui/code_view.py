"""The PyTorch code that computes a view, shown and downloadable."""

from __future__ import annotations

import streamlit as st

from core.codegen import MAX_INLINE_CHARS, TEXT_FILE
from core.script_export import view_lines
from core.scripts import Script

RUNS_AS_IS = "Runs as-is with this project's requirements and no network"


def text_file(text: str) -> tuple[str, dict[str, str]]:
    """A caption note and the text file a script reads, for texts too long to write into it."""
    if len(text) <= MAX_INLINE_CHARS:
        return "", {}
    return f" Save the text as {TEXT_FILE} next to it.", {TEXT_FILE: text}


def show_script(script: Script, caption: str) -> None:
    """An expander with the whole script, as shown (what you see is what you download), and buttons for
    the script, the same code as a notebook and the data files it reads."""
    with st.expander("PyTorch code for this view", icon=":material/code:"):
        st.caption(f"{RUNS_AS_IS} in an empty folder: {caption} {script.lines} lines.")
        downloads = {
            f"{script.name}.py": (script.py, "text/x-python"),
            f"{script.name}.ipynb": (script.ipynb, "application/x-ipynb+json"),
            **{name: (content, "application/octet-stream") for name, content in script.files.items()},
        }
        columns = st.columns(max(4, len(downloads)))
        for column, (name, (data, mime)) in zip(columns, downloads.items(), strict=False):
            column.download_button(
                name, data, name, mime, key=f"dl_code_{name}", on_click="ignore", icon=":material/download:"
            )
        st.code(script.py(), language="python", line_numbers=True)


def script_export(
    code: str, filename: str, caption: str, files: dict[str, str | bytes] | None = None, excerpt: bool = False
) -> None:
    """An expander with the script ``code`` (and the ``files`` it reads) to download, and its lines.

    ``excerpt``: show only the lines that compute the view (the download holds the whole script).
    """
    with st.expander("PyTorch code for this view", icon=":material/code:"):
        st.caption(caption)
        names = [filename, *(files or {})]
        for column, name in zip(st.columns(len(names) + 2)[: len(names)], names, strict=True):
            column.download_button(
                name,
                code if name == filename else files[name],
                name,
                "text/x-python" if name == filename else "application/octet-stream",
                key=f"dl_code_{name}",
                on_click="ignore",
                icon=":material/download:",
            )
        if excerpt:
            lines = code.count("\n") + 1
            st.caption(
                f"{filename} ({lines:,} lines) begins with the app's own `core` code that this view calls, "
                "copied in; below are the lines after it, which compute this page's numbers."
            )
            code = view_lines(code)
        st.code(code, language="python", line_numbers=True)
