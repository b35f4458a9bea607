"""A student's own short sentence runs the whole Pipeline with the batch it fills.

"The dog bites the man." is 6 tokens: one window of 4, so B = 1 where the sidebar asks for 8. The
page used to show only an error and a button that replaced the text with a sample.
"""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import evidence
from tests.e2e.layout import drawn_size

DOG = "The dog bites the man."


def paste(page, text: str) -> None:
    """Type ``text`` into the sidebar's Paste text box, as a student would, and apply it."""
    area = page.get_by_test_id("stSidebar").get_by_role("textbox", name="Paste text")
    area.fill(text)
    area.press("Control+Enter")


def metric(page, label: str):
    """The value of the metric whose label is ``label`` (a step's shape)."""
    box = evidence(page, "stMetric").filter(has=page.get_by_test_id("stMetricLabel").get_by_text(label))
    return box.get_by_test_id("stMetricValue")


def test_a_short_sentence_shows_every_step_with_b_1(server, page, wait_for_app, wait_for_charts):
    page.goto(server + "/Pipeline")
    wait_for_app(page)
    page.get_by_test_id("stSidebar").get_by_text("Paste", exact=True).click()
    paste(page, DOG)
    main = page.get_by_test_id("stMain")
    note = main.get_by_test_id("stAlertContentInfo").filter(has_text="Your text makes")
    expect(note).to_have_text(
        re.compile(r"Your text makes 1 window of 4 tokens: B = 1 here \(Batch B asks for 8\)")
    )
    # 1. the tokens and their IDs
    expect(main.get_by_text("pasted text: 22 characters → 6 tokens", exact=False)).to_be_visible()
    chips = page.locator(".st-key-chips-token [role='radiogroup'] > button")  # the chips to pick
    expect(chips).to_have_count(6)
    assert re.sub(r"\s", "", chips.first.inner_text()) == "The464"  # the piece and its ID
    # 2. the one window, drawn
    windows = page.get_by_role("img", name="Sliding windows: 1 window of 4 tokens")
    windows.scroll_into_view_if_needed()
    expect(windows).to_be_visible()
    assert min(drawn_size(windows)) > 100
    expect(
        main.get_by_text("no full batch of 8: that needs 33 tokens and the text has 6", exact=False)
    ).to_be_visible()
    expect(metric(page, "inputs")).to_have_text("1 × 4")
    # 3-6 with B = 1: shapes, the broadcasting picture and the three heatmaps, drawn with a size
    expect(metric(page, "token_embeddings")).to_have_text("1 × 4 × 256")
    expect(metric(page, "input_embeddings")).to_have_text(["1 × 4 × 256"] * 2)  # the add, and its result
    for title in (
        "3. Token embedding lookup",
        "4. Positional embedding",
        "5. Broadcasting add",
        "6. Input embeddings",
    ):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    broadcasting = page.get_by_role("img", name=re.compile(r"^Broadcasting: token_embeddings 1 × 4 × 256"))
    broadcasting.scroll_into_view_if_needed()
    assert min(drawn_size(broadcasting)) > 100
    wait_for_charts(page)
    heatmaps = page.get_by_test_id("stVegaLiteChart")
    assert heatmaps.count() == 5  # 2 vocabulary trade-off charts + 3 heatmaps
    for k in range(heatmaps.count()):
        width, height = drawn_size(heatmaps.nth(k))
        assert width > 200 and height > 100
    expect(main.get_by_text("What the LLM trains on: 1 sequence × 4 positions", exact=False)).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
    assert page.get_by_role("button", name="Use the long sample text").count() == 0
    expect(page.get_by_test_id("stSidebar").get_by_role("textbox", name="Paste text")).to_have_value(DOG)


def test_one_token_and_an_empty_text_are_explained(server, page, wait_for_app):
    page.goto(server + "/Pipeline")
    wait_for_app(page)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Paste", exact=True).click()
    paste(page, "dog")
    main = page.get_by_test_id("stMain")
    warning = main.get_by_test_id("stAlertContentWarning")
    expect(warning).to_contain_text("The text is a single token.", timeout=30_000)
    expect(warning).to_contain_text("even a window of context length 1 needs 2 tokens")
    expect(page.locator(".chips .chip")).to_have_count(1)
    expect(page.get_by_role("heading", name="2. Sliding-window batch")).to_have_count(0)
    assert page.get_by_test_id("stException").count() == 0
    expect(sidebar.get_by_role("textbox", name="Paste text")).to_have_value("dog")
    paste(page, "")
    expect(main.get_by_test_id("stAlertContentError")).to_contain_text(
        "The text is empty: paste some text, or pick a sample.", timeout=30_000
    )
    assert page.get_by_test_id("stException").count() == 0
