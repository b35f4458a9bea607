"""What every run does before and after its page: page config, the shared sidebar, the presenter's style,
and the hand-off of the sidebar's settings to the page (``settings()``)."""

from __future__ import annotations

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from core.config import PipelineConfig
from ui.navigation import SETTINGS, forget_settings, navigation, note_page
from ui.page_setup import page_setup
from ui.presenter import presenter_style, presenting
from ui.server import cache  # noqa: F401  (they register their URL keys)
from ui.server.memory import give_back_memory, note_activity, release_run, use_mmap_for_large_blocks
from ui.server.moved_session import moved_session_note
from ui.server.runtime import (
    build_charts_without_validation,
    collect_if_due,
    freeze_if_due,
    note_run_ended,
    use_one_arrow_thread,
    use_one_torch_thread,
)
from ui.sidebar import sidebar
from ui.text_source import TextChoice

STARTED = "_run_started"  # session key: the URL path of the page ``start_run`` set up, until ``end_run``
ALLOCATOR_TUNED = use_mmap_for_large_blocks()  # once per server process, when this module is first imported
use_one_torch_thread()
use_one_arrow_thread()
build_charts_without_validation()


def start_run(page: StreamlitPage) -> None:
    """Set up the page ``page`` and draw the sidebar; ``settings()`` then reads it."""
    freeze_if_due()  # after a page's first run in the process (ui.server.runtime)
    page_setup(page.title, sidebar_collapsed=presenting())
    note_page(page.url_path)
    release_run()  # what a run that never reached end_run still held (a fresh server's first run)
    cache.warm_tokenizer()
    moved_session_note()  # a browser that reconnected from a process that stopped (deploy/)
    sidebar(page.url_path)
    presenter_style()
    st.session_state[STARTED] = page.url_path  # the page's settings() reads the sidebar's


def end_run(page: StreamlitPage) -> None:
    """After the page (also when it stopped early): forget this run's settings, free memory, and note
    the run (after a page's first run in the process, the next run starts by freezing what is alive:
    ``ui.server.runtime``)."""
    forget_settings()
    st.session_state.pop(STARTED, None)
    release_run()
    note_activity()  # an idle server drops its caches after a minute (core.serving.memory_governor)
    collect_if_due()  # Streamlit's collection after every run is off (ui.server.runtime)
    give_back_memory()
    note_run_ended(page.url_path)


def settings() -> tuple[PipelineConfig, TextChoice]:
    """The sidebar's settings and text for this run.

    The entry point (``app_script.py``) starts the run with ``start_run``, which draws the sidebar and
    marks the run started, and ends it with ``end_run``. A page file that runs on its own (a fresh
    server's first run, see ``ui.navigation.PAGES``) finds no mark: it starts the run here.
    """
    if STARTED not in st.session_state:
        start_run(navigation())  # registers the app's pages: the next run starts at the entry point
        del st.session_state[STARTED]  # no end_run follows: the next run is marked by its own start
        return st.session_state.pop(SETTINGS)
    return st.session_state[SETTINGS]


def checked_settings() -> tuple[PipelineConfig, TextChoice]:
    """``settings()``, after the same check every page makes (a message and a stop if it fails)."""
    cfg, choice = settings()
    try:
        cfg.validate()
    except ValueError as exc:
        st.error(str(exc))
        st.stop()
    return cfg, choice
