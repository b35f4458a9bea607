"""Closed sessions leave the server (``ui.server.memory.drop_closed_sessions``), on Streamlit's runtime.

Streamlit keeps a closed session for ``server.disconnectedSessionTTL`` so that a reconnect finds it. Its
store hides a session whose time is up, but holds it (texts, tables, widgets) until the next session
arrives; after a class nobody arrives, and thirty sessions' states stayed resident.
"""

from __future__ import annotations

import gc
import time
import weakref
from types import SimpleNamespace

import pytest
from streamlit.runtime import Runtime, RuntimeConfig
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.runtime.memory_session_storage import MemorySessionStorage
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.session_manager import SessionInfo

from ui.server.memory import drop_closed_sessions

TTL = 1  # s


class ClosedSession(SimpleNamespace):
    """Stands in for an AppSession: an id and a student's state (the store reads nothing else)."""


@pytest.fixture
def runtime():
    """Streamlit's real runtime, its closed sessions kept ``TTL`` seconds."""
    assert not Runtime.exists()
    rt = Runtime(
        RuntimeConfig(
            script_path="app_script.py",
            media_file_storage=MemoryMediaFileStorage("/media"),
            uploaded_file_manager=MemoryUploadedFileManager("/upload"),
            session_storage=MemorySessionStorage(ttl_seconds=TTL),
        )
    )
    yield rt
    Runtime._instance = None


def close_a_session(rt: Runtime, name: str) -> weakref.ref:
    session = ClosedSession(id=name, text=bytearray(10**6))
    rt._session_mgr._session_storage.save(SessionInfo(client=None, session=session))
    return weakref.ref(session)


def test_the_last_sessions_closed_are_dropped_once_past_their_time_and_their_state_freed(runtime):
    last = [close_a_session(runtime, f"student {k}") for k in range(3)]  # the class leaves
    time.sleep(TTL + 0.2)  # and nobody comes: no write reaps the store
    gc.collect()
    # Streamlit's store hides them but still holds their state: this is what stayed resident.
    assert runtime._session_mgr.list_sessions() == []
    assert all(ref() is not None for ref in last)

    assert drop_closed_sessions() == 3
    gc.collect()
    assert all(ref() is None for ref in last)


def test_a_session_closed_within_its_time_is_kept_for_its_reconnect(runtime):
    recent = close_a_session(runtime, "recent")
    assert drop_closed_sessions() == 0
    assert runtime._session_mgr.get_session_info("recent").session is recent()


def test_without_a_runtime_nothing_is_dropped():
    assert not Runtime.exists()
    assert drop_closed_sessions() == 0
