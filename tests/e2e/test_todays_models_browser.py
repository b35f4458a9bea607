"""The Today's models page in Chromium: its strips (a cell per layer or pair, a bar per head) are drawn
with a size and their letters at a back row's 16 px, at desktop and phone width, and its charts too."""

from tests.e2e.conftest import assert_drawn, settled
from tests.e2e.layout import MIN_CHART_WIDTH

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
    settled(page)
    strips = page.evaluate(_STRIPS_JS)
    assert [s["cells"] for s in strips] == [48, 62, 30, 24, 64, 64, 2, 2, 2, 2]  # layers, pairs, heads' parts
    for s in strips:
        assert s["narrowest"] >= 20 and s["lowest"] >= 20 and s["smallest"] >= 16, s
        assert s["right"] <= s["edge"] + 1, s  # wrapped inside its box, nothing past the right edge
    assert_drawn(page, 6, MIN_CHART_WIDTH[size], 150)  # two masks, temperature, wavelengths, two scores
