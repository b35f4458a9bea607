"""``ui.cache.kept_chart``: a chart kept while the objects it draws live, built again for new ones."""

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
