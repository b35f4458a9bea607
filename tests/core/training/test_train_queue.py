import threading
from pathlib import Path

import pytest

from core.training.train_queue import TrainingQueue, run_key, settings_key, text_key
from core.training.training import TrainConfig, TrainResult

IDS = list(range(1000))
ROOT = Path(__file__).resolve().parents[3]


class FakeTrainer:
    """Stands in for core.training.training.train: counts calls and its polls of ``should_stop``, runs
    until released.

    Each poll wakes the test's ``job_watch`` waits, so a test can wait for "the run has looked at
    its stop signal again" instead of sleeping.
    """

    def __init__(self, watch=None):
        self.calls = []
        self.polls = 0
        self.release = threading.Event()
        self.watch = watch

    def __call__(self, token_ids, cfg, progress, should_stop):
        self.calls.append(cfg.method)
        result = TrainResult(cfg, 10, 100, 2.0)
        while not self.release.wait(0.01):  # simulated work
            stop = should_stop()
            self.polls += 1
            if self.watch is not None:
                self.watch.notify()
            if stop:
                result.stopped = True
                return result
        progress(result, cfg.steps)
        return result

    def polled_twice_more(self):
        """A predicate: the trainer has asked ``should_stop`` twice since now (so once after any change)."""
        start = self.polls
        return lambda: self.polls >= start + 2


def test_identical_requests_share_one_run_and_others_queue(job_watch):
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer)
    a = queue.submit(IDS, TrainConfig(), "alice")
    b = queue.submit(IDS, TrainConfig(), "bob")
    c = queue.submit(IDS, TrainConfig(method="rope"), "carol")
    assert a is b and a.subscribers == {"alice", "bob"}
    job_watch.until(lambda: a.status == "running")
    assert queue.position(a) == 0 and queue.position(c) == 1 and c.status == "queued"
    trainer.release.set()
    job_watch.until(lambda: a.status == "done" and c.status == "done")
    assert trainer.calls == ["learned", "rope"]
    # A finished run is reused, not trained again.
    assert queue.submit(IDS, TrainConfig(), "dave") is a
    assert trainer.calls == ["learned", "rope"]


def test_stop_cancels_only_when_nobody_waits(job_watch):
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer)
    job = queue.submit(IDS, TrainConfig(), "alice")
    queue.submit(IDS, TrainConfig(), "bob")
    job_watch.until(lambda: job.status == "running")
    queue.stop("alice")
    job_watch.until(trainer.polled_twice_more(), "two more polls of should_stop")
    assert job.status == "running" and not job.cancel.is_set()  # bob still waits for it
    queue.stop("bob")
    job_watch.until(lambda: job.status == "stopped")


def test_finished_runs_are_bounded(job_watch):
    trainer = FakeTrainer(job_watch)
    trainer.release.set()
    queue = TrainingQueue(workers=1, keep=2, trainer=trainer)
    jobs = [queue.submit(IDS, TrainConfig(seed=s), f"x{s}") for s in range(4)]
    job_watch.until(lambda: all(j.status == "done" for j in jobs))
    queue.submit(IDS, TrainConfig(seed=9), "x")
    assert len(queue.finished_runs([j.key for j in jobs])) <= 2


def test_run_key_depends_on_text_and_settings():
    assert run_key(IDS, TrainConfig()) == run_key(list(IDS), TrainConfig())
    assert run_key(IDS, TrainConfig()) != run_key(IDS[:-1], TrainConfig())
    assert run_key(IDS, TrainConfig()) != run_key(IDS, TrainConfig(steps=301))


def test_a_runs_key_is_its_texts_key_with_its_settings(job_watch):
    trainer = FakeTrainer(job_watch)
    trainer.release.set()
    job = TrainingQueue(workers=1, trainer=trainer).submit(IDS, TrainConfig(steps=7), "alice")
    assert job.text == text_key(IDS) != text_key(IDS[:-1])
    assert job.key == run_key(IDS, TrainConfig(steps=7)) == settings_key(job.text, job.config)
    job_watch.until(lambda: job.status == "done")


