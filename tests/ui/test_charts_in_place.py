"""A new Seed sends every chart the same spec (the browser keeps its view and replaces only its data)
and new data where the chart draws the seed's numbers."""

import pytest

from tests.ui.drawn_charts import drawn

PAGES = {  # page: how many of its charts draw numbers the seed makes
    "pages/Pipeline.py": 3,
    "pages/Attention.py": 11,  # every family's maps: only the open tab's
    "pages/Families.py": 5,  # the first section's panels that read the seed: only the open tab is drawn
    "pages/Long_context.py": 0,
    "pages/Trained_positions.py": 1,  # the random table's heatmap: only the first section's open tab is drawn
}


@pytest.mark.parametrize("page", PAGES)
def test_a_new_seed_keeps_every_charts_spec_and_sends_new_data(page, open_page):
    at = open_page(page)
    before = drawn(at)
    at.sidebar.number_input(key="seed").set_value(4321).run()
    assert not at.exception
    after = drawn(at)
    assert before and [d.sent[0] for d in after] == [d.sent[0] for d in before]
    assert sum(a.sent != b.sent for a, b in zip(after, before, strict=True)) == PAGES[page]
