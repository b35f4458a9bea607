"""Process-wide settings that keep a rerun's CPU cost low when thirty sessions share one server.

* **One torch thread.** A page computes small tensors; torch's idle intra-op threads spin while they
  wait, and on a loaded 2-core machine two threads per call cost many times one. A training run then
  also leaves a core to the pages.
* **One Arrow thread.** Streamlit turns every chart's and table's frame into Arrow
  (``pa.Table.from_pandas``); pyarrow converts a frame of more than 100 rows a column with a thread
  pool made for that one call, whose threads cost more than the conversion itself at the app's sizes.
* **No schema validation while building charts.** Altair validates every chart part against
  Vega-Lite's JSON schema as it is made (its "debug mode") and again on ``to_dict()``; the charts of
  ``core/views/charts.py`` are validated by the tests, so the server builds and draws them without it.
* **Long-lived objects out of the collector's way.** Streamlit would call ``gc.collect(2)`` after every
  script run (``runner.postScriptGC``); with torch, pandas, Altair and every page's modules loaded, a
  full collection walks hundreds of thousands of objects. What the first imports create is frozen as
  they end (``ui.server.first_imports``); after each page's first run in the process, ``gc.freeze()`` moves
  the objects alive then — modules, caches, the shared sidebar — into the permanent generation, so later
  collections walk only what reruns create. The freeze waits for the next run's start, and collects
  first: the first run's garbage is freed, not frozen. Objects frozen are still freed by reference
  counting as usual (cached tensors included); only cycles among them would stay.
* **A full collection at most every two seconds.** Even so, a collection after every run would still be
  a noticeable share of a rerun. ``runner.postScriptGC`` is off (``.streamlit/config.toml``);
  a run's end collects everything when ``FULL_COLLECTION_SECONDS`` have passed since the last full
  collection, and Python's own generational collections run as usual in between. Tensors are freed by
  reference counting; only cyclic garbage waits, for two seconds at most while runs go on.
"""

from __future__ import annotations

import gc
import time

import pyarrow as pa
import torch
from altair.utils.schemapi import disable_debug_mode

_first_runs: set[str] = set()  # pages whose first run in this process has ended
_freeze_pending = False  # a page's first run ended: freeze at the next run's start
FULL_COLLECTION_SECONDS = 2.0
_last_full_collection = float("-inf")  # time.monotonic() of the last full collection after a run


def use_one_torch_thread() -> None:
    """torch's intra-op threads: one, for the whole server process."""
    torch.set_num_threads(1)


def use_one_arrow_thread() -> None:
    """pyarrow's CPU thread count, which its pandas conversion reads: one, for the whole server process."""
    pa.set_cpu_count(1)


def build_charts_without_validation() -> None:
    """Altair's instantiation-time validation off, for the whole server process."""
    disable_debug_mode()


def note_run_ended(page: str) -> None:
    """A run of ``page`` ended: after the page's first run in this process, freeze at the next start."""
    global _freeze_pending
    if page not in _first_runs:
        _first_runs.add(page)
        _freeze_pending = True


def freeze_if_due() -> bool:
    """At a run's start, after a page's first run: collect that run's garbage, then freeze what is
    alive (True then)."""
    global _freeze_pending
    if not _freeze_pending:
        return False
    _freeze_pending = False
    _collected_fully()
    gc.freeze()
    return True


def collect_if_due(now: float | None = None) -> bool:
    """At a run's end: a full collection if ``FULL_COLLECTION_SECONDS`` have passed since the last one
    (True then); Streamlit's collection after every run is off (``runner.postScriptGC``)."""
    now = time.monotonic() if now is None else now
    if now - _last_full_collection < FULL_COLLECTION_SECONDS:
        return False
    _collected_fully(now)
    return True


def _collected_fully(now: float | None = None) -> None:
    """A full collection, noted: the next run's end need not repeat it for two seconds."""
    global _last_full_collection
    gc.collect()
    _last_full_collection = time.monotonic() if now is None else now
