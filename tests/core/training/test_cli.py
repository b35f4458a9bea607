"""``python -m core.training``: the training command line, run as a user runs it (a fresh process)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core.training", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
    )


def test_help_names_the_settings():
    out = run_cli("--help")
    assert out.returncode == 0, out.stderr
    assert all(flag in out.stdout for flag in ("--method", "--context", "--size", "--steps", "--text"))


def test_the_smallest_run_prints_its_metrics_as_json():
    out = run_cli(
        "--method", "rope", "--context", "4", "--size", "tiny", "--steps", "2", "--text", "sample:lesson"
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["config"]["method"] == "rope" and summary["config"]["steps"] == 2
    assert summary["steps"][-1] == 2 and summary["val_loss_inside"] > 0


def test_a_refused_run_says_why_without_a_traceback():
    out = run_cli("--context", "1000", "--text", "sample:lesson")
    assert out.returncode != 0
    assert out.stderr.startswith("error: The training context must be between 4 and 256")
    assert "Traceback" not in out.stderr
