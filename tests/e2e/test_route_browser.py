"""The lesson's route in the browser: the Start page lists the steps, /Pipeline opens with its settings,
and a page's Next link leads to the next step with the settings kept."""

import re

from playwright.sync_api import expect

from core.views.glossary import plain
from ui.navigation import ROUTE


def test_the_start_page_shows_the_route_and_its_links_open_the_steps(server, page, wait_for_app, shots):
    page.goto(server)
    wait_for_app(page)
    expect(page.get_by_role("heading", name="Positional Embeddings Explorer")).to_be_visible()
    main = page.get_by_test_id("stMain")
    for n, stop in enumerate(ROUTE, 1):
        expect(main.get_by_role("link", name=f"{n}. {stop.title}")).to_be_visible()
        expect(main.get_by_text(plain(stop.question))).to_be_visible()  # as drawn: no bold marks
    page.screenshot(path=str(shots / "start_route.png"), full_page=True)
    main.get_by_role("link", name="1. Why position?").click()
    expect(page.get_by_role("heading", name="Why position?")).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"/Why_position"))


def test_a_link_to_the_pipeline_opens_it_with_its_settings(server, page, wait_for_app, wait_for_settled):
    page.goto(server + "/Pipeline?dim=16")
    wait_for_app(page)
    wait_for_settled(page)
    expect(page.get_by_role("dialog")).to_have_count(0)  # no "Page not found"
    expect(page.get_by_role("heading", name="From text to input embeddings")).to_be_visible()
    expect(page.get_by_role("spinbutton", name="Dim d", exact=True)).to_have_value("16")
    expect(page.get_by_text("Step 2 of 8 · The chapter · Positional Embeddings Explorer")).to_be_visible()


def test_next_leads_to_the_next_step_and_keeps_the_settings(server, page, wait_for_app, wait_for_settled):
    page.goto(server + "/Why_position?dim=64")
    wait_for_app(page)
    wait_for_settled(page)
    following = re.compile(r"^Next: step 2 of 8, Pipeline")
    page.get_by_test_id("stMain").get_by_role("link", name=following).click()
    expect(page.get_by_role("heading", name="From text to input embeddings")).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"/Pipeline\?.*dim=64"))
    expect(page.get_by_role("spinbutton", name="Dim d", exact=True)).to_have_value("64")
