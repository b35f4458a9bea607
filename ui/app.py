"""What every run does before its page: page config, the shared sidebar, the presenter's style."""

from __future__ import annotations

from streamlit.navigation.page import StreamlitPage

from ui import cache, sentences, training_views  # noqa: F401  (they register their URL keys)
from ui.memory import give_back_memory, note_activity, release_run, use_mmap_for_large_blocks
from ui.moved_session import moved_session_note
from ui.navigation import forget_settings
from ui.presenter import presenter_style, presenting
from ui.runtime import build_charts_without_validation, freeze_after_first_run, use_one_torch_thread
from ui.sidebar import sidebar
from ui.widgets import page_setup

ALLOCATOR_TUNED = use_mmap_for_large_blocks()  # once per server process, when this module is first imported
use_one_torch_thread()
build_charts_without_validation()


def start_run(page: StreamlitPage) -> None:
    """Set up the page ``page`` and draw the sidebar; ``ui.navigation.settings()`` then reads it."""
    page_setup(page.title, sidebar_collapsed=presenting())
    release_run()  # what a run that never reached end_run still held (a fresh server's first run)
    cache.warm_tokenizer()
    moved_session_note()  # a browser that reconnected from a process that stopped (deploy/)
    sidebar()
    presenter_style()


def end_run(page: StreamlitPage) -> None:
    """After the page (also when it stopped early): forget this run's settings, free memory, and after
    the page's first run in the process, freeze what is alive (``ui.runtime``)."""
    forget_settings()
    release_run()
    note_activity()  # an idle server drops its caches after a minute (core.memory_governor)
    give_back_memory()
    freeze_after_first_run(page.url_path)
