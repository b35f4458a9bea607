"""Every page, as a browser draws it at desktop and phone width: drawn whole, no request to another host,
the keyboard's way in, and axe (``tests.e2e.axe``) with every expander open; each page opened once at
each width for all of it."""

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import HEIGHT_JS, blocking, problems, violations
from tests.e2e.conftest import app_ready, charts_drawn, settled
from tests.e2e.focus import MOST_TABS_TO_CONTENT, UNSEEN_JS, tabs_to_content
from tests.e2e.layout import MIN_CHART_WIDTH, VIEWPORTS, drawn_size, layout_problems, settle_layout
from tests.e2e.test_offline import offline_problems, watch_requests
from ui.navigation import PAGES as APP_PAGES

PAGES = ["" if i == 0 else stop.url for i, stop in enumerate(APP_PAGES)]  # every page; the first is "/"


@dataclass
class Opened:
    """A page opened at a desktop's width, and every request it made to a host other than the server's."""

    path: str
    page: object
    elsewhere: list[str]


@pytest.fixture(scope="module", params=PAGES, ids=lambda p: p or "Start")
def desktop(request, server, tabs) -> Iterator[Opened]:
    """Each page opened once at a desktop's width for the tests below, in their order: what they check
    needs the page as it opened (the Tabs from the top), and the last one opens every expander."""
    width, height = VIEWPORTS["desktop"]
    page = tabs.new_page({"width": width, "height": height})
    opened = Opened(request.param, page, watch_requests(page, server))
    page.goto(f"{server}/{request.param}")
    app_ready(page)
    charts_drawn(page)
    yield opened
    page.close()


def test_every_page_is_drawn_whole_and_asks_no_other_host(server, desktop, shots):
    page = desktop.page
    settle_layout(page, MIN_CHART_WIDTH["desktop"])  # Vega sizes its charts to their containers after drawing
    assert page.get_by_test_id("stException").count() == 0
    assert layout_problems(page, MIN_CHART_WIDTH["desktop"]) == []
    assert offline_problems(page, server, desktop.elsewhere) == []
    page.screenshot(path=str(shots / f"layout_{desktop.path or 'Pipeline'}_desktop.png"), full_page=True)


def test_every_page_is_a_few_tabs_from_the_top_and_only_what_is_seen_takes_the_focus(desktop):
    page = desktop.page
    settled(page)
    before, names = tabs_to_content(page)
    assert before <= MOST_TABS_TO_CONTENT, f"{before} Tab stops before the content: {names}"
    assert page.evaluate(UNSEEN_JS) == []


def test_every_page_passes_axe_with_every_expander_open(desktop):
    """``tests.e2e.axe`` on the page's whole height, each of its expanders open."""
    page, where = desktop.page, desktop.path or "Start"
    settled(page)
    closed = page.locator("[data-testid=stMain] [data-testid=stExpander] details:not([open]) > summary")
    for _ in range(closed.count()):  # each click may rerun the page (a tracked expander)
        closed.first.click()
        settled(page)
    page.set_viewport_size({"width": page.viewport_size["width"], "height": page.evaluate(HEIGHT_JS)})
    settled(page)
    found = problems(page, where, where)
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p or "Start")
def test_every_page_is_drawn_whole_at_a_phones_width_and_passes_axe(server, tabs, path, shots):
    """A wide table scrolls inside its box, which is then reachable by keyboard (axe)."""
    width, height = VIEWPORTS["phone"]
    page = tabs.new_page({"width": width, "height": height})
    try:
        page.goto(f"{server}/{path}")
        app_ready(page)
        charts_drawn(page)
        settle_layout(page, MIN_CHART_WIDTH["phone"])
        assert page.get_by_test_id("stException").count() == 0
        assert layout_problems(page, MIN_CHART_WIDTH["phone"]) == []
        page.screenshot(path=str(shots / f"layout_{path or 'Pipeline'}_phone.png"), full_page=True)
        page.set_viewport_size({"width": width, "height": page.evaluate(HEIGHT_JS)})
        settled(page)
        where = f"{path or 'Start'} at {width} px"
        found = blocking(violations(page, where), where)
    finally:
        page.close()
    assert found == [], "\n".join(found)


def test_the_pipeline_pictures_are_drawn_with_a_size(server, sized_page, wait_for_app):
    size, page = sized_page
    page.goto(f"{server}/Pipeline?batch=12&stride=2")
    wait_for_app(page)
    broadcasting = page.get_by_role("img", name=re.compile("^Broadcasting"))
    broadcasting.scroll_into_view_if_needed()
    expect(broadcasting).to_be_visible()
    width, height = drawn_size(broadcasting)
    assert width > 300 and height > 100  # the whole diagram, not a collapsed element
    alt = broadcasting.get_attribute("alt")
    assert "12 × 4 × 256" in alt and "B = 12" in alt
    for name in ("^Sliding windows", "^Lookup: token_embeddings", "^Lookup: pos_embeddings"):
        picture = page.get_by_role("img", name=re.compile(name))
        expect(picture).to_be_visible()
        assert min(drawn_size(picture)) > 100
    if size == "phone":  # on a phone a diagram fills the column instead of shrinking below it
        column = page.get_by_test_id("stMainBlockContainer")
        assert width >= drawn_size(column)[0] - 80
    lines = page.locator("pre.code-line")  # each step's line of code, in a box wrapped to the column
    expect(lines).to_have_count(6)
    expect(lines.first).to_have_text("token_ids = tokenizer.encode(raw_text)")
    assert min(drawn_size(lines.nth(3))) > 20 and layout_problems(page, MIN_CHART_WIDTH[size]) == []


def test_the_code_opened_by_keyboard_is_drawn_whole_and_closed_is_not_sent(server, sized_page, wait_for_app):
    """Closed, a page's code is neither built nor sent (it costs the browser nothing); Enter on its
    expander opens it: the whole script, wrapped, its downloads, and the focus still on the expander."""
    size, page = sized_page
    page.goto(f"{server}/Why_position")
    wait_for_app(page)
    settled(page)
    assert page.get_by_test_id("stCode").count() == 0
    summary = page.locator("summary", has_text="PyTorch code for this view")
    summary.focus()
    page.keyboard.press("Enter")
    code = page.get_by_test_id("stCode")
    expect(code).to_have_count(1, timeout=30_000)
    expect(code).to_contain_text("tiktoken")
    expect(page.get_by_role("button", name="why_position.ipynb")).to_be_visible()
    settled(page)
    width, height = drawn_size(code)
    assert width > MIN_CHART_WIDTH[size] and height > 1000  # the whole script, not a collapsed box
    assert layout_problems(page, MIN_CHART_WIDTH[size]) == []  # wrapped: nothing cut off at the right
    assert page.evaluate("() => document.activeElement.closest('summary') !== null")
