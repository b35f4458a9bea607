"""A real server and a real headless Chromium (Debian's package, driven by Playwright).

Every test here is marked ``e2e`` and ``slow`` (tests/conftest.py). Tests wait for states (the app's
connection and script state, drawn charts, Playwright's ``expect``), never for fixed times.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.layout import VIEWPORTS, drawn_size

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
    "--process-per-site",  # a module's new tab joins the renderer its earlier tabs warmed (see Tabs)
]
SHOTS = ROOT / "test-results"
START_SECONDS = 90  # a server's start on a loaded machine; not a performance bound
STOP_SECONDS = 10  # how long a teardown waits for SIGTERM before SIGKILL
PROJECTOR = {"width": 1280, "height": 720}  # a lecture hall's projector: each presenter section fits it
_SCROLL_HEIGHT_JS = """() => (document.querySelector('[data-testid="stAppScrollToBottomContainer"]')
    || document.querySelector('[data-testid="stMain"]')).scrollHeight"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """A ``streamlit run`` process and its address."""

    proc: subprocess.Popen
    url: str
    output: list[str] = field(default_factory=list)  # its stdout and stderr, line by line

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not exited within STOP_SECONDS: a teardown never hangs."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=STOP_SECONDS)


def start_server(port: int | None = None, python: str = sys.executable) -> Server:
    """``streamlit run`` on ``port`` (default: a free loopback port) by ``python``; returns once it
    listens and /_stcore/health answers. The same port again: a restart, as the browser sees it."""
    port = port or _free_port()
    proc = subprocess.Popen(
        [
            python,
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
        env={**os.environ, "PYTHONUNBUFFERED": "1"},  # its "URL: ..." line arrives as it is printed
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    server = Server(proc, f"http://127.0.0.1:{port}")
    listening = threading.Event()

    def read_output() -> None:  # also drains the pipe for the server's whole life
        for line in proc.stdout:
            server.output.append(line)
            if f":{port}" in line:  # "URL: http://127.0.0.1:<port>", printed once it listens
                listening.set()
        listening.set()  # the process ended

    threading.Thread(target=read_output, daemon=True).start()
    if not listening.wait(START_SECONDS) or proc.poll() is not None:
        server.stop()
        tail = "".join(server.output)[-3000:]
        raise RuntimeError(f"streamlit did not start within {START_SECONDS} s:\n{tail}")
    urllib.request.urlopen(server.url + "/_stcore/health", timeout=START_SECONDS)
    return server


@contextlib.contextmanager
def running_server() -> Iterator[Server]:
    server = start_server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fresh_server_process() -> Iterator[Server]:
    """A server of the test's own (its process too), whose first request is the test's."""
    with running_server() as server:
        yield server


@pytest.fixture
def fresh_server(fresh_server_process) -> str:
    """The address of a server whose first request is the test's own."""
    return fresh_server_process.url


@pytest.fixture(scope="session")  # one a pytest-xdist worker: every module that only reads pages shares it
def server() -> Iterator[str]:
    with running_server() as server:
        yield server.url


@pytest.fixture(scope="module")  # stopped with its module: a later module on the same pytest-xdist
def browser():  # worker may run its own event loop (asyncio.run, sync_playwright in tests/deploy)
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


DESKTOP = {"width": 1400, "height": 1600}


class Tabs:
    """New tabs in one browser context that a test module shares, beside a tab kept open on the app's
    host: Chromium (``--process-per-site``) then draws each new tab in that host's warm renderer, whose
    compiled Streamlit code it reuses. A page opens about 0.6 s sooner than in a context of its own.
    Nothing the app does is kept in the browser (no cookie, no storage), so tabs share nothing else;
    a test about another person opening a link makes a context of its own (``browser.new_context``)."""

    def __init__(self, browser, server: str) -> None:
        self.context = browser.new_context()
        self._keeper = self.context.new_page()
        self._keeper.goto(server + "/_stcore/health")

    def new_page(self, viewport: dict = DESKTOP):
        page = self.context.new_page()
        page.set_viewport_size(viewport)
        return page

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def tabs(browser, server) -> Iterator[Tabs]:
    shared = Tabs(browser, server)
    yield shared
    shared.close()


@pytest.fixture
def page(tabs):
    page = tabs.new_page()
    yield page
    page.close()


@pytest.fixture(params=list(VIEWPORTS))
def sized_page(request, tabs):
    """``(size, page)``: a page at each of ``VIEWPORTS``' widths in turn (desktop, phone)."""
    width, height = VIEWPORTS[request.param]
    page = tabs.new_page({"width": width, "height": height})
    yield request.param, page
    page.close()


@pytest.fixture
def projector_page(tabs):
    """A page the size of ``PROJECTOR`` (1280 × 720), for presenter mode."""
    page = tabs.new_page(PROJECTOR)
    yield page
    page.close()


def written(page, text: str):
    """The page's visible words ``text``, not a chart's sentence for a screen reader that says them too
    (``ui/charts.py``)."""
    return page.get_by_text(text).and_(page.locator(":not(.chart-said)"))


