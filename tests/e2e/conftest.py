"""A real server and a real headless Chromium (Debian's package, driven by Playwright)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = ROOT / "test-results"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server() -> tuple[subprocess.Popen, str]:
    """``streamlit run`` on a free loopback port; returns once /_stcore/health answers."""
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "streamlit_app.py",
            "--server.headless=true",
            f"--server.port={port}",
            "--server.address=127.0.0.1",
            "--server.fileWatcherType=none",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/_stcore/health", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("streamlit did not answer /_stcore/health within 60 s")


@contextlib.contextmanager
def running_server() -> Iterator[str]:
    proc, base = start_server()
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture
def fresh_server() -> Iterator[str]:
    """A server whose first request is the test's own."""
    with running_server() as base:
        yield base


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server() as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    yield page
    page.close()


def wait_for_app(page, timeout: float = 90_000) -> None:
    """Wait until the app is connected, its script has run and the page shows a title."""
    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout)
    page.wait_for_selector('[data-testid="stHeading"]', timeout=timeout)


def wait_for_charts(page, timeout: float = 60_000) -> None:
    """Wait until every chart on the page has drawn (the page has settled, as before a person's click)."""
    page.wait_for_function(
        "[...document.querySelectorAll('[data-testid=stVegaLiteChart]')]"
        ".every(c => c.querySelector('canvas, svg'))",
        timeout=timeout,
    )
