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
