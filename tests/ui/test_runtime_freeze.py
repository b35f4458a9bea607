"""The collector's freeze (ui.runtime): once after each page's first run, at the next run's start."""

from __future__ import annotations

import gc

import pytest

from ui import runtime


@pytest.fixture
def fresh_process(monkeypatch):
    """ui.runtime as a new server process has it: no page has run yet."""
    monkeypatch.setattr(runtime, "_first_runs", set())
    monkeypatch.setattr(runtime, "_freeze_pending", False)
    yield
    gc.unfreeze()


def test_a_page_s_first_run_is_followed_by_one_freeze_at_the_next_start(fresh_process):
    assert not runtime.freeze_if_due()  # nothing has run yet
    runtime.note_run_ended("pipeline")
    frozen = gc.get_freeze_count()
    assert runtime.freeze_if_due() and gc.get_freeze_count() > frozen  # what is alive is frozen
    assert not runtime.freeze_if_due()  # once
    runtime.note_run_ended("pipeline")  # the page's later runs freeze nothing more
    assert not runtime.freeze_if_due()
    runtime.note_run_ended("Families")  # another page's first run loads its own modules: again
    assert runtime.freeze_if_due()


def test_the_freeze_collects_the_first_run_s_garbage_before_it_freezes(fresh_process):
    # Streamlit's collection after every run is off: the freeze collects first, so a cycle that the
    # first run left behind is freed, not frozen for the process's life
    import weakref

    class Node:
        pass

    cycle = Node()
    cycle.me = cycle
    gone = weakref.ref(cycle)
    del cycle
    runtime.note_run_ended("pipeline")
    assert runtime.freeze_if_due() and gone() is None


def test_a_full_collection_at_most_every_two_seconds(monkeypatch):
    # issue 26: Streamlit's gc.collect(2) after every run was 4-5 ms of a ~50 ms rerun
    collections = []
    monkeypatch.setattr(gc, "collect", lambda *args: collections.append(args) or 0)
    monkeypatch.setattr(runtime, "_last_full_collection", float("-inf"))
    assert runtime.collect_if_due(now=100.0) and collections == [()]  # a full collection
    assert not runtime.collect_if_due(now=101.0) and len(collections) == 1
    assert runtime.collect_if_due(now=100.0 + runtime.FULL_COLLECTION_SECONDS) and len(collections) == 2


def test_streamlit_s_collection_after_every_run_is_off():
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False


def test_the_server_converts_frames_to_arrow_in_one_thread():
    # ui.app sets it as the server first imports it: pyarrow would otherwise convert a frame of more than
    # 100 rows a column with a thread pool made for that one call (~4x the CPU of the conversion itself)
    import subprocess
    import sys

    code = "import pyarrow as pa; import ui.app; print(pa.cpu_count())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-1] == "1"
