"""A change in the sidebar updates the page in the browser: every chart keeps its Vega view and shows
its new numbers (its spec does not change with them: ui/charts.py), the first change after opening
included; tables are drawn as HTML."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ScriptRuns, settled

# Every drawn chart's view, marked as seen before the change: a chart built again comes back unmarked.
MARK = """() => document.querySelectorAll('[data-testid=stVegaLiteChart] .marks')
  .forEach(view => { view.dataset.seen = '1'; })"""
# Each view: whether it is the one seen before, and what it draws (its picture as the browser holds it).
VIEWS = """() => [...document.querySelectorAll('[data-testid=stVegaLiteChart] .marks')].map(view => [
  view.dataset.seen === '1',
  view.tagName === 'CANVAS' ? view.toDataURL() : view.innerHTML,
])"""
PAGES = {"Pipeline": 3, "Attention": 11, "Families": 5, "Trained_positions": 1, "Long_context": 0}  # redrawn


@pytest.mark.parametrize("path", PAGES)
def test_a_seed_change_updates_every_chart_in_place(path, server, page, wait_for_app, wait_for_charts):
    runs = ScriptRuns(page)
    page.goto(f"{server}/{path}")  # opened without settings in its link: the first run differs
    wait_for_app(page)
    wait_for_charts(page)
    settled(page)
    seed = page.get_by_role("spinbutton", name="Seed", exact=True)
    for value in ("7", "8"):  # the first change after opening, then another
        before = page.evaluate(VIEWS)
        page.evaluate(MARK)
        since = runs.finished
        seed.fill(value)
        seed.press("Enter")
        runs.wait_after(since)
        settled(page)
        after = page.evaluate(VIEWS)
        assert len(after) == len(before) > 0 and all(kept for kept, _ in after), [k for k, _ in after]
        redrawn = sum(a[1] != b[1] for a, b in zip(after, before, strict=True))
        assert redrawn >= PAGES[path], redrawn  # the same views, drawing the new seed's numbers
    assert page.get_by_test_id("stDataFrame").count() == 0  # tables are HTML


def test_a_table_shows_tokens_as_text(server, page, wait_for_app):
    """A token is shown quoted, as the sentences write it (its leading space visible), its Markdown
    characters as text (Streamlit draws a table's cells as Markdown)."""
    page.goto(server + "/Why_position?a=x%20**%20y%20%24%24%20z&b=z%20%24%24%20y%20**%20x")
    wait_for_app(page)
    settled(page)
    cells = page.get_by_test_id("stTable").first.locator("tbody tr td:first-child")
    expect(cells.filter(has_text="' **'")).to_have_count(1)
    expect(cells.filter(has_text="' $$'")).to_have_count(1)
