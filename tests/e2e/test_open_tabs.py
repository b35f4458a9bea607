"""What is closed is not drawn: a tab's charts are in the page only while it is open, and the address bar
carries the open tab, so a link reopens it (``ui/open_tabs.py``: Trained positions' sections and tables, the
Attention page's maps of every family, Long context's numbered sections)."""

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from core.positional.family import FAMILIES
from tests.e2e.conftest import ScriptRuns, assert_drawn, settled
from ui.long_context.views import SECTION_TABS
from ui.trained_positions.views import SECTION_TABS as TRAINED_TABS

SAID = "() => [...document.querySelectorAll('.chart-said')].map(e => e.textContent)"
TABLES = ("Trained", "Random", "Sinusoidal")
ABSOLUTE = tuple(f.label for f in FAMILIES.values() if f.kind != "relative")
RELATIVE = tuple(f.label for f in FAMILIES.values() if f.kind == "relative")


@dataclass(frozen=True)
class Tabs:
    path: str
    closed: str  # the label of the tab that opens closed
    parameter: str  # its URL parameter, as the address bar writes it once that tab is open
    first: tuple[str, ...]  # the charts the open tab draws, by the start of their sentence
    second: tuple[str, ...]  # the closed tab's
    charts: tuple[int, int]  # the charts on the page with the first tab open, then the other

    def drawn(self, page) -> tuple[list[str], list[str]]:
        """Which of ``first`` and of ``second`` are in the page."""
        said = page.evaluate(SAID)
        return [s for s in self.first if any(t.startswith(s) for t in said)], [
            s for s in self.second if any(t.startswith(s) for t in said)
        ]


CASES = {
    "Trained_positions": Tabs(
        "/Trained_positions",
        "Their cosine similarity",
        r"tables=Their\+cosine\+similarity",
        tuple(f"{t}: a heatmap" for t in TABLES),
        tuple(f"{t}: similarity:" for t in TABLES),
        (3, 3),  # three heatmaps (the page's other sections are tabs of their own, closed)
    ),
    "Trained_positions sections": Tabs(
        "/Trained_positions",
        TRAINED_TABS[2],
        r"trained_section=3\.\+The\+path",
        tuple(f"{t}: a heatmap" for t in TABLES),
        ("Positions 0–47",),
        (3, 1),  # then the path alone
    ),
    "Attention": Tabs(
        "/Attention",
        "Relative",
        r"maps=Relative",
        tuple(f"{label} changes " for label in ABSOLUTE),  # each map's sentence: its signature
        tuple(f"{label} changes " for label in RELATIVE),
        (0, 0),  # (counted in test_chart_names: the tabs hold different numbers of maps)
    ),
    "Long_context": Tabs(
        "/Long_context",
        SECTION_TABS[3],
        r"section=4\.\+Measured",
        ("Positions per full turn", "How much each pair"),
        ("Before position",),
        (0, 0),  # (counted in test_long_context_browser: two charts, then one)
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_closed_tab_is_not_drawn_and_a_link_reopens_the_open_one(case, server, tabs, page, wait_for_app):
    case = CASES[case]
    runs = ScriptRuns(page)
    page.goto(f"{server}{case.path}")
    wait_for_app(page)
    settled(page)
    assert case.drawn(page) == (list(case.first), [])  # the first tab is open, the other not drawn
    if case.charts[0]:
        assert_drawn(page, case.charts[0], 200, 150)
    since = runs.finished
    page.get_by_role("tab", name=case.closed).click()
    expect(page).to_have_url(re.compile(case.parameter))
    runs.wait_after(since)  # the rerun that draws the open tab (the address bar changes before it ends)
    settled(page)
    assert case.drawn(page) == ([], list(case.second))
    if case.charts[1]:
        assert_drawn(page, case.charts[1], 200, 150)
    again = tabs.new_page({"width": 1400, "height": 1600})
    try:
        again.goto(page.url)  # the link reopens the same tab
        wait_for_app(again)
        settled(again)
        expect(again.get_by_role("tab", name=case.closed)).to_have_attribute("aria-selected", "true")
        assert case.drawn(again) == ([], list(case.second))
    finally:
        again.close()
