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


def test_the_freeze_collects_nothing_itself(fresh_process, monkeypatch):
    # Streamlit collects after every run (runner.postScriptGC): the freeze adds no full collection
    collections = []
    monkeypatch.setattr(gc, "collect", lambda *args: collections.append(args) or 0)
    runtime.note_run_ended("pipeline")
    assert runtime.freeze_if_due() and not collections


def test_the_server_converts_frames_to_arrow_in_one_thread():
    # ui.app sets it as the server first imports it: pyarrow would otherwise convert a frame of more than
    # 100 rows a column with a thread pool made for that one call (~4x the CPU of the conversion itself)
    import subprocess
    import sys

    code = "import pyarrow as pa; import ui.app; print(pa.cpu_count())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-1] == "1"
