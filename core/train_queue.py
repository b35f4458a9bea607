"""One shared queue of training runs for a whole server: no run is started twice.

Thirty students pressing Train at once must not start thirty trainings on two cores. Every
request is keyed by (text, settings): a request equal to one queued, running or finished is
attached to it; at most ``workers`` runs train at a time and the rest wait in order; finished
runs are kept (up to ``keep`` of them, oldest dropped first) for every session that asks again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from core.training import TrainConfig, TrainResult, train


def run_key(token_ids: list[int], cfg: TrainConfig) -> str:
    """A key for (text, settings): equal keys give identical runs."""
    digest = hashlib.sha256(repr((token_ids, sorted(cfg.__dict__.items()))).encode()).hexdigest()
    return digest[:24]


@dataclass
class Job:
    """One run: its state, its latest partial result and who is waiting for it."""

    key: str
    config: TrainConfig
    status: str = "queued"  # queued, running, done, stopped, failed
    step: int = 0
    result: TrainResult | None = None
    error: str = ""
    subscribers: set[str] = field(default_factory=set)
    cancel: threading.Event = field(default_factory=threading.Event)

    @property
    def finished(self) -> bool:
        return self.status in ("done", "stopped", "failed")


class TrainingQueue:
    """Runs ``train`` on a small pool of threads; see the module docstring."""

    def __init__(self, workers: int = 1, keep: int = 16, trainer: Callable[..., TrainResult] = train):
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="train")
        self._jobs: OrderedDict[str, Job] = OrderedDict()  # unfinished and finished, oldest first
        self._waiting: list[str] = []  # keys of queued jobs, in order
        self._keep = keep
        self._trainer = trainer

    def submit(self, token_ids: list[int], cfg: TrainConfig, subscriber: str) -> Job:
        """The job for (text, settings), started or queued if there is none yet (or it was stopped)."""
        cfg.validate(len(token_ids))
        key = run_key(token_ids, cfg)
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.status in ("stopped", "failed"):
                job = Job(key, cfg)
                self._jobs[key] = job
                self._waiting.append(key)
                self._pool.submit(self._run, job, list(token_ids))
            job.subscribers.add(subscriber)
            self._jobs.move_to_end(key)
            self._forget_old()
            return job

    def get(self, key: str) -> Job | None:
        with self._lock:
            return self._jobs.get(key)

    def position(self, job: Job) -> int:
        """0 while it trains (or is done); n when n runs are ahead of it in the queue."""
        with self._lock:
            return self._waiting.index(job.key) + 1 if job.key in self._waiting else 0

    def stop(self, job: Job, subscriber: str) -> None:
        """Leave the job; it is cancelled once nobody waits for it any more."""
        with self._lock:
            job.subscribers.discard(subscriber)
            if not job.subscribers and not job.finished:
                job.cancel.set()

    def finished_runs(self, keys: list[str]) -> list[Job]:
        """The finished jobs among ``keys``."""
        with self._lock:
            return [self._jobs[k] for k in keys if k in self._jobs and self._jobs[k].status == "done"]

    def _run(self, job: Job, token_ids: list[int]) -> None:
        with self._lock:
            if job.key in self._waiting:
                self._waiting.remove(job.key)
            if job.cancel.is_set():
                job.status = "stopped"
                return
            job.status = "running"

        def progress(result: TrainResult, step: int) -> None:
            job.result, job.step = result, step

        try:
            result = self._trainer(token_ids, job.config, progress, job.cancel.is_set)
            job.result, job.status = result, ("stopped" if result.stopped else "done")
        except Exception as exc:  # shown to the user; the queue keeps working
            job.error, job.status = f"{type(exc).__name__}: {exc}", "failed"

    def _forget_old(self) -> None:
        finished = [k for k, j in self._jobs.items() if j.finished]
        for key in finished[: max(0, len(finished) - self._keep)]:
            del self._jobs[key]
