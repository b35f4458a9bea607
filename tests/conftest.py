"""Shared fixtures: the book's corpus (skipped when absent), a fixed seed for every test, the markers
of the slow tests and a way to wait for training runs to change state.

``pytest -m "not slow"`` (``make test-fast``) leaves out the browser tests (everything under
``tests/e2e``, marked here) and the tests that run exported scripts (marked where they are defined).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

# One torch thread, here and in every process a test starts (scripts, servers): the models are tiny,
# and on a shared 2-core machine two threads per process spin against each other's load (measured
# under load: tests/core/training/test_training.py + test_adamw.py 13.8 s with 2 threads, 2.1 s with 1).
os.environ["OMP_NUM_THREADS"] = "1"

import pytest  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)

# The book's text, next to the checkout (../shared/data), or next to a folder above it (a git worktree's).
VERDICT = next(
    (
        found
        for folder in Path(__file__).resolve().parents[1:]
        if (found := folder / "shared" / "data" / "the-verdict.txt").exists()
    ),
    Path(__file__).resolve().parents[1].parent / "shared" / "data" / "the-verdict.txt",
)
E2E = Path(__file__).resolve().parent / "e2e"
WAIT_SECONDS = 120.0  # how long a wait for a state may take before the test fails: generous, for a loaded CPU


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is ``e2e`` and ``slow``."""
    for item in items:
        if item.path.is_relative_to(E2E):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True, scope="session")
def _no_resident_guard_in_the_test_process():
    """The pytest process is no server: it holds thousands of AppTest sessions and caches, and its resident
    size passes the server's 690 MB by itself, so the governor's resident guard would refuse every heavy
    step. Its reservations against the budget still work (tests/ui/test_memory.py); the real servers that
    the browser tests and benchmarks start keep their guard."""
    from core.serving.memory_governor import governor

    gov = governor()
    guard, gov.guard = gov.guard, 2**62
    yield
    gov.guard = guard


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


@pytest.fixture
def verdict_text() -> str:
    """The book's sample text, ``../shared/data/the-verdict.txt``; never committed here."""
    if not VERDICT.exists():
        pytest.skip(f"{VERDICT} is absent")
    return VERDICT.read_text(encoding="utf-8")


@pytest.fixture
def verdict_bytes() -> bytes:
    """The book's sample text as its file holds it (what a browser uploads); skipped when absent."""
    if not VERDICT.exists():
        pytest.skip(f"{VERDICT} is absent")
    return VERDICT.read_bytes()


class JobWatch:
    """Every training job created while the fixture is active, and a wake-up on each change to one."""

    def __init__(self):
        self.changed = threading.Condition()
        self.jobs: list = []  # core.training.train_queue.Job

    def notify(self) -> None:
        with self.changed:
            self.changed.notify_all()

    def until(self, predicate: Callable[[], bool], what: str = "the expected state") -> None:
        """Block until ``predicate()`` holds, checked again on every change (it must not take a lock)."""
        with self.changed:
            if not self.changed.wait_for(predicate, timeout=WAIT_SECONDS):
                raise AssertionError(f"training never reached {what} (waited {WAIT_SECONDS:.0f} s)")

    def until_finished(self) -> None:
        """Block until every job created so far has finished (done, stopped or failed)."""
        self.until(lambda: all(job.finished for job in self.jobs), "the end of every run")


@pytest.fixture
def job_watch(monkeypatch) -> JobWatch:
    """Jobs the training queue creates from now on report each change of their state to a ``JobWatch``."""
    import core.training.train_queue

    watch = JobWatch()

    class WatchedJob(core.training.train_queue.Job):
        def __setattr__(self, name, value):
            super().__setattr__(name, value)
            if name == "key":  # the first field the dataclass's __init__ sets
                watch.jobs.append(self)
            watch.notify()

    monkeypatch.setattr(core.training.train_queue, "Job", WatchedJob)
    return watch


@pytest.fixture
def fresh_caches():
    """Every cache the app keeps between runs emptied (``ui.server.cache.clear``) before the test and
    after it: what the test computes is new to every cache, and nothing it kept reaches the next test."""
    from ui.server import cache

    cache.clear()
    yield
    cache.clear()
