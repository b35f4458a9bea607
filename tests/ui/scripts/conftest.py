"""Run a view's exported script as a student would: ``python -I`` in an empty folder, or as a notebook.

Both put the ``Script``'s data files beside it first and return the JSON its last line prints.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from core.scripts import Script

ROOT = Path(__file__).resolve().parents[3]  # the project: tests/ui/scripts/conftest.py -> /


def strict_json(line: str) -> dict:
    """``line`` read as strict JSON: NaN and Infinity, which Python's json writes by default, fail."""

    def refuse(constant: str):
        raise ValueError(f"{constant} is not JSON: the script's last line must be strict JSON")

    return json.loads(line, parse_constant=refuse)


def _write_files(script: Script, folder: Path) -> None:
    for name, content in script.files.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and k != "PYTHONPATH"}


def run_script(script: Script, folder: Path) -> tuple[dict, str]:
    """Run ``script.py()`` with ``python -I`` (no project on the path) in ``folder``: its JSON, stdout."""
    _write_files(script, folder)
    path = folder / f"{script.name}.py"
    path.write_text(script.py(), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-I", str(path)],
        capture_output=True,
        text=True,
        env=_clean_env(),
        cwd=folder,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return strict_json(out.stdout.strip().splitlines()[-1]), out.stdout


def run_notebook(script: Script, folder: Path) -> tuple[dict, str]:
    """Execute ``script.ipynb()`` in ``folder`` with a fresh kernel; the last printed JSON and all stdout."""
    _write_files(script, folder)
    nb = nbformat.reads(script.ipynb(), as_version=4)
    nbformat.validate(nb)
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    ).execute()
    stdout = "".join(
        out.get("text", "")
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
    )
    return strict_json(stdout.strip().splitlines()[-1]), stdout


def ruff_findings(code: str) -> str:
    """What the project's own ruff config finds in ``code`` ("" when it passes).

    Anything but a clean pass is a finding, a ruff that could not run included (this once read a
    config path that did not exist, printed its error on stderr, and every script "passed").
    """
    ruff = Path(sys.executable).parent / "ruff"
    config = ROOT / "pyproject.toml"
    assert config.is_file(), config
    out = subprocess.run(
        [str(ruff), "check", "--config", str(config), "--stdin-filename", "script.py", "-"],
        input=code,
        capture_output=True,
        text=True,
    )
    return "" if out.returncode == 0 else (out.stdout + out.stderr or f"ruff exited {out.returncode}")


@pytest.fixture
def run():
    """``run(script, folder)``: as ``run_script``."""
    return run_script


@pytest.fixture
def run_nb():
    """``run_nb(script, folder)``: as ``run_notebook``."""
    return run_notebook


@pytest.fixture
def ruff():
    """``ruff(code)``: as ``ruff_findings``."""
    return ruff_findings
