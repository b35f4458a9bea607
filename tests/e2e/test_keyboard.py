"""A keyboard alone, in Chromium: presenting, nothing without a visible box takes the focus (on every
page at a desktop's width: ``test_layout``, which also counts the Tabs to the content); after a page change
the focus is in the new page; presenting, Next is a few Tabs from the top of a later slide and the collapsed
sidebar takes no focus (of every deck's first slide: ``test_presenter_fit``'s walk); after Reveal the focus
is on the verdict; every kind of control shows a focus ring that stands out from what surrounds it; the
token chips are one Tab stop, the arrows move chip by chip into view."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import app_ready, settled
from tests.e2e.focus import FOCUSED_JS, UNSEEN_JS, WHERE_JS, tab_through, tabs_to_next_from_the_top
from tests.e2e.test_presenter_fit import PIPELINE, SCREEN, next_section
from tests.e2e.test_presenter_keys import at_section

LEAST_RING_CONTRAST = 3.0  # WCAG 2.2's non-text contrast
LEAST_RING_WIDTH = 2.0  # px

# The focus ring of the focused control: the outline of the control or of the nearest ancestor that is
# drawn (a radio button's or a switch's input is hidden; a list's and a number box's input has no
# border), the colour behind it (its ancestors' backgrounds over white), their contrast, and whether the
# ring is seen: not transparent, not hidden, not covered by something else at its centre.
_RING_JS = """() => {
  const focus = document.activeElement;
  const rgba = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const behind = (node) => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const [r, g, b, a = 1] = rgba(getComputedStyle(n).backgroundColor);
      if (a > 0) layers.push([r, g, b, a]);
      if (a >= 1) break;
    }
    return layers.reduceRight(
      ([R, G, B], [r, g, b, a]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)],
      [255, 255, 255]);
  };
  const luminance = (c) => {
    const [r, g, b] = c.map((v) => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const hidden = (n) => n.closest('[style*="clip"]') || n.getBoundingClientRect().width < 8;
  for (let n = focus, k = 0; n && k < 6; n = n.parentElement, k++) {
    const s = getComputedStyle(n);
    if (s.outlineStyle === 'none' || hidden(n)) continue;
    let opacity = 1;
    for (let m = n; m; m = m.parentElement) opacity *= Number(getComputedStyle(m).opacity);
    const box = n.getBoundingClientRect();
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    const ring = rgba(s.outlineColor), colour = behind(n.parentElement);
    return {ring: n.tagName + ' ' + (n.dataset.testid || ''), style: s.outlineStyle,
            width: parseFloat(s.outlineWidth), alpha: ring.length > 3 ? ring[3] : 1,
            contrast: contrast(ring.slice(0, 3), colour), opacity, visibility: s.visibility,
            covered: !(top && (n.contains(top) || top.contains(n))),
            visible: focus.matches(':focus-visible')};
  }
  return null;
}"""


def test_presenting_the_start_page_only_what_is_seen_takes_the_focus(server, projector):
    page = projector  # the other pages: with their slides, below
    page.goto(f"{server}/?present=true")
    app_ready(page)
    settled(page)
    assert page.evaluate(UNSEEN_JS) == []


@pytest.mark.parametrize("how", ["click", "Enter"])
def test_after_a_page_change_the_focus_is_in_the_new_pages_content(server, page, how):
    page.goto(f"{server}/{PIPELINE}")
    app_ready(page)
    settled(page)
    link = page.get_by_test_id("stSidebar").get_by_role("link", name="3. Attention")
    if how == "click":
        link.click()
    else:
        link.focus()
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Attention: where position acts", level=1)).to_be_visible(
        timeout=60_000
    )
    app_ready(page)
    page.wait_for_function("() => document.activeElement.closest('[data-testid=stMain]')", timeout=30_000)
    assert page.evaluate("() => document.activeElement.tagName") == "H1"
    page.keyboard.press("Tab")  # on into the page, not through the sidebar's links
    assert page.evaluate(WHERE_JS)["content"]


@pytest.fixture
def projector(tabs):
    page = tabs.new_page(SCREEN)
    yield page
    page.close()


def ring_problems(page, kind: str) -> list[str]:
    """What keeps the focused control's ring from being seen (empty when it is)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    ring = page.evaluate(_RING_JS)
    if ring is None:
        return [f"{kind}: no focus ring drawn"]
    problems = []
    if not ring["visible"]:
        problems.append("not :focus-visible")
    if ring["style"] not in ("solid", "auto") or ring["width"] < LEAST_RING_WIDTH or ring["alpha"] < 1:
        problems.append(f"{ring['style']} {ring['width']} px, alpha {ring['alpha']}")
    if ring["contrast"] < LEAST_RING_CONTRAST:
        problems.append(f"{ring['contrast']:.2f}:1 against what is behind it")
    if ring["opacity"] < 1 or ring["visibility"] != "visible" or ring["covered"]:
        problems.append(f"opacity {ring['opacity']}, {ring['visibility']}, covered: {ring['covered']}")
    return [f"{kind} ({ring['ring']}): {p}" for p in problems]


def test_presenting_next_is_a_few_tabs_from_the_top_of_a_second_slide_and_no_tab_reaches_the_sidebar(
    server, projector
):
    """On a slide after the first, where Previous takes a Tab too (the first slide of every deck:
    ``test_presenter_fit``'s walk)."""
    page = projector
    page.goto(f"{server}/{PIPELINE}?present=true")
    at_section(page, 1)
    next_section(page)  # a prediction on the way is revealed first
    at_section(page, 2)
    page.reload()  # the top of the second slide
    at_section(page, 2)
    seen = tabs_to_next_from_the_top(page)
    seen += tab_through(page, lambda f: f["body"] or "Skip to main content" in f["name"])  # the rest
    assert not [f["name"] for f in seen if f["sidebar"]]
    assert page.evaluate(UNSEEN_JS) == []


def test_the_sidebar_opened_by_the_presenter_takes_the_focus_again(server, projector):
    page = projector
    page.goto(f"{server}/{PIPELINE}?present=true")
    at_section(page, 1)
    page.get_by_test_id("stExpandSidebarButton").click()
    link = page.get_by_test_id("stSidebar").get_by_role("link", name="1. Why position?")
    expect(link).to_be_visible()
    page.evaluate("() => document.activeElement.blur()")
    seen = tab_through(page, lambda f: f["sidebar"] and "Why position" in f["name"], most=12)
    assert seen[-1]["sidebar"], [f["name"] for f in seen]


def test_after_reveal_the_focus_is_on_the_verdict(server, projector):
    page = projector
    page.goto(f"{server}/{PIPELINE}?present=true")
    at_section(page, 1)
    box = page.get_by_role("textbox", name=re.compile("Predict the shape"))
    box.fill("2 × 3")
    box.press("Tab")  # the guess is kept, and the focus goes on to Reveal
    settled(page)
    reveal = page.get_by_role("button", name="Reveal")
    expect(reveal).to_be_focused()
    assert ring_problems(page, "primary button") == []
    page.keyboard.press("Enter")
    expect(reveal).to_have_count(0, timeout=60_000)
    verdict = page.get_by_test_id("stMain").get_by_role("alert")
    expect(verdict).to_contain_text("You predicted 2 × 3")
    expect(verdict).to_be_focused(timeout=10_000)
    assert ring_problems(page, "verdict") == []
    page.keyboard.press("ArrowRight")  # the clicker's keys still work from there
    at_section(page, 2)


def test_after_reveal_without_a_guess_the_focus_is_on_the_verdict_saying_so(server, projector):
    page = projector
    page.goto(f"{server}/Why_position?present=true&slide=2")
    at_section(page, 2)
    page.get_by_role("button", name="Reveal").focus()
    page.keyboard.press("Enter")  # nothing guessed: a verdict that says so, with the answer
    expect(page.get_by_role("button", name="Reveal")).to_have_count(0, timeout=60_000)
    verdict = page.get_by_test_id("stMain").get_by_role("status")  # an info: a status, as a success
    expect(verdict).to_have_text("No guess was typed. The answer is 1.000000.")
    expect(verdict).to_be_focused(timeout=10_000)


@pytest.fixture(scope="module")
def pipeline(server, tabs):
    """The Pipeline page at 1400 × 1600, loaded once for the tests below: each only moves the focus, from
    where it puts it."""
    page = tabs.new_page({"width": 1400, "height": 1600})
    page.goto(f"{server}/{PIPELINE}")
    app_ready(page)
    yield page
    page.close()


def test_the_link_to_the_page_shown_is_marked_and_takes_no_tab_stop(pipeline):
    page = pipeline
    settled(page)
    sidebar = page.get_by_test_id("stSidebar")
    here = sidebar.get_by_role("link", name="2. Pipeline")
    expect(here).to_have_attribute("aria-current", "page")
    expect(here).to_have_attribute("tabindex", "-1")
    expect(sidebar.get_by_role("link", name="1. Why position?")).not_to_have_attribute("aria-current", "page")


def test_every_kind_of_control_shows_a_focus_ring_that_stands_out(pipeline):
    page = pipeline
    settled(page)
    sidebar, main = page.get_by_test_id("stSidebar"), page.get_by_test_id("stMain")
    controls = {
        "page link (sidebar)": sidebar.get_by_role("link", name="1. Why position?"),
        "page link (page)": main.get_by_role("link", name=re.compile("^Next: step")),
        "heading link": main.get_by_role("link", name="Link to heading").first,
        "radio button": sidebar.get_by_role("radio", name="Sample"),
        "switch": sidebar.get_by_role("switch", name="Presenter mode"),
        "list": sidebar.get_by_role("combobox", name="Preset", exact=True),
        "number": sidebar.get_by_role("spinbutton", name="Vocab V", exact=True),
        "button": main.get_by_role("button", name="CSV").first,
        "button (sidebar)": sidebar.get_by_role("button", name="Copy link"),
        "expander": main.get_by_test_id("stExpander").first.locator("summary"),
        "chart toolbar": main.get_by_role("button", name="Show data").first,
        "token chip": main.locator(".st-key-chips-token [role='radiogroup'] > button").first,
    }
    problems = []
    for kind, control in controls.items():
        control.focus()
        problems += ring_problems(page, kind)
    assert problems == []


def test_the_token_chips_take_one_tab_stop_and_the_arrows_move_chip_by_chip_into_view(pipeline):
    page = pipeline
    settled(page)
    box = page.locator(".st-key-chips-token [role='radiogroup']")  # the chips' box, which scrolls
    page.get_by_test_id("stMain").focus()  # from the top of the page, by Tab
    tab_through(page, lambda f: f["name"].startswith("BUTTON 'Large', position 0,"), most=60)
    assert box.evaluate("e => e.scrollTop") == 0 and box.evaluate("e => e.scrollHeight > e.clientHeight")
    assert ring_problems(page, "token chip") == []
    seen = []  # a group of chips is one Tab stop (240 chips would be 240); the arrows move within it
    for _ in range(100):
        page.keyboard.press("ArrowRight")
        seen.append(page.evaluate(FOCUSED_JS)["name"])
        if ", position 80," in seen[-1]:
            break
    assert [f", position {k}," in name for k, name in enumerate(seen, 1)] == [True] * 80  # chip by chip
    page.wait_for_function("e => e.scrollTop > 0", arg=box.element_handle())  # the focused chip is shown
