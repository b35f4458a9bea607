"""A student whose process dies, in Chromium through the lecture hall.

The browser is on one of two processes behind nginx; that process is killed. The browser reconnects by
itself to the other one, and the student's next change runs there: the page says that it moved to
another server process and what did not come back, the pasted text and the settings are as they were,
and every request since went to the other process. On a first visit the page says nothing of the kind.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from deploy.lecture_hall import LectureHall, nginx_binary
from tests.deploy.support import free_port
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, ScriptRuns, app_ready, settled

pytestmark = pytest.mark.slow

WAIT_MS = 120_000  # a wait, not a bound: a loaded 2-core machine
TEXT = "Zebras quietly reconnect after the lecture hall loses a process."
MOVED = "You were moved to another server process."


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    if nginx_binary() is None:
        pytest.skip("nginx is not installed (make nginx installs Debian's package)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    ports = [free_port(), free_port()]
    while ports[1] == ports[0]:
        ports[1] = free_port()
    hall = LectureHall(ports, f"127.0.0.1:{free_port()}", tmp_path_factory.mktemp("hall"))
    hall.start()
    try:
        yield hall
    finally:
        hall.stop()


def _requests(hall: LectureHall, key: str) -> list[tuple[str, str]]:
    """(process that answered, path) of each request of the browser with cookie ``key``, in the order
    nginx logged them: a websocket when it closes; after a process died, nginx names every process it
    tried, the dead one first and the one that answered last."""
    out = []
    for line in (hall.run / "access.log").read_text().splitlines():
        if f" key={key} " in line:
            tried = line.split(" upstream=")[1].split(" status=")[0]
            out.append((tried.split(",")[-1].strip(), line.rsplit('"', 2)[-2].split()[1]))
    return out


def test_a_killed_process_moves_its_students_with_their_text_and_says_so(hall):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        runs = ScriptRuns(page)
        page.goto(f"http://{hall.listen}/Pipeline?seed=5")
        app_ready(page, WAIT_MS)
        settled(page, WAIT_MS)
        sidebar = page.get_by_test_id("stSidebar")
        since = runs.finished
        sidebar.get_by_role("radiogroup").locator("label").filter(has_text="Paste").click()
        runs.wait_after(since, WAIT_MS)
        settled(page, WAIT_MS)
        since = runs.finished
        box = sidebar.get_by_role("textbox", name="Paste text")
        box.fill(TEXT)
        box.press("Control+Enter")
        runs.wait_after(since, WAIT_MS)
        settled(page, WAIT_MS)
        expect(page.get_by_text("Zebras").first).to_be_visible()
        assert page.get_by_text(MOVED).count() == 0  # a first visit: nothing moved

        (key,) = [c["value"] for c in page.context.cookies() if c["name"] == "hall"]
        served = {process for process, _ in _requests(hall, key)}
        assert len(served) == 1, served  # sticky: one process served everything so far
        gone = served.pop()
        (other,) = {f"127.0.0.1:{port}" for port in hall.backend_ports} - {gone}
        seen = len(_requests(hall, key))
        hall.kill(int(gone.rsplit(":", 1)[1]))

        app = page.get_by_test_id("stApp")
        expect(app).not_to_have_attribute("data-test-connection-state", "CONNECTED", timeout=WAIT_MS)
        expect(app).to_have_attribute("data-test-connection-state", "CONNECTED", timeout=WAIT_MS)
        since = runs.finished
        seed = sidebar.get_by_role("spinbutton", name="Seed", exact=True)
        seed.fill("7")
        seed.press("Enter")
        runs.wait_after(since, WAIT_MS)
        settled(page, WAIT_MS)

        expect(page.get_by_text(MOVED)).to_be_visible()
        expect(page.get_by_text("your settings and your pasted text came back")).to_be_visible()
        assert page.get_by_text(MOVED).bounding_box()["height"] > 10
        assert box.input_value() == TEXT  # the pasted text came back from the browser
        expect(page.get_by_text("Zebras").first).to_be_visible()  # and the page runs on it
        assert seed.input_value() == "7"
        assert "seed=7" in page.url
        assert page.get_by_test_id("stException").count() == 0
        since_kill = _requests(hall, key)[seen:]
        assert (gone, "/_stcore/stream") in since_kill  # the old websocket, logged when it closed
        rest = [request for request in since_kill if request != (gone, "/_stcore/stream")]
        assert rest and {process for process, _ in rest} == {other}  # the rest went to the other one
        page.screenshot(path=str(hall.run / "moved.png"))

        since = runs.finished  # the note is said once: the next change runs without it
        seed.fill("8")
        seed.press("Enter")
        runs.wait_after(since, WAIT_MS)
        settled(page, WAIT_MS)
        assert page.get_by_text(MOVED).count() == 0
        browser.close()
