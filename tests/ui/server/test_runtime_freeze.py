"""The collector in a server process (ui.server.runtime): after each page's first run, the next run's start
collects that run's garbage and freezes what is alive; a run's end collects fully at most every two
seconds; pyarrow converts in one thread.

Watched from outside, in a fresh process: the app runs in AppTest (started as a server starts runs,
tests/ui/conftest.py) with Python's automatic collection off after the first run, so every cycle freed
was freed by the app's own collections; an object frozen leaves ``gc.get_objects()``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SERVER_PROCESS = textwrap.dedent(
    """
    import gc, json, time, weakref

    import pyarrow as pa

    from tests.ui.conftest import APP, ServerAppTest


    class Node:
        pass


    def garbage_cycle():
        node = Node()
        node.me = node
        return weakref.ref(node)


    def frozen_by(run):
        # whether run froze an object alive when it started: frozen objects leave gc.get_objects()
        alive = [None]
        run()
        return all(o is not alive for o in gc.get_objects())


    seen = {}
    at = ServerAppTest(APP)
    at.switch_page("pages/Pipeline.py").run()
    gc.disable()  # from here on only the app's own collections free cycles
    left = garbage_cycle()  # garbage still there when the next run starts
    seen["Pipeline's second run freezes"] = frozen_by(at.run)
    seen["the garbage was freed, not frozen"] = left() is None
    seen["Pipeline's third run freezes"] = frozen_by(at.run)
    seen["Families' first run freezes"] = frozen_by(at.switch_page("pages/Families.py").run)
    seen["Families' second run freezes"] = frozen_by(at.run)
    seen["exceptions"] = [e.value for e in at.exception]

    from ui.server.runtime import FULL_COLLECTION_SECONDS, collect_if_due

    start = time.monotonic() + 10 * FULL_COLLECTION_SECONDS  # long after the runs' own collections
    first = garbage_cycle()
    seen["collected at a run's end"] = collect_if_due(now=start)
    seen["first cycle freed"] = first() is None
    second = garbage_cycle()
    seen["collected again a second later"] = collect_if_due(now=start + FULL_COLLECTION_SECONDS / 2)
    seen["second cycle kept a second later"] = second() is not None
    seen["collected again two seconds later"] = collect_if_due(now=start + FULL_COLLECTION_SECONDS)
    seen["second cycle freed two seconds later"] = second() is None

    seen["pyarrow threads"] = pa.cpu_count()
    print(json.dumps(seen))
    """
)


@pytest.fixture(scope="module")
def seen() -> dict:
    """What a fresh server process observed (``SERVER_PROCESS``), run once for this file's tests."""
    out = subprocess.run(
        [sys.executable, "-c", SERVER_PROCESS], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["exceptions"] == []
    return seen


def test_a_page_s_first_run_is_followed_by_one_freeze_at_the_next_start(seen):
    assert seen["Pipeline's second run freezes"]  # what is alive after the page's first run
    assert not seen["Pipeline's third run freezes"]  # once
    assert not seen["Families' first run freezes"]
    assert seen["Families' second run freezes"]  # another page's first run loads its own modules: again


def test_the_freeze_collects_the_first_run_s_garbage_before_it_freezes(seen):
    # Streamlit's collection after every run is off: a cycle left when the freeze comes is freed, not
    # frozen for the process's life
    assert seen["the garbage was freed, not frozen"]


def test_a_full_collection_at_most_every_two_seconds(seen):
    assert seen["collected at a run's end"] and seen["first cycle freed"]
    assert not seen["collected again a second later"] and seen["second cycle kept a second later"]
    assert seen["collected again two seconds later"] and seen["second cycle freed two seconds later"]


def test_streamlit_s_collection_after_every_run_is_off():
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False


def test_the_server_converts_frames_to_arrow_in_one_thread(seen):
    # ui.app sets it as the server first imports it: pyarrow would otherwise convert a frame of more than
    # 100 rows a column with a thread pool made for that one call, which costs more than the conversion
    assert seen["pyarrow threads"] == 1
