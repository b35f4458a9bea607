"""``ui.cache``'s helpers: ``kept_chart`` (a chart kept while the objects it draws live) and
``per_process`` (results kept by their arguments' values)."""

import gc

import torch

from ui import cache


def test_a_chart_is_kept_while_what_it_draws_lives_and_built_again_for_a_new_object():
    built = []

    def build():
        built.append(1)
        return object(), 100

    values = torch.zeros(3)
    first = cache.kept_chart(("test", "a"), (values,), build)
    assert cache.kept_chart(("test", "a"), (values,), build) is first and len(built) == 1
    assert cache.kept_chart(("test", "b"), (values,), build) is not first and len(built) == 2  # another key
    other = torch.zeros(3)  # equal values, another tensor: a kept chart draws its own object only
    assert cache.kept_chart(("test", "a"), (other,), build) is not first and len(built) == 3
    del values, first
    gc.collect()
    reused = torch.zeros(3)  # may take the freed tensor's id: its dead reference tells them apart
    assert cache.kept_chart(("test", "a"), (reused,), build) is not None and len(built) == 4


def test_per_process_keeps_results_by_the_arguments_values_and_drops_the_oldest():
    from core.config import PipelineConfig

    calls = []

    @cache.per_process(max_entries=2)
    def square(cfg: PipelineConfig, settings: tuple) -> object:
        calls.append((cfg, settings))
        return object()

    a = square(PipelineConfig(), (("heads", 4),))
    assert square(PipelineConfig(), (("heads", 4),)) is a and len(calls) == 1  # equal arguments
    b = square(PipelineConfig(output_dim=64), (("heads", 4),))
    assert b is not a and len(calls) == 2
    square(PipelineConfig(), (("heads", 8),))  # a third: the least recently used (a) is dropped
    assert square(PipelineConfig(output_dim=64), (("heads", 4),)) is b and len(calls) == 3
    assert square(PipelineConfig(), (("heads", 4),)) is not a and len(calls) == 4
    square.clear()
    square(PipelineConfig(output_dim=64), (("heads", 4),))
    assert len(calls) == 5


def test_per_process_computes_a_result_once_while_others_wait_for_it():
    import threading
    import time

    calls = []

    @cache.per_process(max_entries=4)
    def slow(n: int) -> object:
        calls.append(n)
        time.sleep(0.2)  # thirty sessions opening a page together all ask while it computes
        if n < 0:
            raise ValueError("no")
        return object()

    results = []
    threads = [threading.Thread(target=lambda: results.append(slow(1))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [1] and len(results) == 8 and all(r is results[0] for r in results)
    for _ in range(2):  # a failure is not kept: the next call computes again
        try:
            slow(-1)
        except ValueError:
            pass
    assert calls == [1, -1, -1]
