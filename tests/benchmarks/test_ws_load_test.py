"""The class benchmark (benchmarks/ws_load_test.py) measures the page it names, and its checks hold there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "ws_load_test.py"


def load_test(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_two_sessions_on_the_pipeline_see_their_own_shape_and_text():
    out = load_test("--sessions", "2", "--changes", "1", "--pages", "Pipeline", "--contexts", "2")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "2 websocket sessions on one server (Pipeline)" in out.stdout
    assert "errors: 0" in out.stdout, out.stdout  # its shape and its token chips, on every run
    assert "over 2 changes" in out.stdout


def test_a_page_it_does_not_know_is_refused_with_the_pages_it_knows():
    from benchmarks.ws_load_test import parse_pages

    with pytest.raises(SystemExit, match=r"no such page: pipeline \(the pages: .*Pipeline"):
        parse_pages("pipeline")
    assert parse_pages("Pipeline,Attention") == ["Pipeline", "Attention"]
