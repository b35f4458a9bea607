"""The app's pages and the session key that hands each run's settings from the sidebar to the page.

The script every run executes (``app_script.py``) calls ``navigation()`` and draws the sidebar before
the page; the page reads what the sidebar holds with ``ui.app.settings()`` (or ``checked_settings()``).
"""

from __future__ import annotations

import copy
from typing import NamedTuple

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from core.views.glossary import define
from ui.presenter import presenting


class Stop(NamedTuple):
    """A page of the app: its file, title, icon, URL path, and the question it answers, in the lecture's
    words (the Start page's route and the page's own opening both read it); for a page beyond the
    chapter, what a student needs before it."""

    path: str
    title: str
    icon: str
    url: str
    question: str
    needs: str = ""  # "" for the chapter's own steps


# The lesson's route, in order; the first is the Start page, at "/". Each file is named exactly as its URL
# path, on purpose. With a ``pages/`` folder, Streamlit runs the very first script run of a process
# through its legacy multipage path (``_mpa_v1`` in streamlit/runtime/scriptrunner/script_runner.py): it
# builds pages from the file names in ``pages/`` and sends "Page not found" (a modal that blocks clicks)
# when the URL names none of them. A fresh server's first request is often a deep link, so the names
# match and that run executes the page file itself, whose ``settings()`` then does what the entry point
# does (``ui.app.start_run``) and calls ``st.navigation``, which ends the legacy path for the process.
START = Stop(
    "pages/Start.py",
    "Start here",
    ":material/flag:",
    "Start",
    "How does a model know where each token stands?",
)
ROUTE = [
    Stop(
        "pages/Why_position.py",
        "Why position?",
        ":material/swap_horiz:",
        "Why_position",
        "“The cat sat on the mat” and “On the mat the cat sat”: does the embedding layer give ‘cat’ the "
        "same vector in both?",
    ),
    Stop(
        "pages/Pipeline.py",
        "Pipeline",
        ":material/linear_scale:",
        "Pipeline",
        "How does text become the input embeddings an LLM trains on: token IDs, batches, then token "
        "embeddings plus positional embeddings?",
    ),
    Stop(
        "pages/Attention.py",
        "Attention: where position acts",
        ":material/grid_on:",
        "Attention",
        "Relative positional embeddings care about “how far apart” two tokens are: where in the model "
        "does that happen?",
    ),
    Stop(
        "pages/Families.py",
        "Families side by side",
        ":material/compare:",
        "Families",
        "Absolute or relative, learned or fixed: what does each method give a position, side by side?",
    ),
    Stop(
        "pages/Long_context.py",
        "Long context: RoPE scaling",
        ":material/expand:",
        "Long_context",
        "A model learns positions from texts of a fixed length: how can a model with "
        f"{define('RoPE')}, a relative method, read texts longer than the ones it was trained on?",
        "Before it: step 3 (Attention: where position acts), where RoPE acts, and RoPE's curve in step 4 "
        "(Families side by side).",
    ),
    Stop(
        "pages/Todays_models.py",
        "Today's models",
        ":material/layers:",
        "Todays_models",
        "Do today's models give every layer and every token the same kind of position?",
        f"Before it: {define('RoPE')} in step 3 (Attention: where position acts) and its scaling in step 5 "
        "(Long context: RoPE scaling).",
    ),
    Stop(
        "pages/Training.py",
        "Watch positions being learned",
        ":material/model_training:",
        "Training",
        "GPT's positional embeddings are optimized during training: what do they become?",
        "Before it: the Pipeline's position table and step 3 (Attention: where position acts); here a tiny "
        "GPT trains, as the book does in its later chapters.",
    ),
    Stop(
        "pages/Trained_positions.py",
        "Real trained positions",
        ":material/insights:",
        "Trained_positions",
        "What does a real model's trained positional embedding table look like?",
        "Before it: the Pipeline's position table, and the similarity charts of step 4 (Families side by "
        "side).",
    ),
]
CHAPTER = [stop for stop in ROUTE if not stop.needs]  # the lecture's own steps (ch. 2.8)
BEYOND = [stop for stop in ROUTE if stop.needs]  # what goes beyond it
GLOSSARY = Stop(
    "pages/Glossary.py",
    "Glossary",
    ":material/menu_book:",
    "Glossary",
    "What does a word the lecture did not use mean?",
)
PAGES = [START, *ROUTE, GLOSSARY]  # the sidebar's links, in order; the first is the default

