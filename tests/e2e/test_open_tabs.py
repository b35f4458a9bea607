"""What is closed is not drawn: a tab's charts are in the page only while it is open, and the address bar
carries the open tab, so a link reopens it (``ui/trained_positions/views.py``, section 1)."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import ScriptRuns, assert_drawn, settled

SAID = "() => [...document.querySelectorAll('.chart-said')].map(e => e.textContent)"
TABLES = ("Trained", "Random", "Sinusoidal")


def heatmaps(page) -> tuple[list[str], list[str]]:
    """The tables whose values heatmap is in the page, and those whose similarity heatmap is."""
    said = page.evaluate(SAID)
    values = [t for t in TABLES if any(s.startswith(f"{t}: a heatmap") for s in said)]
    similarity = [t for t in TABLES if any(s.startswith(f"{t}: similarity:") for s in said)]
    return values, similarity


def test_a_closed_tab_is_not_drawn_and_a_link_reopens_the_open_one(server, browser, page, wait_for_app):
    runs = ScriptRuns(page)
    page.goto(f"{server}/Trained_positions")
    wait_for_app(page)
    settled(page)
    assert heatmaps(page) == (list(TABLES), [])  # the values' tab is open, the similarity's not drawn
    assert_drawn(page, 5, 200, 150)  # its three heatmaps, the curves and the path
    since = runs.finished
    page.get_by_role("tab", name="Their cosine similarity").click()
    expect(page).to_have_url(re.compile(r"tables=Their\+cosine\+similarity"))
    runs.wait_after(since)  # the rerun that draws the open tab (the address bar changes before it ends)
    settled(page)
    assert heatmaps(page) == ([], list(TABLES))
    assert_drawn(page, 5, 200, 150)
    again = browser.new_page(viewport={"width": 1400, "height": 1600})
    try:
        again.goto(page.url)  # the link reopens the same tab
        wait_for_app(again)
        settled(again)
        expect(again.get_by_role("tab", name="Their cosine similarity")).to_have_attribute(
            "aria-selected", "true"
        )
        assert heatmaps(again) == ([], list(TABLES))
    finally:
        again.close()
