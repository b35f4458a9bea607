"""Give freed memory back to the operating system after a heavy run (glibc keeps it otherwise).

A run at d 16384 frees hundreds of megabytes of tensors, but glibc's allocator keeps the pages in its
arenas (one per thread that ran a script), and the server's resident size stays up for everyone.
``malloc_trim`` returns them; it is called only when the process is above ``TRIM_ABOVE_BYTES``, so a
light rerun pays nothing. ``use_mmap_for_large_blocks`` goes further, once per process: blocks of
1 MiB and more (every big tensor) get their own mapping, which goes back to the system the moment the
tensor is freed, and threads share at most two arenas.
"""

from __future__ import annotations

import ctypes
import os
import sys

from core.budget import IDLE_BYTES

TRIM_ABOVE_BYTES = IDLE_BYTES + 40 * 10**6
MMAP_THRESHOLD = 1 << 20  # glibc's default starts at 128 KiB but rises with every big free, up to 32 MiB
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8  # mallopt parameters (glibc malloc.h)
_LIBC = ctypes.CDLL("libc.so.6") if sys.platform.startswith("linux") else None
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """This process's resident set size (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:
        return 0


def give_back_memory() -> bool:
    """Return freed heap pages to the OS when the process is large; True when it trimmed."""
    if _LIBC is None or resident_bytes() < TRIM_ABOVE_BYTES:
        return False
    _LIBC.malloc_trim(0)
    return True


def use_mmap_for_large_blocks() -> bool:
    """Fix glibc's mmap threshold at 1 MiB and its arenas at two; True where that was possible.

    glibc raises the threshold each time a mapped block is freed, so after a few big tensors come and
    go, later ones land in the heap, where freed pages stay with the process. A fixed threshold keeps
    big tensors mapped; the cost is a page fault per fresh page, small next to the tensor's own work.
    """
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) & bool(_LIBC.mallopt(_M_ARENA_MAX, 2))
