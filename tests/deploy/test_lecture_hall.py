"""The lecture hall (deploy/): two Streamlit processes behind nginx on loopback ports.

- the health endpoint answers through the proxy, and the proxy hands out its "hall" cookie;
- one browser (one cookie) reaches one process for everything: the same upstream for every request
  and for its websocket session, whose reruns all run there; different browsers spread over both;
- a process killed: the browsers it served are answered by the other one, and a new session there
  runs the page.

Which process served a request is read from nginx's access log ($upstream_addr).
"""

from __future__ import annotations

import asyncio
import re
import urllib.request
from collections import defaultdict

import pytest
from websockets.asyncio.client import connect

from benchmarks.ws_load_test import Client
from deploy.lecture_hall import LectureHall, nginx_binary
from tests.deploy.support import free_port

pytestmark = pytest.mark.slow

KEYS = [f"student-{i}" for i in range(12)]
LINE = re.compile(r"key=(\S+) upstream=(\S+) status=(\d+) \"(\S+) (\S+)")


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    if nginx_binary() is None:
        pytest.skip("nginx is not installed (make nginx installs Debian's package)")
    ports = [free_port(), free_port()]
    while ports[1] == ports[0]:
        ports[1] = free_port()
    listen = f"127.0.0.1:{free_port()}"
    hall = LectureHall(ports, listen, tmp_path_factory.mktemp("hall"))
    hall.start()
    try:
        yield hall
    finally:
        hall.stop()


def _get(hall: LectureHall, path: str, key: str | None = None):
    request = urllib.request.Request(f"http://{hall.listen}{path}")
    if key:
        request.add_header("Cookie", f"hall={key}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.headers.get_all("Set-Cookie") or []


def _log(hall: LectureHall) -> list[tuple[str, str, int, str]]:
    """(key, upstream, status, path) of every request so far."""
    text = (hall.run / "access.log").read_text()
    return [(m[1], m[2], int(m[3]), m[5]) for m in LINE.finditer(text)]


def _served_by(hall: LectureHall) -> dict[str, set[str]]:
    by_key = defaultdict(set)
    for key, upstream, _, _ in _log(hall):
        by_key[key].add(upstream)
    return by_key


async def _session(hall: LectureHall, key: str) -> list[int]:
    """A session without a browser: the main page, then a change of "Batch B"; the runs' element counts."""
    url = f"ws://{hall.listen}/_stcore/stream"
    headers = {"Cookie": f"hall={key}"}
    async with connect(url, subprotocols=["streamlit"], max_size=None, additional_headers=headers) as ws:
        client = Client(ws, f"http://{hall.listen}", {})
        counts = [len(await client.rerun())]
        client.set("Batch B", 3)
        counts.append(len(await client.rerun()))
        return counts


def test_health_answers_through_the_proxy_which_sets_its_cookie(hall):
    status, cookies = _get(hall, "/_stcore/health")
    assert status == 200
    assert any(c.startswith("hall=") for c in cookies)
    status, cookies = _get(hall, "/_stcore/health", key="student-0")
    assert status == 200 and not any(c.startswith("hall=") for c in cookies)  # it has one already


def test_one_browser_reaches_one_process_and_browsers_spread_over_both(hall):
    for _ in range(3):
        for key in KEYS:
            assert _get(hall, "/_stcore/health", key)[0] == 200
    by_key = _served_by(hall)
    assert all(len(by_key[key]) == 1 for key in KEYS), dict(by_key)
    used = set().union(*(by_key[key] for key in KEYS))
    assert used == {f"127.0.0.1:{port}" for port in hall.backend_ports}


def test_a_websocket_session_runs_on_its_browsers_process(hall):
    key = KEYS[0]
    counts = asyncio.run(asyncio.wait_for(_session(hall, key), 180))
    assert all(count > 0 for count in counts)  # both runs finished and drew the page
    streams = [(k, up, status) for k, up, status, path in _log(hall) if path == "/_stcore/stream"]
    assert [(k, status) for k, _, status in streams] == [(key, 101)]
    assert {streams[0][1]} == _served_by(hall)[key]  # the same process as its other requests


def test_a_killed_process_leaves_the_other_serving_its_browsers(hall):
    key = KEYS[0]
    (gone,) = _served_by(hall)[key]
    (other,) = {f"127.0.0.1:{port}" for port in hall.backend_ports} - {gone}
    hall.kill(int(gone.rsplit(":", 1)[1]))
    for _ in range(3):
        assert _get(hall, "/_stcore/health", key)[0] == 200
    assert _log(hall)[-1][1] == other
    counts = asyncio.run(asyncio.wait_for(_session(hall, key), 180))
    assert all(count > 0 for count in counts)
    assert _log(hall)[-1][1:4:2] == (other, "/_stcore/stream")
