import threading
import time

import torch

from core.serving import lru
from core.serving.lru import ByteLRU, nbytes


def test_nbytes_counts_tensors_inside_containers():
    t = torch.zeros(1000)  # 4,000 bytes
    assert nbytes(t) == 4000
    assert 8000 <= nbytes((t, [t])) < 8400
    assert nbytes(list(range(100_000))) > 2_800_000  # 28 bytes an int and 8 a pointer, at least


def test_the_total_never_exceeds_the_budget_and_recent_entries_stay():
    cache = ByteLRU(max_bytes=10_000)
    calls = []

    @cache.cached
    def table(n: int) -> torch.Tensor:
        calls.append(n)
        return torch.zeros(500)  # 2,000 bytes

    for n in range(8):
        table(n)
    assert cache.total <= 10_000 and len(cache) == 5  # the three oldest were dropped
    table(7)
    table(3)
    assert calls == list(range(8))  # 7 and 3 were kept
    table(0)
    assert calls[-1] == 0  # 0 was dropped, so computed again


def test_a_result_bigger_than_the_budget_is_not_kept():
    cache = ByteLRU(max_bytes=100)
    cache.put("big", torch.zeros(1000))
    assert len(cache) == 0 and cache.total == 0
    assert cache.get("big") == (False, None)


def test_sessions_asking_at_once_for_a_missing_result_compute_it_once():
    cache = ByteLRU(max_bytes=10**6)
    calls, start = [], threading.Barrier(8)

    @cache.cached
    def table(n: int) -> torch.Tensor:
        calls.append(n)
        time.sleep(0.2)  # long enough for every other session to ask meanwhile
        return torch.full((10,), float(n))

    results = []

    def session() -> None:
        start.wait()
        results.append(table(3))

    threads = [threading.Thread(target=session) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [3]  # once, not eight times
    assert len(results) == 8 and all(r is results[0] for r in results)
    assert cache._computing == {}  # no lock left behind


def test_a_session_waits_for_another_computation_only_so_long(monkeypatch):
    # A computation that waits on what the waiters hold (memory) must not block them for good.
    monkeypatch.setattr(lru, "WAIT_FOR_OTHERS_SECONDS", 0.1)
    cache = ByteLRU(max_bytes=10**6)
    release, entered = threading.Event(), threading.Event()

    def stuck() -> None:
        with cache.one_at_a_time("key"):
            entered.set()
            release.wait(5)

    holder = threading.Thread(target=stuck)
    holder.start()
    entered.wait(5)
    began = time.perf_counter()
    with cache.one_at_a_time("key"):  # goes ahead after the wait
        waited = time.perf_counter() - began
    release.set()
    holder.join()
    assert 0.09 <= waited < 2
    assert cache._computing == {}


def test_an_entry_bound_drops_the_least_recently_used_past_it():
    from core.serving.lru import ByteLRU

    lru = ByteLRU(10**9, max_entries=2)
    for key in "abc":
        lru.put(key, 1)
    assert [lru.get(k)[0] for k in "abc"] == [False, True, True] and len(lru) == 2


def test_a_cached_function_counts_its_hits_and_builds_under_its_qualified_name():
    from core.serving.lru import Counts

    cache = ByteLRU(10**6, max_entries=1)

    @cache.cached
    def square(n: int) -> int:
        return n * n

    name = f"{__name__}.{square.__qualname__}"
    assert cache.counts() == {name: Counts()}  # made: counted before its first call
    assert [square(n) for n in (2, 2, 3, 2)] == [4, 4, 9, 4]  # 2 was dropped for 3: built again
    assert cache.counts()[name] == Counts(hits=1, builds=3)
    cache.clear()
    assert cache.counts()[name] - Counts(hits=1, builds=1) == Counts(hits=0, builds=2)  # counts stay
