"""A least-recently-used cache bounded in bytes, shared by every session of a server.

Streamlit's ``max_entries`` counts entries, not bytes: sixteen entries of a 30 MB table are half a
gigabyte. This cache measures what it keeps (tensors by ``nbytes``, lists and strings by length)
and drops the least recently used entries until the total fits its budget.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import torch

F = TypeVar("F", bound=Callable[..., Any])


def nbytes(value: Any) -> int:
    """Approximate bytes held by ``value``: tensors, dataclasses, sequences, dicts, strings, numbers."""
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
    """Keeps results up to ``max_bytes`` in all; the least recently used go first."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
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
            while self.total > self.max_bytes:
                self.total -= self._entries.popitem(last=False)[1][1]

    def clear(self) -> None:
        """Drop every entry (when the server's memory is short: they are computed again when asked)."""
        with self._lock:
            self._entries.clear()
            self.total = 0

    def __len__(self) -> int:
        return len(self._entries)

    def cached(self, fn: F) -> F:
        """Decorate ``fn`` (hashable arguments): its results are kept in this cache."""

        @functools.wraps(fn)
        def wrapper(*args: Hashable) -> Any:
            key = (fn.__qualname__, args)
            found, value = self.get(key)
            if not found:
                value = fn(*args)
                self.put(key, value)
            return value

        return wrapper  # type: ignore[return-value]
