"""A presentation clicker in Chromium: Page Down, Space and Page Up move between slides (→ and ← on every
deck: ``test_presenter_fit``'s walk), but never while a student types a prediction; the address bar names
the slide shown, so a copied link reopens it."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import settled
from tests.e2e.test_presenter_fit import PIPELINE, SCREEN, next_section


@pytest.fixture
def projector(tabs):
    page = tabs.new_page(SCREEN)
    yield page
    page.close()


def at_section(page, number: int) -> None:
    """Wait until section ``number`` is shown and settled (the keys reach its buttons)."""
    expect(page.get_by_test_id("stProgress")).to_contain_text(f"Section {number} of", timeout=90_000)
    settled(page, 90_000)


def slide_in_url(page) -> str | None:
    return parse_qs(urlsplit(page.url).query).get("slide", [None])[-1]


def test_a_clicker_s_page_down_space_and_page_up(server, projector):
    page = projector
    page.goto(f"{server}/Why_position?present=true")
    at_section(page, 1)
    page.keyboard.press("PageDown")
    at_section(page, 2)
    assert slide_in_url(page) == "2.1"  # section 2's first part: the URL follows the keys
    page.keyboard.press("PageUp")
    at_section(page, 1)
    page.keyboard.press(" ")
    at_section(page, 2)
    page.keyboard.press("ArrowLeft")
    at_section(page, 1)
    page.keyboard.press("ArrowLeft")  # the first slide: nothing before it
    settled(page)
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of")


def typed_guess(page, server: str, guess: str):
    """The Pipeline's first prediction box, presenting, with ``guess`` typed into it."""
    page.goto(f"{server}/{PIPELINE}?present=true")
    at_section(page, 1)
    box = page.get_by_role("textbox", name=re.compile("Predict the shape"))
    box.click()
    box.press_sequentially(guess)
    return box


def test_keys_typed_into_a_prediction_stay_in_it(server, projector):
    page = projector
    box = typed_guess(page, server, "2 7")
    for key in ("Space", "ArrowLeft", "ArrowRight", "PageDown"):
        box.press(key)
    expect(box).to_have_value("2 7 ")  # the space typed, the arrows moved the caret
    settled(page)
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of")
    expect(page.get_by_role("button", name="Reveal")).to_have_count(1)  # no key revealed it


def test_enter_in_the_answer_box_reveals_and_the_next_key_moves_on(server, projector):
    page = projector
    box = typed_guess(page, server, "278")
    box.press("Enter")
    expect(page.get_by_role("button", name="Reveal")).to_have_count(0, timeout=60_000)
    verdict = page.get_by_test_id("stMain").get_by_role("status")  # a right guess: a success
    expect(verdict).to_have_text("Right: 278.")
    expect(verdict).to_be_focused(timeout=10_000)  # the slide has the focus, not a text box
    at_section(page, 1)
    page.keyboard.press("ArrowRight")
    at_section(page, 2)


def test_a_copied_link_opens_on_the_slide_it_was_copied_at(server, browser):
    context = browser.new_context(viewport=SCREEN, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(f"{server}/{PIPELINE}?present=true")
    at_section(page, 1)
    for number in range(2, 5):
        next_section(page)  # a prediction on the way is revealed first
        at_section(page, number)
    title = page.get_by_test_id("stProgress").inner_text().strip()
    assert title.startswith("Section 4 of") and slide_in_url(page) == "2.2"
    page.get_by_test_id("stExpandSidebarButton").click()  # presenting, the sidebar starts collapsed
    sidebar = page.get_by_test_id("stSidebar")
    page.wait_for_selector('button.copy-link[data-bound][data-link*="slide=2.2"]', timeout=30_000)
    sidebar.get_by_role("button", name="Copy link").click()
    expect(sidebar.get_by_text("Copied: paste it anywhere")).to_be_visible()
    link = page.evaluate("navigator.clipboard.readText()")
    assert parse_qs(urlsplit(link).query)["slide"] == ["2.2"]
    reader = context.new_page()  # the class opening the teacher's link
    reader.goto(link)
    expect(reader.get_by_test_id("stProgress")).to_have_text(re.compile(re.escape(title)), timeout=90_000)
    assert reader.get_by_test_id("stException").count() == 0
    context.close()


def test_leaving_presenter_mode_opens_the_page_at_the_section_shown(server, projector):
    page = projector
    page.goto(f"{server}/{PIPELINE}?present=true&slide=4.1")
    at_section(page, 9)
    heading = page.get_by_role("heading", name=re.compile(r"^4\. Positional embedding"))
    expect(heading).to_be_visible()
    page.get_by_test_id("stExpandSidebarButton").click()  # presenting, the sidebar starts collapsed
    sidebar = page.get_by_test_id("stSidebar")
    switch = sidebar.get_by_role("switch", name="Presenter mode")
    assert switch.bounding_box()["y"] < 120  # first in the sidebar: found without scrolling
    sidebar.get_by_text("Presenter mode", exact=True).click()
    expect(page.get_by_test_id("stProgress")).to_have_count(0, timeout=60_000)
    settled(page)
    expect(page.get_by_role("heading", name=re.compile(r"^1\. Text → token IDs"))).to_be_visible()
    page.wait_for_function(  # the whole page, scrolled to step 4's heading
        """() => [...document.querySelectorAll('[data-testid=stMain] h3')]
          .filter(h => h.textContent.startsWith('4. Positional embedding'))
          .some(h => { const b = h.getBoundingClientRect(); return b.top >= 0 && b.top < 200; })""",
        timeout=10_000,
    )
