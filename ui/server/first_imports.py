"""The server's first imports without the cyclic collector, for the first page on a fresh server.

Importing torch, pandas and Altair creates hundreds of thousands of long-lived objects (modules,
functions, classes) and almost no garbage. With the collector on, the growing heap triggers full
collections that walk all of them again and again, a large share of the imports' cost. Here
the collector is off while they import; what they created then goes straight to the permanent
generation (``gc.freeze()``), so no later collection walks it either, the full collection at a
run's end included (``ui.server.runtime`` freezes again after each page's first run). This module
imports nothing heavy itself: it must run before torch is imported.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_done = False  # this process has imported once


@contextmanager
def imports_without_collection() -> Iterator[None]:
    """Collector off for the ``with`` block's imports, then what they created frozen. Once per
    process: a later run (its imports are found in ``sys.modules``) freezes nothing, since what a run
    leaves alive may yet become garbage; so does a run that finds the collector off (another one is
    importing)."""
    global _done
    if _done or not gc.isenabled():
        yield
        return
    _done = True
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
