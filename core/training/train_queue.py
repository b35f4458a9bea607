"""One shared queue of training runs for a whole server: fair, bounded, and impossible to jam.

Thirty students pressing Train at once must not start thirty trainings on two cores. Every
request is keyed by (text, settings): a request equal to one queued, running or finished is
attached to it; at most ``workers`` runs train at a time and the rest wait in order; finished
runs are kept (up to ``keep`` of them, oldest dropped first) for every session that asks again.

Each session has at most one run of its own at a time: asking for another leaves the first (which
is cancelled once nobody waits for it; a queued one is stopped at once, not when a worker reaches
it), Stop always stops the session's own run whatever its settings now say, and a run whose every
session has stopped looking for ``abandon_after`` seconds is cancelled. Every run is bounded in time
and memory by ``TrainConfig.validate``, and reserves its predicted bytes from the server's memory
governor before it allocates (``core.serving.memory_governor``; it waits, and says so, while pages'
heavy steps hold the memory), and gives the memory back when it ends.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from core.serving.memory_governor import MemoryGovernor, MemoryRefused, give_back_memory, governor
from core.training.training import TrainConfig, TrainResult, estimated_bytes, estimated_seconds, train

ABANDON_SECONDS = 30.0  # a run nobody has looked at for this long is cancelled


class _StoppedWaiting(Exception):
    """A run was stopped while it waited for memory (it never trained)."""


def text_key(token_ids: list[int]) -> str:
    """A key for a text's token IDs: equal keys, equal texts."""
    return hashlib.sha256(repr(token_ids).encode()).hexdigest()[:24]


def settings_key(text: str, cfg: TrainConfig) -> str:
    """``run_key`` from the text's ``text_key``: the keys of one text's runs without hashing it again."""
    return hashlib.sha256(repr((text, sorted(cfg.__dict__.items()))).encode()).hexdigest()[:24]


def run_key(token_ids: list[int], cfg: TrainConfig) -> str:
    """A key for (text, settings): equal keys give identical runs."""
    return settings_key(text_key(token_ids), cfg)


def published(result: TrainResult) -> TrainResult:
    """A copy of ``result`` that the trainer will not change any more (its lists are new lists).

    The page reads a job's result while the trainer appends to its own: it must only ever see a
    consistent snapshot (equal-length lists).
    """
    lists = {
        f.name: list(getattr(result, f.name)) for f in dataclasses.fields(result) if f.default_factory is list
    }
    return dataclasses.replace(result, **lists)


@dataclass
class Job:
    """One run: its state, its latest published result and who is waiting for it."""

    key: str
    config: TrainConfig
    estimate: float = 0.0  # seconds of CPU the run is expected to take (core.training.training cost model)
    status: str = "queued"  # queued, running, done, stopped, failed
    step: int = 0
    result: TrainResult | None = None
    error: str = ""
    started: float | None = None  # clock time when it started training
    subscribers: set[str] = field(default_factory=set)
    cancel: threading.Event = field(default_factory=threading.Event)
    text: str = ""  # text_key of the token IDs it trains on (its key is settings_key(text, config))
    memory_wait: tuple[int, int] | None = None  # while it waits for memory: (requests ahead, steps running)

    @property
    def finished(self) -> bool:
        return self.status in ("done", "stopped", "failed")


