"""Helpers of the deploy tests: where this machine keeps its torch 2.13.0 CPU wheel, a free
loopback port, and a small static file server on loopback (the stand-in for PyTorch's index)."""

from __future__ import annotations

import functools
import http.server
import os
import shlex
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TORCH_WHEEL = "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"
# requirements.txt names the CPU wheels under this address; the tests point it at a stand-in.
TORCH_CPU_URL = "https://download.pytorch.org/whl/cpu/"


def _find_links() -> list[str]:
    """pip's find-links folders: its environment, its config files, and the usual place here."""
    found = shlex.split(os.environ.get("PIP_FIND_LINKS", ""))
    try:
        out = subprocess.run(
            [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    for line in out.splitlines():
        key, _, value = line.partition("=")
        if key.endswith("find-links"):
            found += shlex.split(value.strip().strip("'\""))
    return found + ["/opt/wheels"]


@functools.cache
def local_torch_wheel() -> Path | None:
    """The torch 2.13.0 CPU wheel for Python 3.11 that pip installs from disk on this kind of machine."""
    for folder in _find_links():
        path = Path(folder.removeprefix("file://")) / TORCH_WHEEL
        if path.is_file():
            return path
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the test output stays readable
        pass


def serve_folder(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on a free loopback port until the generator is closed; yields its base URL."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def pypi_reachable() -> bool:
    try:
        with urllib.request.urlopen("https://pypi.org/simple/pip/", timeout=10) as response:
            return response.status == 200
    except OSError:
        return False
