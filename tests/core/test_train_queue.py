import threading
import time

from core.train_queue import TrainingQueue, run_key
from core.training import TrainConfig, TrainResult

IDS = list(range(1000))


class FakeTrainer:
    """Stands in for core.training.train: counts calls and runs until released."""

    def __init__(self):
        self.calls = []
        self.release = threading.Event()

    def __call__(self, token_ids, cfg, progress, should_stop):
        self.calls.append(cfg.method)
        result = TrainResult(cfg, 10, 100, 2.0)
        while not self.release.wait(0.01):
            if should_stop():
                result.stopped = True
                return result
        progress(result, cfg.steps)
        return result


def wait_for(predicate, seconds=5.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_identical_requests_share_one_run_and_others_queue():
    trainer = FakeTrainer()
    queue = TrainingQueue(workers=1, trainer=trainer)
    a = queue.submit(IDS, TrainConfig(), "alice")
    b = queue.submit(IDS, TrainConfig(), "bob")
    c = queue.submit(IDS, TrainConfig(method="rope"), "carol")
    assert a is b and a.subscribers == {"alice", "bob"}
    assert wait_for(lambda: a.status == "running")
    assert queue.position(a) == 0 and queue.position(c) == 1 and c.status == "queued"
    trainer.release.set()
    assert wait_for(lambda: a.status == "done" and c.status == "done")
    assert trainer.calls == ["learned", "rope"]
    # A finished run is reused, not trained again.
    assert queue.submit(IDS, TrainConfig(), "dave") is a
    assert trainer.calls == ["learned", "rope"]


def test_stop_cancels_only_when_nobody_waits():
    trainer = FakeTrainer()
    queue = TrainingQueue(workers=1, trainer=trainer)
    job = queue.submit(IDS, TrainConfig(), "alice")
    queue.submit(IDS, TrainConfig(), "bob")
    assert wait_for(lambda: job.status == "running")
    queue.stop(job, "alice")
    time.sleep(0.05)
    assert job.status == "running"
    queue.stop(job, "bob")
    assert wait_for(lambda: job.status == "stopped")


def test_finished_runs_are_bounded():
    trainer = FakeTrainer()
    trainer.release.set()
    queue = TrainingQueue(workers=1, keep=2, trainer=trainer)
    jobs = [queue.submit(IDS, TrainConfig(seed=s), "x") for s in range(4)]
    assert wait_for(lambda: all(j.status == "done" for j in jobs))
    queue.submit(IDS, TrainConfig(seed=9), "x")
    assert len(queue.finished_runs([j.key for j in jobs])) <= 2


def test_run_key_depends_on_text_and_settings():
    assert run_key(IDS, TrainConfig()) == run_key(list(IDS), TrainConfig())
    assert run_key(IDS, TrainConfig()) != run_key(IDS[:-1], TrainConfig())
    assert run_key(IDS, TrainConfig()) != run_key(IDS, TrainConfig(steps=301))
