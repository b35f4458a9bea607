"""A change in the sidebar updates the page in the browser: a chart whose picture did not change stays
drawn (it is not built again), the first change after opening included; tables are drawn as HTML."""

from playwright.sync_api import expect

from tests.e2e.conftest import ScriptRuns, settled

# Every drawn chart, each marked as seen before the change: a chart built again comes back unmarked.
MARK = """() => document.querySelectorAll('[data-testid=stVegaLiteChart] .marks')
  .forEach(view => { view.dataset.seen = '1'; })"""
KEPT = """() => [...document.querySelectorAll('[data-testid=stVegaLiteChart] .marks')]
  .map(view => view.dataset.seen === '1')"""


def test_a_seed_change_keeps_the_charts_it_does_not_change(server, page, wait_for_app, wait_for_charts):
    runs = ScriptRuns(page)
    page.goto(server + "/Pipeline")  # opened without settings in its link: the first run differs
    wait_for_app(page)
    wait_for_charts(page)
    settled(page)
    seed = page.get_by_role("spinbutton", name="Seed", exact=True)
    for value in ("7", "8"):  # the first change after opening, then another
        page.evaluate(MARK)
        since = runs.finished
        seed.fill(value)
        seed.press("Enter")
        runs.wait_after(since)
        settled(page)
        kept = page.evaluate(KEPT)
        # The two charts of the token IDs do not read the seed; the three tables of values do.
        assert len(kept) == 5 and kept.count(True) == 2, kept
    expect(page.get_by_test_id("stTable").first).to_be_visible()
    assert page.get_by_test_id("stDataFrame").count() == 0


def test_a_table_shows_tokens_as_text(server, page, wait_for_app):
    """A token is shown quoted, as the sentences write it (its leading space visible), its Markdown
    characters as text (Streamlit draws a table's cells as Markdown)."""
    page.goto(server + "/Why_position?a=x%20**%20y%20%24%24%20z&b=z%20%24%24%20y%20**%20x")
    wait_for_app(page)
    settled(page)
    cells = page.get_by_test_id("stTable").first.locator("tbody tr td:first-child")
    expect(cells.filter(has_text="' **'")).to_have_count(1)
    expect(cells.filter(has_text="' $$'")).to_have_count(1)
