"""One memory budget for the whole server: every heavy step reserves its predicted bytes first.

A class shares one server process of 690 MB (``core.serving.budget``). Each request is bounded on its own,
but requests that run together are not, and Community Cloud restarts an app that goes over. So a
heavy step — tokenizing a big text, building tables, a Families view at its limits, a training run —
first reserves the bytes its cost model (``core.serving.costs``) predicts, from one budget
(``GOVERNED_BYTES`` = 690 MB minus the warm server, the shared cache, thirty sessions' texts and a
margin):

* it goes at once when the bytes fit the budget and the server's resident size leaves room for them;
* otherwise it waits its turn (first come, first served) and is told how many requests are ahead;
* it is refused, with a message that says why, when it could never fit or has waited
  ``MAX_WAIT_SECONDS``: nothing the student typed is lost, they can try again.

A step that waits while nothing is reserved waits for the resident size alone (sessions' texts,
caches, page runs in flight): it drops the caches and trims every ``ROOM_EVERY_SECONDS`` and is
refused after ``FULL_WAIT_SECONDS``. A thread that already holds a reservation never waits for another
(a step inside a step cannot deadlock); its extra bytes are counted all the same. After a big
reservation ends, freed memory goes back to the operating system (``give_back_memory``), so an idle
server returns to its baseline; so does one that nobody has used for ``IDLE_SECONDS``: it drops its
caches (they are filled again on demand), and trims again once the closed sessions are gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from core.serving.budget import (
    FULL_WAIT_SECONDS,
    GOVERNED_BYTES,
    MAX_WAIT_SECONDS,
    RESIDENT_GUARD_BYTES,
    SERVER_BYTES,
)

ROOM_EVERY_SECONDS = 2.0  # a step waiting on the resident size alone drops caches and trims this often
IDLE_SECONDS = 60.0  # a server with no page run and nothing reserved this long drops its caches
# ... and again once the closed sessions are past their reconnect time (server.disconnectedSessionTTL,
# 120 s): ui.server.memory.drop_closed_sessions, a memory freer, drops them then.
SWEEP_AFTER_SECONDS = (IDLE_SECONDS, 180.0)
TRIM_AFTER_BYTES = 8 * 10**6  # a reservation at least this big gives memory back when it ends
POLL_SECONDS = 0.25  # how often a waiting step looks again (and tells its page)
LOG = logging.getLogger("memory_governor")
_LIBC = ctypes.CDLL("libc.so.6") if sys.platform.startswith("linux") else None
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """This process's resident set size (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:
        return 0


def give_back_memory(collect: bool = True) -> int:
    """Collect garbage (``collect``) and return the allocator's free pages to the OS; the bytes that went
    back.

    glibc keeps freed heap pages in its arenas (one per thread that allocated), so the resident size
    stays up after a heavy step unless ``malloc_trim`` hands them back (a few milliseconds).
    """
    before = resident_bytes()
    if collect:
        gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
    return max(0, before - resident_bytes())


class MemoryRefused(RuntimeError):
    """A step the server's memory cannot take now; the message says why and what to do."""


def megabytes(nbytes: int) -> str:
    """``nbytes`` as whole megabytes, e.g. "42 MB"."""
    return f"{nbytes / 1e6:,.0f} MB"


@dataclass
class Ticket:
    """One reservation: its bytes, what it is for and the thread that holds it."""

    nbytes: int
    what: str
    thread: threading.Thread = field(default_factory=threading.current_thread)  # not its ident: reused


@dataclass
class Counts:
    """What the governor has done since the process started (``benchmarks/memory_bench.py`` prints it)."""

    granted: int = 0  # reservations that went ahead (at once or after waiting)
    waited: int = 0  # reservations that had to wait for memory
    refused: int = 0  # reservations refused with a message
    peak_reserved: int = 0  # the most bytes reserved at one moment


