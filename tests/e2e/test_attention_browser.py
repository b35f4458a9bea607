"""The Attention page in Chromium: every heatmap is drawn with a size, at desktop and phone
width, and in presenter mode each section fits a 1280 × 720 projector."""

from playwright.sync_api import expect

from tests.e2e.conftest import PROJECTOR, assert_drawn, content_height
from tests.e2e.layout import MIN_CHART_WIDTH, layout_problems, settle_layout

CHARTS = 2 + 4 + 2 + 4  # one query's row (scores, weights), where the family acts, A beside B, the 4 relative


def test_every_heatmap_is_drawn_with_a_size(server, sized_page, wait_for_app, wait_for_charts, shots):
    size, page = sized_page
    page.goto(f"{server}/Attention?method=alibi&maps=Relative")  # every family's maps: the relative tab
    wait_for_app(page)
    wait_for_charts(page)
    settle_layout(page, MIN_CHART_WIDTH[size])
    assert page.get_by_test_id("stException").count() == 0
    assert_drawn(page, CHARTS, MIN_CHART_WIDTH[size], 150)
    assert layout_problems(page, MIN_CHART_WIDTH[size]) == []
    expect(page.get_by_text("' cat' moved from position 1 to 4.")).to_be_visible()
    page.screenshot(path=str(shots / f"attention_{size}.png"), full_page=True)


def test_presenter_mode_asks_first_and_every_section_fits_a_projector(
    server, projector_page, wait_for_app, shots
):
    page = projector_page
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
        heights.append(content_height(page))
        if slide < 6:
            page.get_by_role("button", name="Next ▶").click()
    assert max(heights) <= PROJECTOR["height"], heights
    assert page.get_by_test_id("stException").count() == 0