class TrainingQueue:
    """Runs ``train`` on a small pool of threads; see the module docstring."""

    def __init__(
        self,
        workers: int = 1,
        keep: int = 16,
        trainer: Callable[..., TrainResult] = train,
        abandon_after: float = ABANDON_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        memory: MemoryGovernor | None = None,  # None: the server process's governor
    ):
        self._lock = threading.Lock()
        self._tasks: queue.SimpleQueue[tuple[Job, list[int]]] = queue.SimpleQueue()
        for k in range(workers):  # daemon threads: a server that stops never waits for a run to end
            threading.Thread(target=self._work, name=f"train-{k}", daemon=True).start()
        self._jobs: OrderedDict[str, Job] = OrderedDict()  # the latest job per key, oldest first
        self._waiting: list[Job] = []  # queued jobs, in order
        self._own: dict[str, Job] = {}  # session -> the run it last asked for
        self._seen: dict[str, float] = {}  # session -> when it last looked at its run
        self._keep, self._trainer, self._abandon_after, self._clock = keep, trainer, abandon_after, clock
        self._memory = memory

    def submit(self, token_ids: list[int], cfg: TrainConfig, subscriber: str) -> Job:
        """The job for (text, settings), started or queued if there is none yet (or it was stopped).

        The session leaves the run it asked for before, if that was another one.
        """
        cfg.validate(len(token_ids), len(set(token_ids)))
        text = text_key(token_ids)
        key = settings_key(text, cfg)
        with self._lock:
            self._seen[subscriber] = self._clock()
            previous = self._own.get(subscriber)
            if previous is not None and previous.key != key:
                self._leave(previous, subscriber)
            job = self._jobs.get(key)
            if job is None or job.status in ("stopped", "failed") or job.cancel.is_set():
                job = Job(key, cfg, estimated_seconds(cfg, len(set(token_ids)), len(token_ids)), text=text)
                self._jobs[key] = job
                self._waiting.append(job)
                self._tasks.put((job, list(token_ids)))
            job.subscribers.add(subscriber)
            self._own[subscriber] = job
            self._jobs.move_to_end(key)
            self._forget_old()
            return job

    def get(self, key: str) -> Job | None:
        with self._lock:
            return self._jobs.get(key)

    def own_job(self, subscriber: str) -> Job | None:
        """The run this session asked for last (finished or not), if any."""
        with self._lock:
            return self._own.get(subscriber)

    def touch(self, subscriber: str) -> None:
        """The session is looking at its run: it is not abandoned."""
        with self._lock:
            self._seen[subscriber] = self._clock()

    def position(self, job: Job) -> int:
        """0 while it trains (or is done); n when n runs are ahead of it in the queue."""
        with self._lock:
            return next((k + 1 for k, j in enumerate(self._waiting) if j is job), 0)

    def wait_seconds(self, job: Job) -> float:
        """Estimated seconds until ``job`` starts: what the running runs have left, plus the runs ahead."""
        with self._lock:
            now = self._clock()
            running = [j for j in self._jobs.values() if j.status == "running"]
            ahead = self._waiting[: next((k for k, j in enumerate(self._waiting) if j is job), 0)]
            left = sum(max(0.0, j.estimate - (now - (j.started or now))) for j in running)
            return left + sum(j.estimate for j in ahead)

    def stop(self, subscriber: str) -> None:
        """Stop this session's own run (it is cancelled once nobody else waits for it)."""
        with self._lock:
            job = self._own.get(subscriber)
            if job is not None:
                self._leave(job, subscriber)

    def finished_runs(self, keys: list[str]) -> list[Job]:
        """The finished jobs among ``keys``."""
        with self._lock:
            return [self._jobs[k] for k in keys if k in self._jobs and self._jobs[k].status == "done"]

    def _leave(self, job: Job, subscriber: str) -> None:  # holding the lock
        job.subscribers.discard(subscriber)
        if not job.subscribers and not job.finished:
            job.cancel.set()
            if job.status == "queued":  # stopped now, not when a worker reaches it: the page says so
                job.status = "stopped"
                self._waiting.remove(job)

    def _abandoned(self, job: Job) -> bool:
        """Nobody has looked at the job for ``abandon_after`` seconds (then it is cancelled)."""
        with self._lock:
            return self._abandoned_locked(job)

    def _abandoned_locked(self, job: Job) -> bool:  # holding the lock
        now = self._clock()
        if all(now - self._seen.get(s, now) > self._abandon_after for s in job.subscribers):
            job.cancel.set()
        return job.cancel.is_set()

    def _work(self) -> None:
        while True:
            self._run(*self._tasks.get())

    def _run(self, job: Job, token_ids: list[int]) -> None:
        with self._lock:  # one step: a Stop comes before it starts (and leaves it stopped) or after
            if job in self._waiting:
                self._waiting.remove(job)
            if job.status == "queued" and self._abandoned_locked(job):
                job.status = "stopped"
            if job.status != "queued":
                return  # stopped while it waited
            job.status, job.started = "running", self._clock()

        def progress(result: TrainResult, step: int) -> None:
            job.result, job.step = published(result), step

        try:
            with self._memory_for(job, token_ids):  # its predicted bytes, reserved first
                result = self._trainer(token_ids, job.config, progress, lambda: self._abandoned(job))
            job.result, job.status = published(result), ("stopped" if result.stopped else "done")
        except _StoppedWaiting:  # stopped (or left alone) while it waited for memory
            job.status = "stopped"
        except MemoryRefused as exc:  # it waited too long, or can never fit: the message says which
            job.error, job.status = str(exc), "failed"
        except Exception as exc:  # shown to the user; the queue keeps working
            job.error, job.status = f"{type(exc).__name__}: {exc}", "failed"
        finally:
            give_back_memory()  # what the run freed goes back to the system: the idle server shrinks

    @contextlib.contextmanager
    def _memory_for(self, job: Job, token_ids: list[int]) -> Iterator[None]:
        """Hold the run's predicted peak bytes (``training.estimated_bytes``) while it trains."""

        def on_wait(ahead: int, running: int) -> None:  # the page shows it; Stop ends the wait
            job.memory_wait = (ahead, running)
            if job.cancel.is_set() or self._abandoned(job):
                raise _StoppedWaiting

        memory = self._memory or governor()
        nbytes = estimated_bytes(job.config, len(set(token_ids)), len(token_ids))
        try:
            ticket = memory.acquire(nbytes, "this training run", on_wait)
        finally:
            job.memory_wait = None
        try:
            yield
        finally:
            memory.release(ticket)

    def _forget_old(self) -> None:  # holding the lock
        finished = [k for k, j in self._jobs.items() if j.finished]
        for key in finished[: max(0, len(finished) - self._keep)]:
            del self._jobs[key]
        now = self._clock()
        for session in [s for s, t in self._seen.items() if now - t > 3600]:  # gone for an hour
            self._seen.pop(session, None)
            if self._own.get(session) is not None and self._own[session].finished:
                del self._own[session]
