"""A list that shows its options in words while the URL keeps the options themselves."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from ui.state.url_keys import url_bound
from ui.state.url_params import url_text

_URL_SEEN = "_url_seen"  # session key: per setting drawn here, the URL value last read or written


def named_choice(
    label: str,
    options: Sequence,
    key: str,
    default: object,
    format_func: Callable[[object], str],
    **kwargs,
) -> object:
    """A list that shows each option in words (``format_func``) while the URL parameter ``key`` holds the
    option itself ("rope", not "RoPE"), so links keep working.

    A selectbox bound to the URL by Streamlit writes what it shows, so this one is synced by hand: a URL
    value the session has not seen yet (a link opened) sets the choice before the list is drawn, and
    the choice is written back after it (none at the default, as a bound widget does).
    """
    url_bound(key)  # registered: Copy link carries it
    seen = st.session_state.setdefault(_URL_SEEN, {})
    text = st.query_params.get(key)
    if text is not None and text != seen.get(key):  # checked by check_url before any widget
        match = [o for o in options if url_text(key, o) == text]
        if match:
            st.session_state[key] = match[0]
        seen[key] = text
    value = st.selectbox(
        label,
        options,
        index=list(options).index(default),
        key=key,
        format_func=format_func,
        persist_state="session",
        **kwargs,
    )
    written = None if value == default else url_text(key, value)
    if st.query_params.get(key) != written:
        if written is None:
            del st.query_params[key]
        else:
            st.query_params[key] = written
    seen[key] = written
    return value
