import torch

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
