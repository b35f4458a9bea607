"""Follow one token in Chromium: a chip picks it without reloading the page, the address bar keeps it,
its marks are drawn with a size, and the link reopens it."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import app_ready, settled

HOSTILE = "<b>tag</b> $x$ **bold** and some more words to fill the windows"


def chips(page):
    return page.locator(".st-key-chips-token [role='radiogroup'] > button")


def has_size(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["width"] > 0 and box["height"] > 0


def test_a_click_on_the_sixth_chip_follows_it_and_the_link_reopens_it(server, page, tabs):
    page.goto(server + "/Pipeline")
    app_ready(page)
    settled(page)
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the click reloaded the page
    chips(page).nth(5).click()
    page.wait_for_url(re.compile(r"[?&]token=5(&|$)"), timeout=30_000)
    panel = page.get_by_text("This token", exact=True)
    expect(panel).to_be_visible(timeout=30_000)
    settled(page)
    assert page.evaluate("() => window.__sameDocument === true")
    active = page.locator('.st-key-chips-token button[aria-checked="true"]')
    expect(active).to_have_count(1)
    assert has_size(active) and "as" in active.inner_text()
    assert active.evaluate("b => getComputedStyle(b).outlineStyle") == "solid"  # not colour alone
    expect(active).to_have_accessible_name("' as', position 5, ID 355")
    assert has_size(panel)
    marked = page.get_by_text("▶ t=1", exact=True).first  # its position row, at t = 1 of window b = 1
    expect(marked).to_be_visible()
    assert has_size(marked)
    yellow = "rgb(254, 240, 138)"  # the whole row bold on yellow, beside the ▶; the unmarked rows not
    row = marked.locator("xpath=ancestor::tr[1]")
    expect(row.locator("td").first).to_have_css("background-color", yellow)
    expect(row.locator("td").first).to_have_css("font-weight", "700")
    other = row.locator("xpath=preceding-sibling::tr[1]")  # t = 0 of the same table
    expect(other.locator("td").first).not_to_have_css("background-color", yellow)
    cell = page.get_by_role("cell", name=re.compile(r"^▶ \d+$")).first  # the token's ID in the batch
    expect(cell).to_have_css("background-color", yellow)
    windows = page.get_by_role("img", name=re.compile(r"token 5 is marked, in lane b = 1$"))
    expect(windows).to_have_count(1)
    assert has_size(windows)

    again = tabs.new_page({"width": 1400, "height": 1600})
    try:
        again.goto(page.url)
        app_ready(again)
        expect(again.get_by_text("This token", exact=True)).to_be_visible(timeout=30_000)
        reopened = again.locator('.st-key-chips-token button[aria-checked="true"]')
        expect(reopened).to_have_count(1, timeout=30_000)  # 240 chips may mount after the panel below them
        assert "as" in reopened.inner_text()
    finally:
        again.close()

    chips(page).nth(5).click()  # a second click stops following it
    page.wait_for_url(lambda url: "token=" not in url, timeout=30_000)
    expect(page.get_by_text("This token", exact=True)).to_have_count(0, timeout=30_000)


def test_enter_on_a_focused_chip_follows_it(server, page):
    page.goto(server + "/Pipeline")
    app_ready(page)
    settled(page)
    chips(page).nth(6).focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"[?&]token=6(&|$)"), timeout=30_000)
    expect(page.get_by_text("This token", exact=True)).to_be_visible(timeout=30_000)


def test_chips_made_of_markup_stay_text(server, page):
    page.goto(server + "/Pipeline?context=4&batch=4&stride=4")
    app_ready(page)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Paste", exact=True).click()
    area = sidebar.get_by_role("textbox", name="Paste text")
    area.fill(HOSTILE)
    area.press("Control+Enter")
    expect(page.get_by_text("pasted text:", exact=False)).to_be_visible(timeout=30_000)
    picker = page.locator(".st-key-chips-token")
    expect(picker).to_be_visible()
    shown = picker.inner_text()
    for piece in ("$", "**", "<", ">"):
        assert piece in shown, (piece, shown)
    assert picker.locator("b, strong, a, .katex").count() == 0


def test_a_chip_of_a_sentence_outlines_its_row_on_attention_and_the_link_reopens_it(server, page, tabs):
    page.goto(server + "/Attention")
    app_ready(page)
    settled(page)
    page.locator(".st-key-pick_token_a button").nth(1).click()  # ' cat' in A
    page.wait_for_url(re.compile(r"[?&]token_a=1(&|$)"), timeout=30_000)
    note = page.get_by_text(
        "Outlined: the query row of the token you follow, ' cat' at position 1 in A (and 4 in B)."
    )
    expect(note).to_be_visible(timeout=30_000)
    settled(page)
    maps = page.get_by_test_id("stVegaLiteChart")
    # every map but the closed tab's (every family's: only the open one drawn)
    assert maps.count() >= 11 and all(has_size(maps.nth(k)) for k in range(maps.count()))
    expect(page.get_by_text("A: weights (' cat' outlined)", exact=True)).to_be_visible()  # the chart's title
    expect(page.get_by_text("B: weights (' cat' outlined)", exact=True)).to_be_visible()
    again = tabs.new_page({"width": 1400, "height": 1600})
    try:
        again.goto(page.url.replace("/Attention", "/Why_position"))  # the same token, the other page
        app_ready(again)
        marked = again.get_by_role("cell", name="▶ ' cat'")
        expect(marked).to_be_visible(timeout=30_000)
        assert has_size(marked)
        expect(again.locator('.st-key-pick_token_a button[aria-checked="true"]')).to_have_text("·cat 3797")
    finally:
        again.close()


def test_one_set_of_chips_and_a_chip_past_the_first_batch_follows_its_token(server, page):
    page.goto(server + "/Pipeline")
    app_ready(page)
    settled(page)
    expect(page.locator(".chips")).to_have_count(0)  # the text's chips are the pills: no second set
    expect(page.locator("[data-testid='stButtonGroup']")).to_have_count(1)
    expect(chips(page)).to_have_count(240)  # the first 240 of the text's 278 tokens, not the batch's 32
    chip = page.get_by_role("radio", name="' token', position 100, ID 11,241")  # window 25: batch 4
    chip.focus()  # by keyboard: a real control with a visible focus ring
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"[?&]token=100(&|$)"), timeout=30_000)
    where = page.get_by_text(re.compile(r"It is in one window only: window 25 \(row b = 1 of batch 4"))
    expect(where).to_be_visible(timeout=30_000)
    settled(page)
    picked = page.locator('.st-key-chips-token button[aria-checked="true"]')
    expect(picked).to_have_count(1)
    assert has_size(picked) and has_size(where) and "token" in picked.inner_text()
    assert picked.evaluate("b => getComputedStyle(b).backgroundColor") != "rgba(0, 0, 0, 0)"  # coloured