SETTINGS = "_settings"  # session key: this run's settings, read by the page


_built: tuple[StreamlitPage, ...] | None = None  # app_pages(), once per process


def app_pages() -> tuple[StreamlitPage, ...]:
    """``st.Page`` for each of ``PAGES``, built in the process's first run and kept: ``st.Page`` finds
    its file through the file system (``Path.resolve``, slow on a server busy with thirty first runs,
    and again for the sidebar's links by path). Only read: ``navigation()`` hands
    each run copies, and the sidebar links to these (a link reads a page's URL path and hash alone).

    No icon here: the browser would take a page's ``:material/…`` icon for the tab's favicon and fetch
    its SVG from fonts.gstatic.com (a classroom may have no network); the tab shows ``ui/favicon.png``.
    """
    global _built
    if _built is None:
        _built = tuple(
            st.Page(path, title=title, url_path=url, default=i == 0)
            for i, (path, title, _, url, *_) in enumerate(PAGES)
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


CURRENT = "_page"  # session key: the URL path of the page this run draws
VISITED = "_visited"  # session key: the URL paths of the pages this session has opened


def note_page(url_path: str) -> None:
    """Start of a run: remember which page it draws, and that the session has been there."""
    st.session_state[CURRENT] = url_path
    st.session_state.setdefault(VISITED, set()).add(url_path)


def visited(stop: Stop) -> bool:
    """Whether this session has opened ``stop``'s page."""
    return stop.url in st.session_state.get(VISITED, ())


def current_stop() -> Stop | None:
    """The route's stop this run draws (None on the Start page)."""
    url = st.session_state.get(CURRENT)
    return next((s for s in ROUTE if s.url == url), None)


def page_of(stop: Stop) -> StreamlitPage:
    """The ``st.Page`` of ``stop``, for a link to it."""
    return app_pages()[PAGES.index(stop)]


def where_am_i(stop: Stop) -> str:
    """'Step 2 of 7' for a stop on the route."""
    return f"Step {ROUTE.index(stop) + 1} of {len(ROUTE)}"


def part_name(stop: Stop) -> str:
    """Which part of the route ``stop`` is in: the chapter's own steps, or beyond it."""
    return "Beyond the chapter" if stop.needs else "The chapter"


def page_title(title: str) -> None:
    """A page's title; above it, where the page stands on the route, and under it, its question (not
    when presenting: the projector's screen is short)."""
    stop = current_stop()
    if stop is None or presenting():
        st.title(title)
        return
    st.caption(f"{where_am_i(stop)} · {part_name(stop)} · Positional Embeddings Explorer")
    st.title(title)
    st.markdown(question_line())
    if stop.needs:
        st.caption(stop.needs)


def question_line() -> str:
    """'**The question:** …' of the page this run draws (empty on the Start page)."""
    stop = current_stop()
    return f"**The question:** {stop.question}" if stop else ""


def next_step() -> None:
    """The end of a page: a link to the next stop of the route (the last one leads back to the start)."""
    stop = current_stop()
    if stop is None or presenting():
        return
    st.divider()
    k = ROUTE.index(stop)
    if k + 1 < len(ROUTE):
        after = ROUTE[k + 1]
        st.page_link(
            page_of(after),
            label=f"Next: {where_am_i(after).lower()}, {after.title}",
            icon=":material/arrow_forward:",
        )
        st.markdown(after.question)
    else:
        st.page_link(
            page_of(START),
            label="That was the last step. Back to the route, to open any step again",
            icon=":material/flag:",
        )
