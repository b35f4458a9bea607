"""axe-core (bundled by ``axe-playwright-python``, injected into the page: no network) on every page at
1400 px, every expander open, and on every presenter slide at 1280 × 720, each answer revealed: no
serious or critical violation of WCAG 2.0, 2.1 or 2.2, level A or AA; one h1; and every text a chart
draws as SVG at least 4.5:1 on white (axe leaves a chart's SVG text out).

Every violation found, of any impact, is also written to ``test-results/axe/<where>.json``.
"""

from __future__ import annotations

import json
import os
import re

import pytest
from playwright.sync_api import expect

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # requirements-dev.txt installs it (make setup-dev)
    if os.environ.get("CI"):
        raise
    pytest.skip("axe-playwright-python is missing: make setup-dev", allow_module_level=True)

from tests.contrast import AA_TEXT, contrast, over
from tests.e2e.conftest import SHOTS, app_ready, settled
from tests.e2e.test_presenter_fit import PAGES, SCREEN, drawn, next_section, section_title

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]  # axe's tags for WCAG 2.0–2.2, A and AA
BLOCKING = ("serious", "critical")
WIDTH = 1400
_AXE = Axe()
# The page's whole height: axe reads a text's background at its place on the screen, so every text must
# be on it. Streamlit scrolls inside stMain, not the window.
_HEIGHT_JS = """() => Math.max(...['stAppScrollToBottomContainer', 'stMain', 'stSidebarContent']
  .map(id => document.querySelector(`[data-testid=${id}]`)).filter(Boolean).map(e => e.scrollHeight))"""
# Every text of a chart drawn as SVG.
_CHART_TEXT_JS = """() => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg text')]
  .filter(t => t.textContent.trim())
  // its words, its fill, the fill's opacity
  .map(t => { const s = getComputedStyle(t);
    return [t.textContent.trim().slice(0, 40), s.fill, +s.fillOpacity]; })"""


def violations(page, where: str) -> list[dict]:
    """axe's violations of ``TAGS`` on the page as drawn now, recorded under ``where``."""
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    found = _AXE.run(page, options=options).response["violations"]
    folder = SHOTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9]+", "_", where).strip("_")
    (folder / f"{name}.json").write_text(json.dumps(found, indent=1))
    return found


def faint_chart_text(page, where: str) -> list[str]:
    """Every text a chart draws under 4.5:1 on the page's white (charts have no background of their own)."""
    return [
        f"{where}: chart text “{text}” is {fill} at {contrast(over(fill, '#ffffff', opacity)):.2f}:1"
        for text, fill, opacity in page.evaluate(_CHART_TEXT_JS)
        if contrast(over(fill, "#ffffff", opacity)) < AA_TEXT
    ]


def headings(page, where: str) -> list[str]:
    """A complaint unless the page has exactly one h1."""
    titles = page.locator("h1").all_inner_texts()
    return [] if len(titles) == 1 else [f"{where}: {len(titles)} h1 ({titles})"]


def blocking(found: list[dict], where: str) -> list[str]:
    """One line per node of each serious or critical violation: where, rule, impact, target, html."""
    return [
        f"{where}: {v['id']} ({v['impact']}) at {' '.join(map(str, node['target']))}: "
        f"{' '.join(node['html'].split())[:160]}"
        for v in found
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]


def problems(page, name: str, where: str) -> list[str]:
    """Everything above, on the page as drawn now (axe's violations recorded as ``name``)."""
    return blocking(violations(page, name), where) + headings(page, where) + faint_chart_text(page, where)


FOLLOWING = ["Pipeline?token=5", "Attention?token_b=3", "Why_position?token_a=1"]  # a token's marks drawn


@pytest.mark.parametrize("path", ["", *PAGES, *FOLLOWING])
def test_every_page_passes_axe(server, browser, path):
    page = browser.new_page(viewport={"width": WIDTH, "height": 900})
    try:
        page.goto(f"{server}/{path}")
        app_ready(page)
        settled(page)
        closed = page.locator("[data-testid=stMain] [data-testid=stExpander] details:not([open]) > summary")
        for _ in range(closed.count()):  # each click may rerun the page (a tracked expander)
            closed.first.click()
            settled(page)
        page.set_viewport_size({"width": WIDTH, "height": page.evaluate(_HEIGHT_JS)})
        settled(page)
        found = problems(page, path or "Start", path or "Start")
    finally:
        page.close()
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("path", PAGES)
def test_every_slide_passes_axe(server, browser, path):
    page = browser.new_page(viewport=SCREEN)
    found = []
    try:
        page.goto(f"{server}/{path}?present=true")
        expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of", timeout=90_000)
        if path == "Training":  # its later slides show a finished run: train one first
            page.get_by_role("button", name="Train", exact=True).click()
            expect(page.get_by_text("Validation loss")).to_be_visible(timeout=240_000)
        while True:
            title = section_title(page)
            number = re.match(r"Section (\d+)", title).group(1)
            reveal = page.get_by_role("button", name="Reveal")
            if reveal.count():
                reveal.click()
                expect(reveal).to_have_count(0, timeout=60_000)
            drawn(page)
            name = f"{path} presenting, slide {number}"
            found += problems(page, name, f"{name} ({title})")
            if not next_section(page):
                break
    finally:
        page.close()
    assert found == [], "\n".join(found)


PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("path", ["", *PAGES])
def test_every_page_passes_axe_on_a_phone(server, browser, path):
    """At a phone's width a wide table scrolls inside its box: the box is then reachable by keyboard."""
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{server}/{path}")
        app_ready(page)
        settled(page)
        page.set_viewport_size({"width": PHONE["width"], "height": page.evaluate(_HEIGHT_JS)})
        settled(page)
        where = f"{path or 'Start'} at {PHONE['width']} px"
        found = blocking(violations(page, where), where)
    finally:
        page.close()
    assert found == [], "\n".join(found)


def test_a_wide_table_scrolls_by_keyboard(server, browser):
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{server}/Why_position")
        app_ready(page)
        settled(page)
        box = page.get_by_role("region", name=re.compile(r"^Table 1 \(token, ID, position in A, …\)"))
        expect(box).to_have_attribute("tabindex", "0")
        box.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("(box) => box.scrollLeft > 0", arg=box.element_handle(), timeout=5_000)
    finally:
        page.close()