def assert_drawn(page, count: int, min_width: float, min_height: float) -> None:
    """``count`` charts, each a canvas or svg the browser laid out at least this wide and tall."""
    charts = page.get_by_test_id("stVegaLiteChart")
    # a loaded machine mounts a page's charts seconds after its run ends (``charts_drawn`` passes on none)
    expect(charts).to_have_count(count, timeout=30_000)
    for k in range(count):
        drawing = charts.nth(k).locator("canvas, svg").first
        drawing.scroll_into_view_if_needed()
        width, height = drawn_size(drawing)
        assert width >= min_width and height >= min_height, (k, width, height)


def content_height(page) -> float:
    """The height of the page's scrolling content in px: a presenter section fits when it is ≤ 720."""
    return page.evaluate(_SCROLL_HEIGHT_JS)


def app_ready(page, timeout: float = 90_000) -> None:
    """Wait until the app is connected, its script has run, the page shows a title and no widget is
    still loading (a ``stSkeleton`` stands in for a widget until its code has loaded: on a loaded
    machine the sidebar's selects can take over 5 s)."""
    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout)
    page.wait_for_selector('[data-testid="stHeading"]', timeout=timeout)
    page.wait_for_function("() => !document.querySelector('[data-testid=stSkeleton]')", timeout=timeout)


def charts_drawn(page, timeout: float = 60_000) -> None:
    """Wait until every chart on the page has drawn."""
    page.wait_for_function(
        "[...document.querySelectorAll('[data-testid=stVegaLiteChart]')]"
        ".every(c => c.querySelector('canvas, svg'))",
        timeout=timeout,
    )


# The frontend mounts each widget lazily (a ``stSkeleton`` stands in until its code has loaded) and
# registers a URL-bound widget's binding in an effect after it mounts (``registerQueryParamBinding``
# in Streamlit's frontend): a page switch clicked before that leaves the widget's parameter out of the
# new URL. Settled = the script has run, nothing is stale or still loading, every chart has drawn,
# and two frames have passed (React runs its effects after a paint).
_SETTLED_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app && app.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-testid=stSkeleton], [data-stale=true]')
    && [...document.querySelectorAll('[data-testid=stVegaLiteChart]')]
         .every(c => c.querySelector('canvas, svg'));
}"""


def settled(page, timeout: float = 60_000) -> None:
    """Wait until the page has settled, as before a person's click (see _SETTLED_JS)."""
    page.wait_for_function(_SETTLED_JS, timeout=timeout)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


class ScriptRuns:
    """The script runs that ended well for one page, read from its websocket (Streamlit's ForwardMsg).

    A rerun counts once the server says it finished, whatever the page's DOM showed meanwhile: a fast
    rerun may never show "running" (React renders both states at once when they arrive together), and
    the address bar changes before the rerun ends. Make it before the page's ``goto``.
    """

    def __init__(self, page) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self._page, self._message, self.finished = page, ForwardMsg, 0
        self.ends: list[int] = []  # how each run ended, in order (a whole page's or a fragment's)
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        if isinstance(payload, str):
            return
        message = self._message.FromString(payload)
        if message.WhichOneof("type") != "script_finished":
            return
        self.ends.append(message.script_finished)
        done = (self._message.FINISHED_SUCCESSFULLY, self._message.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
        if message.script_finished in done:
            self.finished += 1

    def wait_after(self, since: int, timeout: float = 60_000) -> None:
        """Wait until a run has ended well after ``since`` runs had (read ``finished`` before the change)."""
        deadline = time.monotonic() + timeout / 1000
        while self.finished <= since:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no script run ended within {timeout / 1000:.0f} s")
            self._page.wait_for_timeout(50)  # lets Playwright deliver the frames


def click_page_link(page, link: str, title: str | re.Pattern) -> None:
    """Click the sidebar's ``link`` once the page has settled, as a person would, and wait for ``title``."""
    settled(page)
    page.get_by_test_id("stSidebar").get_by_role("link", name=link).click()
    expect(page.get_by_role("heading", name=title)).to_be_visible(timeout=30_000)
    app_ready(page)


@pytest.fixture
def switch_page():
    """``switch_page(page, link, title)``: see ``click_page_link``."""
    return click_page_link


@pytest.fixture
def wait_for_app():
    """``wait_for_app(page)``: see ``app_ready``."""
    return app_ready


@pytest.fixture
def wait_for_charts():
    """``wait_for_charts(page)``: see ``charts_drawn``."""
    return charts_drawn


@pytest.fixture
def wait_for_settled():
    """``wait_for_settled(page)``: see ``settled``."""
    return settled


@pytest.fixture
def shots() -> Path:
    """The folder for screenshots (test-results/)."""
    SHOTS.mkdir(exist_ok=True)
    return SHOTS


def evidence(page, test_id: str):
    """The elements with ``test_id`` below a page's answer box (the box quotes some of them)."""
    return page.locator(f'[data-testid="{test_id}"]:not(.st-key-answer *)')
