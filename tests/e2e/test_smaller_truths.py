"""In Chromium: what a person sees after each fix.

- Families chart 1: the learned panel's axis ends at its last row, not at its neighbours' 260.
- The preset list shows model names; the address bar keeps the preset's name, and a preset sets a
  stride of its context (and the batch the text's windows allow).
- 10,000 pasted newlines: the page finishes and draws at most 240 chips, with a list of which 240.
"""

from __future__ import annotations

import io
import re

from PIL import Image
from playwright.sync_api import expect

from core.positional.family import FAMILIES
from core.views.color_vision import hex_to_rgb
from tests.e2e.conftest import settled

# the learned family's colour (its panel's line and points), 0 … 255 a channel
LEARNED_BLUE = tuple(round(255 * c) for c in hex_to_rgb(FAMILIES["learned"].color))


def blue_columns(png: bytes) -> tuple[float, float]:
    """The leftmost and rightmost column (as shares of the width) holding the learned colour, in the
    middle band of a panel's screenshot: below its title and subtitle, above its axis labels."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    columns = [
        x
        for x in range(width)
        for y in range(int(height * 0.3), int(height * 0.75), 2)
        if sum(abs(a - b) for a, b in zip(image.getpixel((x, y)), LEARNED_BLUE, strict=True)) < 60
    ]
    assert columns, "no learned line drawn"
    return min(columns) / width, max(columns) / width


def test_the_learned_panel_fits_its_axis_to_its_rows(server, page, wait_for_app, wait_for_charts):
    page.goto(server + "/Families")  # T = 4; the other panels run to 255
    wait_for_app(page)
    wait_for_charts(page)
    panel = page.get_by_test_id("stVegaLiteChart").nth(1)  # chart 1, in the registry's order: NoPE, learned
    panel.scroll_into_view_if_needed()
    box = panel.bounding_box()
    assert box["width"] > 200 and box["height"] > 150  # drawn, with a size
    left, right = drawn_columns(page, panel)
    # Before, its 4 points sat in the first 2 % of an axis to 260; now r = 0 … 3 span the plot.
    assert right - left > 0.5, (left, right)
    nope_left, nope_right = blue_columns_or_none(page.get_by_test_id("stVegaLiteChart").nth(0).screenshot())
    assert nope_left is None  # the panel beside it is NoPE's, in its own colour
    caption = page.get_by_text("Learned absolute's axis ends there: its table has rows 0…3 only")
    expect(caption).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0


def drawn_columns(page, panel, tries: int = 20) -> tuple[float, float]:
    """The learned line's columns once Vega has drawn it (under load it can come a moment after the
    chart's box)."""
    for _ in range(tries - 1):
        left, right = blue_columns_or_none(panel.screenshot())
        if left is not None:
            return left, right
        page.wait_for_timeout(500)
    return blue_columns(panel.screenshot())


def blue_columns_or_none(png: bytes) -> tuple[float | None, float | None]:
    try:
        return blue_columns(png)
    except AssertionError:
        return None, None


def test_the_preset_list_shows_model_names_and_sets_a_stride(server, page, wait_for_app, switch_page):
    page.goto(server + "/Pipeline")
    wait_for_app(page)
    settled(page)
    box = page.get_by_test_id("stSidebar").get_by_role("combobox", name="Preset", exact=True)
    expect(box).to_have_value("The book's setting (ch. 2.8)")  # the defaults are the book's
    box.click()
    options = page.get_by_role("option")
    expect(options.first).to_be_visible()
    names = [o.inner_text().strip() for o in options.all()]
    assert "GPT-2 small (124M)" in names and "LLaMA-3 8B" in names
    assert not {"gpt2-small", "llama3-8b", "custom"} & set(names)  # no raw keys
    options.filter(has_text=re.compile(r"^LLaMA-3 8B$")).click()
    expect(box).to_have_value("LLaMA-3 8B")
    settled(page, timeout=120_000)
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_role("spinbutton", name="Stride", exact=True)).to_have_value("8192")
    expect(sidebar.get_by_role("spinbutton", name="Batch B", exact=True)).to_have_value("1")
    expect(page.get_by_text("LLaMA-3 8B sets the stride to its context, 8,192")).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]preset=llama3-8b(&|$)"))  # the name, not the label
    expect(page).to_have_url(re.compile(r"[?&]stride=8192(&|$)"))
    switch_page(page, "Families side by side", re.compile("Positional-encoding families"))
    expect(page).to_have_url(re.compile(r"/Families\?.*preset=llama3-8b"))  # kept through a page switch
    expect(page.get_by_test_id("stSidebar").get_by_role("combobox", name="Preset", exact=True)).to_have_value(
        "LLaMA-3 8B"
    )
    assert page.get_by_test_id("stException").count() == 0


def test_ten_thousand_pasted_newlines_draw_240_chips_and_say_so(server, browser):
    """A real paste (the clipboard), as a student would: Playwright's ``fill`` types the text through
    Chromium's editing, which takes ~100 s for 10,000 line breaks even in a bare ``<textarea>``, while a
    paste of them takes a fraction of a second (measured here)."""
    context = browser.new_context(
        permissions=["clipboard-read", "clipboard-write"], viewport={"width": 1400, "height": 1600}
    )
    page = context.new_page()
    try:
        page.goto(server + "/Pipeline")
        settled(page, timeout=90_000)
        sidebar = page.get_by_test_id("stSidebar")
        sidebar.get_by_text("Paste", exact=True).click()
        area = sidebar.get_by_role("textbox", name="Paste text")
        expect(area).to_be_editable(timeout=30_000)
        area.focus()
        page.evaluate("n => navigator.clipboard.writeText('\\n'.repeat(n))", 10_000)
        page.keyboard.press("Control+V")
        expect(area).to_have_js_property("value", "\n" * 10_000)
        area.press("Control+Enter")
        caption = page.get_by_text("pasted text: 10,000 characters → 5,000 tokens", exact=False)
        expect(caption).to_be_visible(timeout=60_000)
        settled(page)  # the page finished: no script running, every chart drawn
        expect(page.get_by_text("Tokens shown (240 at a time; the text has 5,000)")).to_be_visible()
        chips = page.locator(".st-key-chips-token [role='radiogroup']")
        expect(chips.locator("> button")).to_have_count(240, timeout=30_000)
        assert chips.bounding_box()["height"] > 50
        assert page.get_by_test_id("stException").count() == 0
    finally:
        context.close()
