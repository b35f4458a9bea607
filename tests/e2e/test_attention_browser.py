"""The Attention page in Chromium: every heatmap is drawn with a size, at desktop and phone
width, and in presenter mode each section fits a 1280 × 720 projector."""

import pytest
from playwright.sync_api import expect

from tests.e2e.layout import MIN_CHART_WIDTH, VIEWPORTS, drawn_size, layout_problems, settle_layout

CHARTS = 2 + 4 + 2 + 7  # one query's row (scores, weights), where the family acts, A beside B, every family
PROJECTOR = (1280, 720)
SCROLL_HEIGHT_JS = """() => (document.querySelector('[data-testid="stAppScrollToBottomContainer"]')
    || document.querySelector('[data-testid="stMain"]')).scrollHeight"""


@pytest.fixture(params=list(VIEWPORTS))
def sized_page(request, browser):
    width, height = VIEWPORTS[request.param]
    page = browser.new_page(viewport={"width": width, "height": height})
    yield request.param, page
    page.close()


def assert_drawn(page, count: int, min_width: float, min_height: float) -> None:
    """``count`` charts, each a canvas or svg the browser laid out at least this wide and tall."""
    charts = page.get_by_test_id("stVegaLiteChart")
    expect(charts).to_have_count(count)
    for k in range(count):
        drawing = charts.nth(k).locator("canvas, svg").first
        drawing.scroll_into_view_if_needed()
        width, height = drawn_size(drawing)
        assert width >= min_width and height >= min_height, (k, width, height)


def test_every_heatmap_is_drawn_with_a_size(server, sized_page, wait_for_app, wait_for_charts, shots):
    size, page = sized_page
    page.goto(f"{server}/Attention?method=alibi")
    wait_for_app(page)
    wait_for_charts(page)
    settle_layout(page, MIN_CHART_WIDTH[size])
    assert page.get_by_test_id("stException").count() == 0
    assert_drawn(page, CHARTS, MIN_CHART_WIDTH[size], 150)
    assert layout_problems(page, MIN_CHART_WIDTH[size]) == []
    expect(page.get_by_text("' cat' moved from position 1 to 4.")).to_be_visible()
    page.screenshot(path=str(shots / f"attention_{size}.png"), full_page=True)


def test_presenter_mode_asks_first_and_every_section_fits_a_projector(server, browser, wait_for_app, shots):
    page = browser.new_page(viewport=dict(zip(("width", "height"), PROJECTOR, strict=True)))
    page.goto(f"{server}/Attention?method=alibi&present=true")
    wait_for_app(page)
    heights = []
    # presenting: the bridge's words, then its picture; content, position part, weights; A and B; every
    # family, the others' then the relative ones' (seven maps with every token labelled fill two slides)
    for slide, charts in ((1, 0), (2, 2), (3, 3), (4, 2), (5, 3), (6, 4)):
        expect(page.get_by_text(f"Section {slide} of 6")).to_be_visible(timeout=30_000)
        if slide == 4:
            expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(0)  # the answer waits for a guess
            page.get_by_role("textbox").last.fill("-2")  # ALiBi's slope 1/2, 4 tokens back
            page.get_by_role("button", name="Reveal").click()
            expect(page.get_by_test_id("stAlertContentSuccess")).to_be_visible(timeout=30_000)
        assert_drawn(page, charts, 200, 100)
        page.screenshot(path=str(shots / f"attention_presenter_{slide}.png"))
        heights.append(page.evaluate(SCROLL_HEIGHT_JS))
        if slide < 6:
            page.get_by_role("button", name="Next ▶").click()
    assert max(heights) <= PROJECTOR[1], heights
    assert page.get_by_test_id("stException").count() == 0
    page.close()