def test_stop_of_a_queued_run_stops_it_at_once(job_watch):
    """A run stopped while queued says so at once, not "Queued" until the worker reaches it."""
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer, clock=lambda: 100.0)
    running = queue.submit(IDS, TrainConfig(method="rope"), "alice")
    job_watch.until(lambda: running.status == "running")
    queued = queue.submit(IDS, TrainConfig(method="alibi"), "bob")
    behind = queue.submit(IDS, TrainConfig(method="nope"), "carol")
    assert queue.position(behind) == 2
    assert queue.wait_seconds(behind) == pytest.approx(running.estimate + queued.estimate)
    queue.stop("bob")
    # No wait: the worker is still busy with alice's run and has not reached bob's.
    assert queued.status == "stopped" and queued.finished and queued.started is None
    assert running.status == "running"
    assert queue.position(behind) == 1  # bob's run no longer counts ahead of carol's
    assert queue.wait_seconds(behind) == pytest.approx(running.estimate)
    trainer.release.set()
    job_watch.until(lambda: behind.status == "done")
    assert trainer.calls == ["rope", "nope"]  # bob's run never trained
    assert queued.status == "stopped"  # the worker passing its task leaves it stopped


def test_a_queued_run_someone_else_waits_for_stays_queued(job_watch):
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer)
    running = queue.submit(IDS, TrainConfig(method="rope"), "alice")
    job_watch.until(lambda: running.status == "running")
    shared = queue.submit(IDS, TrainConfig(method="alibi"), "bob")
    queue.submit(IDS, TrainConfig(method="alibi"), "carol")
    queue.stop("bob")
    assert shared.status == "queued" and queue.position(shared) == 1
    trainer.release.set()
    job_watch.until(lambda: shared.status == "done")


def test_leaving_a_queued_run_for_another_stops_it_at_once(job_watch):
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer)
    running = queue.submit(IDS, TrainConfig(method="rope"), "alice")
    job_watch.until(lambda: running.status == "running")
    first = queue.submit(IDS, TrainConfig(steps=5), "bob")
    second = queue.submit(IDS, TrainConfig(steps=6), "bob")  # bob changed Steps and pressed Train again
    assert first.status == "stopped" and second.status == "queued" and queue.position(second) == 1
    trainer.release.set()
    job_watch.until(lambda: second.status == "done")
    assert trainer.calls == ["rope", "learned"]


def test_train_again_after_stopping_a_queued_run_queues_a_new_one(job_watch):
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer)
    running = queue.submit(IDS, TrainConfig(method="rope"), "alice")
    job_watch.until(lambda: running.status == "running")
    stopped = queue.submit(IDS, TrainConfig(), "bob")
    queue.stop("bob")
    again = queue.submit(IDS, TrainConfig(), "bob")
    assert again is not stopped and again.status == "queued" and stopped.status == "stopped"
    assert queue.own_job("bob") is again and queue.position(again) == 1
    trainer.release.set()
    job_watch.until(lambda: again.status == "done")
    assert trainer.calls == ["rope", "learned"]
    assert stopped.status == "stopped"


def test_stop_stops_the_sessions_own_run_whatever_the_settings_now_say(job_watch):
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer)
    job = queue.submit(IDS, TrainConfig(steps=500), "alice")
    job_watch.until(lambda: job.status == "running")
    # alice edits steps 500 -> 499: the page's settings no longer name her run, Stop still does
    assert queue.own_job("alice") is job
    queue.stop("alice")
    job_watch.until(lambda: job.status == "stopped")


def test_train_right_after_stop_starts_a_new_run(job_watch):
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer)
    first = queue.submit(IDS, TrainConfig(), "alice")
    job_watch.until(lambda: first.status == "running")
    queue.stop("alice")
    second = queue.submit(IDS, TrainConfig(), "alice")  # before the worker has noticed the stop
    assert second is not first and second.status == "queued"
    job_watch.until(lambda: first.status == "stopped")
    job_watch.until(lambda: second.status == "running")
    trainer.release.set()
    job_watch.until(lambda: second.status == "done")
    assert trainer.calls == ["learned", "learned"]


