"""Vocab size in Chromium: moving V re-tokenizes the text, and the trade-off charts are drawn."""

import re

from playwright.sync_api import expect

from tests.e2e.layout import drawn_size


def chip_ids(page) -> list[int]:
    """The token IDs the first row of chips shows, once it is drawn (the frontend mounts elements lazily:
    the script can have finished, and no chart be mounted yet, before the chips are on the page)."""
    chips = page.locator(".st-key-chips-token [role='radiogroup'] > button")
    expect(chips.first).to_be_visible(timeout=30_000)
    return [int(re.findall(r"[0-9]+", s)[-1]) for s in chips.all_inner_texts()]  # piece, then ID


def test_moving_v_changes_the_chips_and_the_marked_charts(server, page, wait_for_app, wait_for_settled):
    page.goto(server + "/Pipeline?batch=2")
    wait_for_app(page)
    wait_for_settled(page)
    before = chip_ids(page)
    assert max(before) > 1000  # whole words, GPT-2's IDs
    box = page.get_by_role("spinbutton", name="Vocab V", exact=True)
    box.fill("300")
    box.press("Enter")
    captions = page.get_by_test_id("stMain").get_by_test_id("stCaptionContainer")
    caption = captions.filter(has_text="GPT-2's BPE cut to its first 300 tokens").first
    expect(caption).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"vocab=300"))
    wait_for_settled(page)
    after = chip_ids(page)
    assert max(after) < 300 and after != before[: len(after)]
    total = re.search(r"→ ([\d,]+) tokens", caption.inner_text()).group(1)
    assert int(total.replace(",", "")) > len(before)
    charts = page.get_by_test_id("stVegaLiteChart")
    for k in (0, 1):  # the two trade-off charts beside the chips
        width, height = drawn_size(charts.nth(k))
        assert width >= 250 and height >= 200, (k, width, height)
    assert "V = 300" in page.get_by_test_id("stMain").inner_text()
    assert page.get_by_test_id("stException").count() == 0
