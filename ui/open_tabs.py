"""Tabs of which only the open one is drawn, the open one in the address bar (a link reopens it).

A section with several parts shows them as tabs on a screen and as a slide each when presenting
(``ui.slides``). ``open_tab`` returns the open tab's number and container: the page draws that part
only, so a closed tab's charts are neither computed nor sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

import streamlit as st

from ui.state.url_keys import register_tab_keys


def tab_key(key: str) -> str:
    """Declare ``key`` (at import) as a tab set bound to the URL: Copy link carries its open tab."""
    return register_tab_keys(key)[0]


def open_tab(labels: Sequence[str], key: str) -> tuple[int, object]:
    """Tabs ``labels`` bound to the URL parameter ``key`` (declared with ``tab_key``): the open tab's
    number and container (the first when the address names no tab of these)."""
    tabs = st.tabs(list(labels), key=key, bind="query-params")
    part = next((k for k, tab in enumerate(tabs) if tab.open), 0)
    return part, tabs[part]


class SectionTabs:
    """A page's numbered sections: on a screen a tab each, only the open one drawn (``where`` holds it);
    presenting, a slide each (``slides``, where section k is slide k + ``before``: slides ahead of them)."""

    def __init__(self, slides, labels: Sequence[str], key: str, before: int = 0):
        self.slides, self.before = slides, before
        self.open, self.where = (None, nullcontext()) if slides.on else open_tab(labels, key)

    def drawn(self, number: int) -> bool:
        """Whether section ``number`` (1-based) is drawn in this run."""
        return self.slides.shows(number + self.before) if self.slides.on else self.open == number - 1
