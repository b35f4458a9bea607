"""The shared sidebar, drawn by the entry point before every page: links, text, settings, Copy link.

Its pieces live where they belong: ``ui.navigation`` (the pages and the hand-off of settings),
``ui.text_source``, ``ui.state.presets`` and ``ui.settings`` (the URL-bound settings and their keys).
"""

from __future__ import annotations

import streamlit as st

from ui.navigation import BEYOND, CHAPTER, GLOSSARY, PAGES, ROUTE, SETTINGS, START, app_pages
from ui.presenter import PRESENT, presenter_toggle
from ui.settings import pipeline_settings
from ui.slides import slide_url
from ui.state.presets import apply_new_preset
from ui.state.share_link import apply_link_text, copy_link_button, share_params
from ui.state.url_keys import link_keys, register_url_keys, url_bound, url_settings
from ui.state.url_params import check_url, dropped_url_note
from ui.text_source import text_source

register_url_keys(PRESENT)


def sidebar(path: str) -> None:
    """Draw the sidebar shared by every page (``path``: the URL path of the page drawn after it);
    ``settings()`` then returns what it holds (this run only)."""
    # One slot for the notes of one run: a note that comes and goes does not move the page below it,
    # so the browser updates its charts instead of drawing them again.
    with st.container():
        dropped_url_note(len(link_keys()) + 1)  # every setting, the slide and a pasted text
        for message in check_url():  # before any widget reads the URL
            st.warning(message, icon=":material/link_off:")
        slide_url(path)  # checked, and before Copy link reads it
        if note := apply_link_text():
            st.warning(note, icon=":material/link_off:")
        if note := apply_new_preset():
            st.info(note, icon=":material/swap_horiz:")
    with st.sidebar:
        presenter_toggle(url_bound(PRESENT))  # first: a teacher finds it without scrolling
        page_links()
        st.divider()
        choice = text_source()
        st.divider()
        cfg = pipeline_settings()
        st.caption("Every setting is in the page's URL: copy it to share this exact view.")
        share_link()
    st.session_state[SETTINGS] = (cfg, choice)


def page_links() -> None:
    """The pages: Start, the chapter's steps, what goes beyond it, and the Glossary, each part named."""
    pages = dict(zip(PAGES, app_pages(), strict=True))
    st.page_link(pages[START], label=START.title, icon=START.icon)
    for part, stops in (("The chapter (ch. 2.8)", CHAPTER), ("Beyond the chapter", BEYOND)):
        st.caption(part)
        for stop in stops:
            st.page_link(pages[stop], label=f"{ROUTE.index(stop) + 1}. {stop.title}", icon=stop.icon)
    st.page_link(pages[GLOSSARY], label=GLOSSARY.title, icon=GLOSSARY.icon)


def share_link() -> None:
    """Copy link, built from the settings themselves.

    The page's own widgets are drawn after the sidebar, so their values come from the session (kept
    from the last run) or, on a page's first run, from the address bar; a setting at its default
    is in neither, and the link's reader gets that default too.
    """
    in_url = {k: st.query_params[k] for k in link_keys() if k in st.query_params}
    params, note = share_params(dict(st.session_state), {**in_url, **url_settings(dict(st.session_state))})
    copy_link_button(st.context.url or "", params, note)
