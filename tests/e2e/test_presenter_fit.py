"""Presenter mode on a 1280 × 720 projector, in Chromium (issue 21): every section of every page fits the
screen with readable charts, and an answer stays hidden until Reveal.

A section is what ``shared/tools/shoot`` measures for a ``present=true`` path: the height of the app's
scrolling container (``stAppScrollToBottomContainer``, else ``stMain``) while that section is shown. Each
is measured as it opens and again after its Reveal, if it has one.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ui.presenter import SCREEN_HEIGHT

SCREEN = {"width": 1280, "height": SCREEN_HEIGHT}
MIN_CHART = (300, 150)  # px: the smallest chart a back row can read
PAGES = ["Pipeline", "Why_position", "Families", "Trained_positions", "Training", "Long_context"]

_SECTION_JS = """() => {
  const c = document.querySelector('[data-testid="stAppScrollToBottomContainer"]')
    || document.querySelector('[data-testid="stMain"]');
  const charts = [...document.querySelectorAll('.vega-embed')].map(e => {
    const d = e.querySelector('canvas, svg'); const b = d ? d.getBoundingClientRect() : {width: 0, height: 0};
    return [Math.round(b.width), Math.round(b.height)];
  });
  return {height: c.scrollHeight, charts};
}"""
# Drawn: the script has run, nothing is stale or loading, every chart has drawn and Vega has sized it.
_DRAWN_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app && app.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-testid=stSkeleton], [data-stale=true]')
    && [...document.querySelectorAll('.vega-embed')].every(e => {
         const d = e.querySelector('canvas, svg'); return d && d.getBoundingClientRect().width > 0; });
}"""


@pytest.fixture
def projector(browser):
    page = browser.new_page(viewport=SCREEN)
    yield page
    page.close()


def drawn(page) -> None:
    """Wait until the section is drawn (see _DRAWN_JS), then two frames for Vega to size its charts."""
    page.wait_for_function(_DRAWN_JS, timeout=90_000)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def section_title(page) -> str:
    """The progress line above the section: "Section k of n: title"."""
    return page.get_by_test_id("stProgress").inner_text().strip()


def misfits(page, where: str) -> list[str]:
    """What does not fit the projector in the section shown: its height, and charts too small to read."""
    drawn(page)
    shown = page.evaluate(_SECTION_JS)
    found = []
    if shown["height"] > SCREEN_HEIGHT:
        found.append(f"{where}: {shown['height']} px tall")
    for width, height in shown["charts"]:
        if width < MIN_CHART[0] or height < MIN_CHART[1]:
            found.append(f"{where}: a chart of {width} × {height} px")
    return found


def next_section(page) -> bool:
    """Go to the next section; False at the last one."""
    button = page.get_by_role("button", name="Next ▶")
    if button.is_disabled():
        return False
    before = section_title(page)
    button.click()
    expect(page.get_by_test_id("stProgress")).not_to_have_text(before, timeout=60_000)
    return True


def every_section(page, shots, name: str) -> tuple[list[str], list[str]]:
    """Visit every section of the page open in ``page``, revealing each answer; its titles and misfits."""
    titles, found = [], []
    while True:
        title = section_title(page)
        titles.append(title)
        found += misfits(page, title)
        number = re.match(r"Section (\d+)", title).group(1)
        page.screenshot(path=str(shots / f"presenter_{name}_{number}.png"))
        reveal = page.get_by_role("button", name="Reveal")
        if reveal.count():
            reveal.click()
            expect(reveal).to_have_count(0, timeout=60_000)
            found += misfits(page, f"{title}, revealed")
        if not next_section(page):
            return titles, found


@pytest.mark.parametrize("path", PAGES)
def test_every_section_fits_a_projector(server, projector, path, shots):
    page = projector
    page.goto(f"{server}/{path}?present=true")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of", timeout=90_000)
    if path == "Training":  # its later sections show a finished run: train one first
        page.get_by_role("button", name="Train", exact=True).click()
        expect(page.get_by_text("Validation loss")).to_be_visible(timeout=240_000)
    titles, found = every_section(page, shots, path)
    assert found == []
    total = int(re.match(r"Section 1 of (\d+)", titles[0]).group(1))
    assert len(titles) == total > 1  # every section was visited
    assert page.get_by_test_id("stException").count() == 0


@pytest.mark.parametrize("method", ["nope", "sinusoidal", "shaw", "t5", "alibi", "rope"])
def test_every_close_up_fits_a_projector(server, projector, method, shots):
    """The Families close-up differs per method (learned is the default, measured above)."""
    page = projector
    page.goto(f"{server}/Families?present=true&method={method}")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of", timeout=90_000)
    while "Close-up" not in section_title(page):
        assert next_section(page)
    titles, found = every_section(page, shots, f"Families_{method}")
    assert found == []
    assert all("Close-up" in title for title in titles)


def test_why_position_asks_about_a_named_token_and_hides_the_answer(server, projector):
    page = projector
    page.goto(f"{server}/Why_position?present=true")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of 5: Two sentences", timeout=90_000)
    next_section(page)
    question = page.get_by_text(re.compile(r"^Predict the cosine of"))
    expect(question).to_contain_text("' cat' in A (position 1) and ' cat' in B (position 4)")
    drawn(page)
    main = page.get_by_test_id("stMain")
    for answer in ("1.000000", "0.483638"):  # without and with positions
        expect(main).not_to_contain_text(answer)
    assert page.get_by_test_id("stDataFrame").count() == 0
    next_section(page)  # every shared token: its table would show the cosines
    drawn(page)
    assert page.get_by_test_id("stDataFrame").count() == 0
    expect(page.get_by_role("button", name="Reveal")).to_be_visible()
    expect(main).not_to_contain_text("1.000000")
    page.get_by_role("button", name="◀ Previous").click()
    box = page.get_by_role("textbox", name=re.compile("Predict the cosine"))
    box.fill("about one")
    box.press("Enter")
    message = page.get_by_test_id("stAlertContentWarning")
    expect(message).to_contain_text("Could not read “about one” as a number", timeout=30_000)
    expect(message).to_contain_text("for example 0.5")
    expect(main).not_to_contain_text("1.000000")  # feedback on the guess, not the answer
    box.fill("0.9")
    box.press("Enter")
    expect(message).to_have_count(0, timeout=30_000)
    page.get_by_role("button", name="Reveal").click()
    values = page.get_by_test_id("stMetricValue")
    expect(values.first).to_have_text("1.000000", timeout=30_000)
    expect(values.nth(1)).to_have_text("0.483638")
    expect(page.get_by_test_id("stAlertContentWarning")).to_contain_text("You predicted 0.9")


def test_a_shape_it_cannot_read_gets_what_and_an_example(server, projector, shots):
    page = projector
    page.goto(f"{server}/Pipeline?present=true")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of", timeout=90_000)
    while "Token embedding lookup" not in section_title(page):
        next_section(page)
    box = page.get_by_role("textbox", name=re.compile("Predict the shape"))
    box.fill("8 by 4 by 256")
    box.press("Enter")
    message = page.get_by_test_id("stAlertContentWarning")
    expect(message).to_contain_text("Could not read “by” as a size", timeout=30_000)
    expect(message).to_contain_text("for example 2 × 3 × 5")
    assert page.get_by_test_id("stMetricValue").count() == 0  # nothing revealed by the feedback
    page.screenshot(path=str(shots / "presenter_unreadable_guess.png"))
    page.get_by_role("button", name="Reveal").click()
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("8 × 4 × 256", timeout=30_000)
    expect(message).to_contain_text("The tensor is 8 × 4 × 256.")
