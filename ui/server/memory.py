"""The server's memory on a page: heavy steps reserve it visibly, and freed memory goes back.

Every heavy step reserves its predicted bytes from the process's one governor
(``core.serving.memory_governor``) before it allocates. Here that becomes what a student sees: a step that
has to wait shows "Waiting for memory: 2 requests ahead" where its result will appear (and updates
it) instead of an endless spinner; a step that is refused shows why, with a Try again button, and
stops the page — the sidebar, the text and every setting stay as they were.

The allocator is set once per process (``use_mmap_for_large_blocks``) so that freed tensors go back to
the system, and after a heavy run ``give_back_memory`` returns what glibc still holds.
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
import threading
from collections.abc import Callable, Iterator

import streamlit as st

from core.serving.budget import IDLE_BYTES
from core.serving.memory_governor import MemoryRefused, Ticket, governor, megabytes, resident_bytes
from core.serving.memory_governor import give_back_memory as _give_back

TRIM_ABOVE_BYTES = IDLE_BYTES + 40 * 10**6
MIN_RESERVED_BYTES = 4 * 10**6  # smaller steps are not governed: the budget's slack covers them
MMAP_THRESHOLD = 128 << 10  # glibc's default start, fixed: it rises with every big free (up to 32 MiB)
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8  # mallopt parameters (glibc malloc.h)
_LIBC = ctypes.CDLL("libc.so.6") if sys.platform.startswith("linux") else None
RUN_TICKETS = "_memory_tickets"  # session key: the reservations this script run holds until it ends
RUN_TICKET_SECONDS = 120  # a run's reservation is dropped after this long even if the run never ended


def give_back_memory() -> bool:
    """After a run: return freed heap pages to the OS when the process is large; True when it trimmed."""
    if _LIBC is None or resident_bytes() < TRIM_ABOVE_BYTES:
        return False
    _give_back(
        collect=False
    )  # the run's end collected within the last 2 s (ui.server.runtime.collect_if_due)
    return True


def use_mmap_for_large_blocks() -> bool:
    """Fix glibc's mmap threshold at 128 KiB and its arenas at two; True where that was possible.

    glibc raises the threshold each time a mapped block is freed, so after a few big tensors come and
    go, later ones land in the heap, where freed pages stay with the process, scattered among live
    ones. A fixed threshold keeps every block of 128 KiB or more (a training step's activations, a
    table's rows) in its own mapping, which goes back the moment it is freed: a training run's peak
    is lower and it leaves little behind.
    """
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) & bool(_LIBC.mallopt(_M_ARENA_MAX, 2))


def waiting_message(ahead: int, running: int, what: str) -> str:
    """What a waiting step shows, from the queue's numbers."""
    ahead_text = f"{ahead} request{'s' * (ahead != 1)} ahead"
    running_text = f"{running} heavy step{'s' * (running != 1)} running"
    return (
        f"Waiting for memory: {ahead_text}, {running_text}. The class shares this server's memory, so "
        f"{what} waits its turn; this page continues by itself."
    )


def _refused(exc: MemoryRefused) -> None:
    """Say why, offer Try again (a rerun with everything as it is), and stop this run."""
    st.error(str(exc), icon=":material/memory:")
    st.button("Try again", key="memory_try_again", icon=":material/refresh:")
    st.stop()


def _acquire(nbytes: int, what: str) -> Ticket:
    """Reserve, telling the page while it waits; on refusal say why and stop the run."""
    note = None

    def on_wait(ahead: int, running: int) -> None:
        nonlocal note
        note = note or st.empty()
        note.info(waiting_message(ahead, running, what), icon=":material/hourglass_top:")

    try:
        return governor().acquire(nbytes, what, on_wait)
    except MemoryRefused as exc:
        _refused(exc)
        raise  # not reached: st.stop() ends the run
    finally:
        if note is not None:
            note.empty()


@contextlib.contextmanager
def reserved(nbytes: int, what: str) -> Iterator[None]:
    """Run the ``with`` block once ``nbytes`` are reserved for ``what`` ("tokenizing your text").

    Below ``MIN_RESERVED_BYTES`` it runs at once. While it waits, a note says how many requests are
    ahead; if it is refused, the page shows why and stops.
    """
    if nbytes < MIN_RESERVED_BYTES:
        yield
        return
    ticket = _acquire(nbytes, what)
    try:
        yield
    finally:
        governor().release(ticket)


def reserve_for_run(nbytes: int, what: str) -> None:
    """Reserve ``nbytes`` for ``what`` until this script run ends (``release_run``), as ``reserved``
    does for a block: for a page whose heavy work is spread over its views."""
    if nbytes < MIN_RESERVED_BYTES:
        return
    ticket = _acquire(nbytes, what)
    st.session_state.setdefault(RUN_TICKETS, []).append(ticket)
    # A run that never reaches release_run (its session closed mid-run) frees its bytes all the same.
    timer = threading.Timer(RUN_TICKET_SECONDS, governor().release, args=(ticket,))
    timer.daemon = True
    timer.start()


def forget_when_short(*clears: Callable[[], object]) -> None:
    """Let the governor call ``clears`` (a cache's ``clear``) when memory is short or the server idle."""
    for clear in clears:
        governor().add_memory_freer(clear)


def drop_closed_sessions() -> int:
    """Drop the closed sessions Streamlit keeps past ``server.disconnectedSessionTTL``; how many it dropped.

    Streamlit keeps a closed session (its state: texts, tables, widgets) for a reconnect, and its store
    hides one whose time is up but removes it only when the next session arrives. On a server nobody
    opens after a class, thirty sessions' states stayed resident for good; the idle sweep calls this.
    Streamlit's store is private API: where it is not as expected, nothing is dropped.
    """
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return 0
    manager = getattr(Runtime.instance(), "_session_mgr", None)
    store = getattr(getattr(manager, "_session_storage", None), "_cache", None)
    if not callable(getattr(store, "expire", None)):
        return 0
    with getattr(manager, "_storage_lock", contextlib.nullcontext()):
        return len(store.expire())


forget_when_short(drop_closed_sessions)  # with the caches, before memory is given back


def note_activity() -> None:
    """A page ran: the server is not idle (it drops its caches after a minute without runs)."""
    governor().note_activity()


def release_run() -> None:
    """End the reservations this session's script run made with ``reserve_for_run``."""
    for ticket in st.session_state.pop(RUN_TICKETS, []):
        governor().release(ticket)


__all__ = ["MemoryRefused", "megabytes", "reserve_for_run", "reserved", "release_run"]