class MemoryGovernor:
    """Reservations against one budget; see the module docstring.

    Args:
        budget: bytes all reservations in flight may hold together.
        guard: a step starts only while ``resident() + nbytes`` stays at or below this.
        resident: the process's resident bytes now.
        free_memory: called when the resident size alone leaves no room (drop caches, trim); returns
            nothing. ``give_back_memory`` is always tried.
        max_wait: seconds a step waits at most before it is refused.
        full_wait: seconds it waits at most while nothing is reserved and only the resident size (other
            sessions' texts, caches, page runs in flight) leaves no room.
        poll: seconds between a waiting step's looks (and calls of its ``on_wait``).
        clock: monotonic seconds.
    """

    def __init__(
        self,
        budget: int = GOVERNED_BYTES,
        guard: int = RESIDENT_GUARD_BYTES,
        resident: Callable[[], int] = resident_bytes,
        free_memory: Callable[[], object] | None = None,
        max_wait: float = MAX_WAIT_SECONDS,
        full_wait: float = FULL_WAIT_SECONDS,
        poll: float = POLL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.budget, self.guard, self.max_wait, self.full_wait, self.poll = (
            budget,
            guard,
            max_wait,
            full_wait,
            poll,
        )
        self._resident, self._clock = resident, clock
        self._free_memory = [free_memory] if free_memory is not None else []
        self._cond = threading.Condition()
        self._active = clock()  # when a page last ran (``note_activity``)
        self._swept = len(SWEEP_AFTER_SECONDS)  # sweeps done since the last page ran: none due yet
        self._queue: list[Ticket] = []  # waiting, first come first served
        self._held: list[Ticket] = []  # granted, not yet released
        self.counts = Counts()

    @property
    def reserved(self) -> int:
        """Bytes held by reservations in flight."""
        with self._cond:
            return sum(t.nbytes for t in self._held)

    @property
    def waiting(self) -> int:
        """Reservations waiting for memory."""
        with self._cond:
            return len(self._queue)

    def add_memory_freer(self, free: Callable[[], object]) -> None:
        """Also call ``free`` (e.g. clear a cache) when the resident size alone leaves no room, and when
        the server is idle (``sweep_if_idle``); the same function is added once."""
        if free not in self._free_memory:
            self._free_memory.append(free)

    def note_activity(self) -> None:
        """A page ran: the caches are in use."""
        with self._cond:
            self._active, self._swept = self._clock(), 0

    def sweep_if_idle(self) -> bool:
        """With no page run and nothing reserved for each of ``SWEEP_AFTER_SECONDS``, drop the caches and
        give the memory back (once each): an idle server returns to its warm baseline. True when it swept.
        """
        with self._cond:
            if self._swept >= len(SWEEP_AFTER_SECONDS) or self._held or self._queue:
                return False
            if self._clock() - self._active < SWEEP_AFTER_SECONDS[self._swept]:
                return False
            self._swept += 1
        self._make_room()
        return True

    @contextlib.contextmanager
    def reserve(
        self, nbytes: int, what: str, on_wait: Callable[[int, int], None] | None = None
    ) -> Iterator[Ticket]:
        """Hold ``nbytes`` for the ``with`` block; see ``acquire``."""
        ticket = self.acquire(nbytes, what, on_wait)
        try:
            yield ticket
        finally:
            self.release(ticket)

    def acquire(self, nbytes: int, what: str, on_wait: Callable[[int, int], None] | None = None) -> Ticket:
        """Reserve ``nbytes`` for ``what`` (a phrase: "tokenizing your text"), waiting if need be.

        Args:
            nbytes: the step's predicted peak bytes.
            what: what the step does, for messages and the log.
            on_wait: while it waits, called every ``poll`` seconds with (requests ahead of it, steps
                running); may raise to give up (the reservation is then withdrawn).
        Returns the ticket to ``release``; raises ``MemoryRefused`` with the reason.
        """
        ticket = Ticket(max(0, int(nbytes)), what)
        with self._cond:
            if ticket.nbytes > self.budget:
                raise self._refuse(ticket, self._too_big(ticket))
            if any(t.thread is ticket.thread for t in self._held):  # a step inside a step: no waiting
                return self._grant(ticket)
            self._queue.append(ticket)
            try:
                return self._wait_for_turn(ticket, on_wait)
            finally:
                if ticket in self._queue:  # refused, or on_wait gave up
                    self._queue.remove(ticket)
                    self._cond.notify_all()

    def release(self, ticket: Ticket) -> None:
        """End a reservation (once; a second call does nothing) and wake the steps that wait."""
        with self._cond:
            if ticket not in self._held:
                return
            self._held.remove(ticket)
            self._cond.notify_all()
        if ticket.nbytes >= TRIM_AFTER_BYTES:
            # Trim only: the step's tensors went with their last reference, and a cycle's garbage waits
            # for the collector's next pass (a server collects after every run). A full collection here
            # would walk every object of a fresh server's first run, twice on the first page.
            give_back_memory(collect=False)

    def _wait_for_turn(self, ticket: Ticket, on_wait: Callable[[int, int], None] | None) -> Ticket:
        start, counted, room_made = self._clock(), False, None
        while True:
            if self._queue[0] is ticket and self._fits(ticket):
                self._queue.pop(0)
                self._cond.notify_all()  # the next in line may fit too
                return self._grant(ticket)
            now = self._clock()
            if not self._held and self._queue[0] is ticket:  # nothing reserved: only a lower resident helps
                if room_made is None or now - room_made >= ROOM_EVERY_SECONDS:
                    room_made = now
                    self._cond.release()
                    try:
                        self._make_room()
                    finally:
                        self._cond.acquire()
                    if self._fits(ticket):
                        continue
                if now - start >= self.full_wait:
                    raise self._refuse(ticket, self._server_full(ticket))
            if not counted:
                counted = True
                self.counts.waited += 1
                LOG.warning("memory governor: wait %s for %s", megabytes(ticket.nbytes), ticket.what)
            if now - start >= self.max_wait:
                raise self._refuse(ticket, self._busy(ticket))
            if on_wait is not None:
                ahead, running = self._queue.index(ticket), len(self._held)
                self._cond.release()
                try:
                    on_wait(ahead, running)
                finally:
                    self._cond.acquire()
            self._cond.wait(self.poll)

    def _fits(self, ticket: Ticket) -> bool:  # holding the lock
        held = sum(t.nbytes for t in self._held)
        return held + ticket.nbytes <= self.budget and self._resident() + ticket.nbytes <= self.guard

    def _make_room(self) -> None:
        for free in self._free_memory:
            free()
        give_back_memory()

    def _grant(self, ticket: Ticket) -> Ticket:  # holding the lock
        self._held.append(ticket)
        self.counts.granted += 1
        self.counts.peak_reserved = max(self.counts.peak_reserved, sum(t.nbytes for t in self._held))
        return ticket

    def _refuse(self, ticket: Ticket, message: str) -> MemoryRefused:  # holding the lock
        self.counts.refused += 1
        LOG.warning("memory governor: refused %s for %s", megabytes(ticket.nbytes), ticket.what)
        return MemoryRefused(message)

    def _too_big(self, ticket: Ticket) -> str:
        return (
            f"{ticket.what.capitalize()} would need about {megabytes(ticket.nbytes)} of memory, more than "
            f"the {megabytes(self.budget)} this shared server lets all heavy steps take together "
            f"(its {megabytes(SERVER_BYTES)} are shared by the whole class). Use smaller settings or a "
            "shorter text."
        )

    def _server_full(self, ticket: Ticket) -> str:
        return (
            f"The server's memory is full right now ({megabytes(self._resident())} of "
            f"{megabytes(SERVER_BYTES)} in use by everyone's sessions), so {ticket.what} (about "
            f"{megabytes(ticket.nbytes)}) cannot start. Nothing you typed is lost: try again in a minute."
        )

    def _busy(self, ticket: Ticket) -> str:
        return (
            f"Other students' requests have held the server's memory for {self.max_wait:.0f} s, so "
            f"{ticket.what} (about {megabytes(ticket.nbytes)}) did not start. Nothing you typed is "
            "lost: try again in a moment."
        )


def sweep_when_idle(gov: MemoryGovernor, every: float = IDLE_SECONDS / 4) -> threading.Thread:
    """A daemon thread that calls ``gov.sweep_if_idle()`` every ``every`` seconds."""

    def loop() -> None:
        while True:
            time.sleep(every)
            gov.sweep_if_idle()

    thread = threading.Thread(target=loop, name="memory-sweeper", daemon=True)
    thread.start()
    return thread


_GOVERNOR: MemoryGovernor | None = None
_GOVERNOR_LOCK = threading.Lock()


def governor() -> MemoryGovernor:
    """The server process's one governor (made on first use)."""
    global _GOVERNOR
    with _GOVERNOR_LOCK:
        if _GOVERNOR is None:
            _GOVERNOR = MemoryGovernor()
            sweep_when_idle(_GOVERNOR)
        return _GOVERNOR
