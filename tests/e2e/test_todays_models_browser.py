"""The Today's models page in Chromium: in each section's tab, its strips (a cell per layer or pair, a bar
per head) are drawn with a size and their letters at a back row's 16 px, at desktop and phone width, and
its charts too."""

from playwright.sync_api import expect

from tests.e2e.conftest import assert_drawn, settled
from tests.e2e.layout import MIN_CHART_WIDTH
from ui.todays_models.views import SECTION_TABS

# Each tab's strips (their cells: layers, pairs, a head's parts) and charts.
TABS = {
    SECTION_TABS[0]: ([48], 3),  # Llama 4's layers; two masks, the temperature
    SECTION_TABS[1]: ([62, 30, 24], 2),  # Gemma 3's, Gemma 4's and gpt-oss's layers; wavelengths, scores
    SECTION_TABS[2]: ([64, 64], 0),  # Qwen2.5-VL's and Qwen3-VL's pairs
    SECTION_TABS[3]: ([2, 2, 2, 2], 1),  # four heads' parts; the kept scores
}

_STRIPS_JS = """() => [...document.querySelectorAll('.strip')].map(strip => {
  const cells = [...strip.querySelectorAll('.strip-cell')];
  const boxes = cells.map(c => c.getBoundingClientRect());
  return {
    name: strip.getAttribute('aria-label'),
    cells: cells.length,
    narrowest: Math.min(...boxes.map(b => b.width)),
    lowest: Math.min(...boxes.map(b => b.height)),
    smallest: Math.min(...cells.map(c => parseFloat(getComputedStyle(c).fontSize))),
    right: Math.max(...boxes.map(b => b.right)),
    edge: strip.getBoundingClientRect().right,
  };
})"""


def test_every_strip_and_chart_is_drawn_with_a_size(server, sized_page, wait_for_app):
    size, page = sized_page
    page.goto(f"{server}/Todays_models")
    wait_for_app(page)
    for k, (tab, (cells, charts)) in enumerate(TABS.items()):
        if k:
            page.get_by_role("tab", name=tab).click()
            expect(page.get_by_role("heading", name=f"{k + 1}. ")).to_be_visible(timeout=30_000)
        settled(page)
        strips = page.evaluate(_STRIPS_JS)
        assert [s["cells"] for s in strips] == cells, tab
        for s in strips:
            assert s["narrowest"] >= 20 and s["lowest"] >= 20 and s["smallest"] >= 16, s
            assert s["right"] <= s["edge"] + 1, s  # wrapped inside its box, nothing past the right edge
        assert_drawn(page, charts, MIN_CHART_WIDTH[size], 150)
