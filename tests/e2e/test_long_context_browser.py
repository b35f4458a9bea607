"""The Long context page in Chromium: each section's tab draws its charts with a size at desktop and
phone width, a preset switch redraws them, and in presenter mode each section fits a 1280 × 720 projector."""

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.conftest import PROJECTOR, assert_drawn, content_height, written
from tests.e2e.layout import MIN_CHART_WIDTH, drawn_size, layout_problems, settle_layout
from ui.long_context.views import SECTION_TABS

# Each numbered section's tab and its charts: the wavelengths and the slow-down, the score against
# distance, the attention factor, the measured loss.
CHARTS = dict(zip(SECTION_TABS, (2, 1, 1, 1), strict=True))


def test_every_chart_is_drawn_with_a_size(server, sized_page, wait_for_app, wait_for_charts, shots):
    size, page = sized_page
    page.goto(f"{server}/Long_context")
    wait_for_app(page)
    wait_for_charts(page)
    expect(written(page, "Of the 64 pairs: 29 kept as trained")).to_be_visible()
    for k, (tab, charts) in enumerate(CHARTS.items()):
        if k:
            page.get_by_role("tab", name=tab).click()
            wait_for_charts(page)
        settle_layout(page, MIN_CHART_WIDTH[size])
        assert page.get_by_test_id("stException").count() == 0
        assert_drawn(page, charts, MIN_CHART_WIDTH[size], 250)
        assert layout_problems(page, MIN_CHART_WIDTH[size]) == []
        page.screenshot(path=str(shots / f"long_context_{size}_{k + 1}.png"), full_page=True)


def test_a_preset_switch_redraws_the_page(server, page, wait_for_app, wait_for_settled):
    page.goto(f"{server}/Long_context")
    wait_for_app(page)
    wait_for_settled(page)
    page.get_by_test_id("stExpander").filter(has_text="Change the model").locator("summary").click()
    wait_for_settled(page)  # opening it reruns the page: a list opened during the rerun closes again
    box = page.get_by_test_id("stSelectbox").filter(has_text="Preset: a released model's config")
    option = page.get_by_role("option", name="DeepSeek-V3 (YaRN ×40 on 4,096)")
    for _ in range(3):  # a rerun that ends while the list is open closes it (seen on a loaded machine)
        box.click()
        try:
            option.click(timeout=10_000)
            break
        except PlaywrightTimeout:
            wait_for_settled(page)
    expect(written(page, "Of the 32 pairs: 11 kept as trained")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("DeepSeek-V3: trained on texts of up to L = 4,096 positions")).to_be_visible()
    wait_for_settled(page)
    lengths = page.get_by_test_id("stMetricValue").filter(has_text="163,840")
    expect(lengths).to_have_count(2)  # the answer's number, and L' among the numbers
    expect(lengths.first).to_be_visible()
    expect(page.get_by_text("DeepSeek-V3 was trained on texts of up to L = 4,096 positions")).to_be_visible()
    assert_drawn(page, CHARTS[SECTION_TABS[0]], MIN_CHART_WIDTH["desktop"], 250)
    assert page.get_by_test_id("stException").count() == 0


def test_presenter_mode_asks_first_and_every_section_fits_a_projector(
    server, projector_page, wait_for_app, wait_for_settled, shots
):
    page = projector_page
    page.goto(f"{server}/Long_context?present=true")
    wait_for_app(page)
    heights = []
    for section, charts in ((1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 1)):  # the story: two slides
        expect(page.get_by_text(f"Section {section} of 6")).to_be_visible(timeout=30_000)
        wait_for_settled(page)  # the run has finished: no stale charts of the section before
        if section == 3:
            expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(0)  # the answer waits for a guess
            page.get_by_role("textbox").last.fill("29")
            page.get_by_role("button", name="Reveal").click()
            expect(page.get_by_text("You predicted 29; the answer is 29 pairs — right!")).to_be_visible(
                timeout=30_000
            )
            wait_for_settled(page)
        assert_drawn(page, charts, 200, 150)
        page.screenshot(path=str(shots / f"long_context_presenter_{section}.png"))
        heights.append(content_height(page))
        if section < 6:
            page.get_by_role("button", name="Next ▶").click()
    assert max(heights) <= PROJECTOR["height"], heights
    assert page.get_by_test_id("stException").count() == 0


def test_the_measured_extrapolation_is_drawn_with_a_size(server, page, wait_for_app, wait_for_settled):
    page.goto(f"{server}/Long_context")
    wait_for_app(page)
    wait_for_settled(page)
    page.get_by_role("tab", name=SECTION_TABS[3]).click()
    expect(page.get_by_role("heading", name="4. Measured: a tiny RoPE model")).to_be_visible(timeout=30_000)
    wait_for_settled(page)
    section = page.get_by_test_id("stVerticalBlock").filter(
        has=page.get_by_role("heading", name="4. Measured: a tiny RoPE model")
    )
    chart = page.get_by_test_id("stVegaLiteChart").last
    drawing = chart.locator("canvas, svg").first
    drawing.scroll_into_view_if_needed()
    width, height = drawn_size(drawing)
    assert width >= MIN_CHART_WIDTH["desktop"] and height >= 250, (width, height)
    expect(section.get_by_text("A tiny GPT-style model with RoPE").first).to_be_visible()
    expect(section.get_by_text("In this one run plain RoPE comes out lowest").first).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