def test_a_session_has_one_run_at_a_time(job_watch):
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer)
    a = queue.submit(IDS, TrainConfig(method="rope"), "alice")
    b = queue.submit(IDS, TrainConfig(method="alibi"), "alice")
    assert queue.own_job("alice") is b
    assert a.cancel.is_set() and not b.cancel.is_set()  # a is cancelled: nobody else waits for it
    shared = queue.submit(IDS, TrainConfig(method="nope"), "bob")
    queue.submit(IDS, TrainConfig(method="nope"), "alice")  # alice joins bob's run ...
    queue.submit(IDS, TrainConfig(method="learned"), "alice")  # ... and leaves it: bob's run goes on
    assert not shared.cancel.is_set() and shared.subscribers == {"bob"}
    trainer.release.set()


def test_a_run_nobody_watches_is_cancelled(job_watch):
    now = [0.0]
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer, abandon_after=30, clock=lambda: now[0])
    job = queue.submit(IDS, TrainConfig(), "alice")
    job_watch.until(lambda: job.status == "running")
    now[0] = 25.0
    queue.touch("alice")  # the page polls: still watched
    now[0] = 50.0
    job_watch.until(trainer.polled_twice_more(), "two more polls of should_stop")
    assert job.status == "running" and not job.cancel.is_set()  # 25 s since alice looked: still watched
    now[0] = 56.0  # 31 s since alice last looked
    job_watch.until(lambda: job.status == "stopped")


def test_the_wait_estimate_adds_up_the_runs_ahead(job_watch):
    now = [100.0]
    trainer = FakeTrainer(job_watch)
    queue = TrainingQueue(workers=1, trainer=trainer, clock=lambda: now[0])
    running = queue.submit(IDS, TrainConfig(method="rope"), "alice")
    job_watch.until(lambda: running.status == "running")
    second = queue.submit(IDS, TrainConfig(method="alibi"), "bob")
    third = queue.submit(IDS, TrainConfig(method="nope"), "carol")
    now[0] = 102.0
    assert running.estimate > 2
    assert queue.wait_seconds(second) == pytest.approx(running.estimate - 2)
    assert queue.wait_seconds(third) == pytest.approx(running.estimate - 2 + second.estimate)
    assert queue.position(third) == 2
    trainer.release.set()


def test_the_page_only_ever_reads_consistent_results():
    """The trainer appends to its lists while the page polls: every poll sees equal lengths."""

    def appending_trainer(token_ids, cfg, progress, should_stop):
        result = TrainResult(cfg, 10, 100, 2.0)
        for step in range(3000):
            result.steps.append(step)
            result.train_loss.append(1.0)
            result.val_loss.append(1.0)
            progress(result, step)
        return result

    queue = TrainingQueue(workers=1, trainer=appending_trainer)
    job = queue.submit(IDS, TrainConfig(), "alice")
    polls, unequal = 0, 0
    while job.status != "failed" and (not job.finished or polls < 3000):
        result = job.result
        if result is not None:
            polls += 1
            lengths = {len(result.steps), len(result.train_loss), len(result.val_loss)}
            unequal += len(lengths) > 1
    assert job.status == "done", job.error
    assert polls >= 3000 and unequal == 0


def test_a_process_exits_while_a_run_trains(tmp_path):
    # A server that is stopped must not wait for the run in progress (its teardown used to hang).
    import subprocess
    import sys

    script = tmp_path / "exit_while_training.py"
    script.write_text(
        "import threading, time\n"
        "from core.training.train_queue import TrainingQueue\n"
        "from core.training.training import TrainConfig\n"
        "started = threading.Event()\n"
        "def never_ends(token_ids, cfg, progress, should_stop):\n"
        "    started.set()\n"
        "    while True:\n"
        "        time.sleep(0.05)  # simulated work that ignores should_stop\n"
        "q = TrainingQueue(trainer=never_ends)\n"
        "job = q.submit(list(range(1000)), TrainConfig(steps=5), 'a')\n"
        "assert started.wait(60), 'the run never started'\n"
        "print('exiting while', job.status)\n"
    )
    out = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stderr
    assert "exiting while running" in out.stdout
