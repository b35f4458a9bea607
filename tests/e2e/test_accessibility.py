"""axe-core (``tests/e2e/axe.py``: no serious or critical violation of WCAG 2.0, 2.1 or 2.2, level A or
AA; one h1; every text a chart draws as SVG at least 4.5:1 on white) on the pages that mark a followed
token, at 1400 px with every expander open; and a wide table scrolled by keyboard. Every page at desktop
and phone width is checked as ``test_layout`` draws it, and every presenter slide as
``test_presenter_fit`` walks it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import HEIGHT_JS, problems
from tests.e2e.conftest import app_ready, settled

WIDTH = 1400


FOLLOWING = ["Pipeline?token=5", "Attention?token_b=3", "Why_position?token_a=1"]  # a token's marks drawn


@pytest.mark.parametrize("path", FOLLOWING)
def test_a_followed_tokens_marks_pass_axe(server, tabs, path):
    page = tabs.new_page({"width": WIDTH, "height": 900})
    try:
        page.goto(f"{server}/{path}")
        app_ready(page)
        settled(page)
        closed = page.locator("[data-testid=stMain] [data-testid=stExpander] details:not([open]) > summary")
        for _ in range(closed.count()):  # each click may rerun the page (a tracked expander)
            closed.first.click()
            settled(page)
        page.set_viewport_size({"width": WIDTH, "height": page.evaluate(HEIGHT_JS)})
        settled(page)
        found = problems(page, path or "Start", path or "Start")
    finally:
        page.close()
    assert found == [], "\n".join(found)


PHONE = {"width": 390, "height": 844}


def test_a_wide_table_scrolls_by_keyboard(server, tabs):
    page = tabs.new_page(PHONE)
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
