"""A least-recently-used cache bounded in bytes, shared by every session of a server.

Streamlit's ``max_entries`` counts entries, not bytes: sixteen entries of a 30 MB table are half a
gigabyte. This cache measures what it keeps (tensors by ``nbytes``, lists and strings by length)
and drops the least recently used entries until the total fits its budget. A missing entry is
computed once: sessions that ask for it meanwhile wait for that result (a class that opens the link
together computed the same token table thirty times over). It counts, by name, how often a result was
found kept and how often it was computed (``counts``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Any, TypeVar

import torch

F = TypeVar("F", bound=Callable[..., Any])
WAIT_FOR_OTHERS_SECONDS = 10.0  # a session waits this long for another's computation, then computes too


@dataclasses.dataclass(frozen=True)
class Counts:
    """How often a cache's result was found kept (``hits``) and computed (``builds``) since the process
    started; ``after - before`` is what happened in between."""

    hits: int = 0
    builds: int = 0

    def __sub__(self, other: Counts) -> Counts:
        return Counts(self.hits - other.hits, self.builds - other.builds)


def nbytes(value: Any) -> int:
    """Approximate bytes held by ``value``: tensors, dataclasses, sequences, dicts, strings, numbers, and
    whatever states its own (a ``held_bytes`` attribute: a chart with its data, say)."""
    if (held := getattr(value, "held_bytes", None)) is not None:
        return held
    if isinstance(value, torch.Tensor):
        return value.nbytes
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return 64 + sum(nbytes(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, (list, tuple, set, frozenset)):
        return sys.getsizeof(value) + sum(nbytes(v) if not isinstance(v, int) else 28 for v in value)
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(nbytes(k) + nbytes(v) for k, v in value.items())
    return sys.getsizeof(value)


class ByteLRU:
    """Keeps results up to ``max_bytes`` in all (and ``max_entries``, if given); the least recently used go
    first."""

    def __init__(self, max_bytes: int, max_entries: int | None = None):
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._computing: dict[Hashable, threading.Lock] = {}  # key -> held while one thread computes it
        self._counts: dict[str, list[int]] = {}  # name -> [hits, builds] (``count``)
        self.total = 0

    def get(self, key: Hashable) -> tuple[bool, Any]:
        with self._lock:
            if key not in self._entries:
                return False, None
            self._entries.move_to_end(key)
            return True, self._entries[key][0]

    def put(self, key: Hashable, value: Any) -> None:
        size = nbytes(value)
        if size > self.max_bytes:  # too big to keep: computed again when asked again
            return
        with self._lock:
            if key in self._entries:
                self.total -= self._entries.pop(key)[1]
            self._entries[key] = (value, size)
            self.total += size
            most = len(self._entries) if self.max_entries is None else self.max_entries
            while self.total > self.max_bytes or len(self._entries) > most:
                self.total -= self._entries.popitem(last=False)[1][1]

    @contextlib.contextmanager
    def one_at_a_time(self, key: Hashable, wait: float | None = None) -> Iterator[None]:
        """Hold ``key``'s compute lock: a thread that enters while another computes ``key`` waits for it
        (then finds the result with ``get``). After ``wait`` seconds it goes ahead all the same, so a
        thread whose computation waits for something the waiters hold (memory) cannot block them."""
        with self._lock:
            lock = self._computing.setdefault(key, threading.Lock())
        acquired = lock.acquire(timeout=WAIT_FOR_OTHERS_SECONDS if wait is None else wait)
        try:
            yield
        finally:
            if acquired:
                with self._lock:  # whoever comes next finds the result already kept
                    if self._computing.get(key) is lock:
                        del self._computing[key]
                lock.release()

    def kept_or_computed(
        self,
        key: Hashable,
        compute: Callable[[bool, Any], Any],
        usable: Callable[[Any], bool] = lambda value: True,
    ) -> Any:
        """``key``'s kept value if it is ``usable``; else ``compute(found, kept value)``'s result, kept.

        One thread computes ``key`` at a time (``one_at_a_time``): one that waited looks again first,
        and finds what the other computed.
        """
        found, value = self.get(key)
        if found and usable(value):
            return value
        with self.one_at_a_time(key):
            found, value = self.get(key)  # computed by another session while this one waited
            if found and usable(value):
                return value
            value = compute(found, value)
            self.put(key, value)
        return value

    def clear(self) -> None:
        """Drop every entry (when the server's memory is short: they are computed again when asked)."""
        with self._lock:
            self._entries.clear()
            self.total = 0

    def __len__(self) -> int:
        return len(self._entries)

    def count(self, name: str, built: bool) -> None:
        """Note one call of ``name``: its result was computed (``built``) or found kept."""
        with self._lock:
            self._counts.setdefault(name, [0, 0])[built] += 1

    def counts(self) -> dict[str, Counts]:
        """Hits and builds by name, of every name this cache has counted (or ``cached`` has made)."""
        with self._lock:
            return {name: Counts(*counted) for name, counted in self._counts.items()}

    def cached(self, fn: F) -> F:
        """Decorate ``fn`` (hashable arguments): its results are kept in this cache, and counted under its
        qualified name (``module.function``), which also keys them."""
        name = f"{fn.__module__}.{fn.__qualname__}"
        with self._lock:
            self._counts.setdefault(name, [0, 0])

        @functools.wraps(fn)
        def wrapper(*args: Hashable) -> Any:
            built = False

            def compute(found: bool, value: Any) -> Any:
                nonlocal built
                built = True
                return fn(*args)

            value = self.kept_or_computed((name, args), compute)
            self.count(name, built)
            return value

        return wrapper  # type: ignore[return-value]
