"""Which sessions moved from another server process (ui/server/moved_session.py); the page note itself is
checked in Chromium through the lecture hall (tests/deploy/test_hall_reconnect.py)."""

from __future__ import annotations

from ui.server.moved_session import previous_session

# What Streamlit's frontend sends in the websocket's subprotocol header: the protocol, its XSRF token
# and, when it reconnects, the session it had (seen in a real browser, tests/deploy).
FIRST_VISIT = "streamlit, 2|7e42ab32|3fd46c4d00fa1788ab62296b7fcc961a|1795556077"
RECONNECT = FIRST_VISIT + ", c089a305-9c99-4577-9d46-bb58d4530af6"


def test_a_first_visit_names_no_session():
    assert previous_session(FIRST_VISIT, "e712f818-20f6-4d38-b9f5-31d2258da3b8") is None


def test_a_browser_back_on_the_process_that_holds_its_session_did_not_move():
    assert previous_session(RECONNECT, "c089a305-9c99-4577-9d46-bb58d4530af6") is None


def test_a_browser_that_names_a_session_this_process_never_held_moved():
    moved = previous_session(RECONNECT, "e712f818-20f6-4d38-b9f5-31d2258da3b8")
    assert moved == "c089a305-9c99-4577-9d46-bb58d4530af6"


def test_no_header_or_an_empty_entry_is_no_move():
    assert previous_session(None, "x") is None
    assert previous_session("", "x") is None
    assert previous_session("streamlit, token, ", "x") is None
