"""The app's pages and the session key that hands each run's settings from the sidebar to the page.

The script every run executes (``app_script.py``) calls ``navigation()`` and draws the sidebar before
the page; the page reads what the sidebar holds with ``ui.app.settings()`` (or ``checked_settings()``).
"""

from __future__ import annotations

import copy

import streamlit as st
from streamlit.navigation.page import StreamlitPage

# (file, title, icon, URL path): the app's pages, in the order of the sidebar's links. The first is
# the default, at "/". Each file is named exactly as its URL path, on purpose. With a ``pages/`` folder,
# Streamlit runs the very first script run of a process through its legacy multipage path
# (``_mpa_v1`` in streamlit/runtime/scriptrunner/script_runner.py): it builds pages from the file names
# in ``pages/`` and sends "Page not found" (a modal that blocks clicks) when the URL names none of them.
# A fresh server's first request is often a deep link (a class opening a link as a Community Cloud app
# wakes up), so the names match and that run executes the page file itself, whose ``settings()`` then
# does what the entry point does (``ui.app.start_run``) and calls ``st.navigation``, which ends the
# legacy path for the whole process: every later run starts at the entry point. Served by
# ``streamlit_app.py``, the server's own warm-up run of the main page (``ui.warm_up``) is that first run.
PAGES = [
    ("pages/Pipeline.py", "Pipeline", ":material/linear_scale:", "Pipeline"),
    ("pages/Why_position.py", "Why position?", ":material/swap_horiz:", "Why_position"),
    ("pages/Attention.py", "Attention: where position acts", ":material/grid_on:", "Attention"),
    ("pages/Families.py", "Families side by side", ":material/compare:", "Families"),
    ("pages/Long_context.py", "Long context: RoPE scaling", ":material/expand:", "Long_context"),
    ("pages/Training.py", "Watch positions being learned", ":material/model_training:", "Training"),
    ("pages/Trained_positions.py", "Real trained positions", ":material/insights:", "Trained_positions"),
]
SETTINGS = "_settings"  # session key: this run's settings, read by the page


_built: tuple[StreamlitPage, ...] | None = None  # app_pages(), once per process


def app_pages() -> tuple[StreamlitPage, ...]:
    """``st.Page`` for each of ``PAGES``, built in the process's first run and kept: ``st.Page`` finds
    its file through the file system (``Path.resolve``: ~4 ms a run on a server busy with thirty
    first runs, and as much again for the sidebar's links by path). Only read: ``navigation()`` hands
    each run copies, and the sidebar links to these (a link reads a page's URL path and hash alone).

    No icon here: the browser would take a page's ``:material/…`` icon for the tab's favicon and fetch
    its SVG from fonts.gstatic.com (a classroom may have no network); the tab shows ``ui/favicon.png``.
    """
    global _built
    if _built is None:
        _built = tuple(
            st.Page(path, title=title, url_path=url, default=i == 0)
            for i, (path, title, _, url) in enumerate(PAGES)
        )
    return _built


def navigation() -> StreamlitPage:
    """This run's page, of the app's (``PAGES``); the sidebar draws their links, with their icons, itself.

    Each run gets copies of ``app_pages()``: ``st.navigation`` marks the page it returns as the one this
    run may run, a mark that must not pass to another session's run.
    """
    return st.navigation([copy.copy(page) for page in app_pages()], position="hidden")


def forget_settings() -> None:
    """End of a run: the next run's page must not read this run's settings."""
    st.session_state.pop(SETTINGS, None)
