"""A view's code (``core.scripts``): shown whole, and offered as a script, a notebook and its data files."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.scripts import Script

RUNS_AS_IS = "Runs as-is with this project's requirements and no network"
OPEN = "code_open"  # the expander's key: True while it is open


def show_script(build: Callable[[], Script], caption: str) -> None:
    """An expander with the whole script ``build()`` makes, as shown (what you see is what you download),
    and buttons for the script, the same code as a notebook and the data files it reads.

    Built and sent only while the expander is open (opening it reruns the page): closed, it costs the
    server nothing and the browser no highlighting."""
    box = st.expander("PyTorch code for this view", icon=":material/code:", key=OPEN, on_change="rerun")
    if not box.open:
        return
    script = build()
    with box:
        beside = f" Save {', '.join(script.files)} beside it." if script.files else ""
        st.caption(
            f"{script.lines} lines. {RUNS_AS_IS} in an empty folder, as a script or a notebook: "
            f"{caption}{beside}"
        )
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
        # Wrapped: a code block that scrolls sideways cannot be scrolled by keyboard (Streamlit gives its
        # box no tab stop).
        st.code(script.py(), language="python", line_numbers=True, wrap_lines=True)
