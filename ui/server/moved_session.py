"""A page that reconnected to another server process says so, and says what came back and what did not.

In a lecture hall (deploy/) a student's browser stays on one Streamlit process. When that process stops
(killed, out of memory, redeployed), the browser reconnects by itself, through the proxy, to a process
that holds no session of it, and its next rerun starts a new session there. The browser sends every
widget's value with that rerun, so the settings and the pasted text come back; what only the stopped
process held does not (an uploaded file, a training run, answers revealed in presenter mode). The
browser names the session it had in the websocket's subprotocol header (``streamlit, <xsrf token>,
<session id>``): a session whose header names another session is one that moved.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

SHOWN = "_moved_session_shown"  # session state: the note was shown (once per session)


def previous_session(protocol_header: str | None, session_id: str) -> str | None:
    """The session the browser had before this one, if it named one other than ``session_id``.

    >>> previous_session("streamlit, 2|ab|cd|12, 5e1f", "9a0b")
    '5e1f'
    >>> previous_session("streamlit, 2|ab|cd|12", "9a0b") is None  # a first visit names none
    True
    """
    parts = [part.strip() for part in (protocol_header or "").split(",")]
    named = parts[2] if len(parts) > 2 else ""
    return named if named and named != session_id else None


def moved_session_note() -> None:
    """On a session's first run: if the browser came from a session this process never held, say so."""
    if st.session_state.get(SHOWN):
        return
    st.session_state[SHOWN] = True
    ctx = get_script_run_ctx()
    header = st.context.headers.get("Sec-Websocket-Protocol") if ctx else None
    if ctx is None or previous_session(header, ctx.session_id) is None:
        return
    upload = st.session_state.get("source") == "upload"
    st.info(
        "**You were moved to another server process.** The one that served this page stopped or "
        "restarted, and your browser reconnected here: your settings and your pasted text came back "
        "from the browser. "
        + (
            "**Your uploaded file stayed on the stopped process: upload it again.** "
            if upload
            else "What only the stopped process held is gone: an uploaded file, a training run, answers "
            "revealed in presenter mode. "
        ),
        icon=":material/sync:",
    )
