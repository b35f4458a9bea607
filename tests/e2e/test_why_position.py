"""Why position? in Chromium: a moved word's vector changes, and the words say so."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import evidence


def test_dog_bites_man_shows_a_changed_vector_with_positions(server, page, wait_for_app):
    page.goto(server + "/Why_position?a=dog%20bites%20man&b=man%20bites%20dog")
    wait_for_app(page)
    values = evidence(page, "stMetricValue")
    expect(values.first).to_have_text("1.000000")
    assert float(values.nth(1).inner_text()) < 0.99  # the vector of ' dog' changed with its position
    expect(page.get_by_text("with positions 0 and 2 added")).to_be_visible()
    main = page.get_by_test_id("stMain").inner_text()
    assert "almost none" not in main and "exactly the same 3 vectors" in main
    assert page.get_by_test_id("stException").count() == 0


def test_user_text_in_the_labels_is_shown_as_text(server, page, wait_for_app):
    page.goto(server + "/Why_position?a=%24x%24%20**b**%20cat&b=cat%20%24x%24%20**b**")
    wait_for_app(page)
    main = page.get_by_test_id("stMain")
    label = page.get_by_test_id("stMetricLabel").filter(has_text="no positions")
    expect(label).to_contain_text("cos(' $' in A, ' $' in B)")  # the moved token, shown as typed
    assert main.locator(".katex").count() == 0  # no LaTeX from the sentences
    assert main.locator("strong").filter(has_text=re.compile(r"^b$")).count() == 0  # nor bold
    assert page.get_by_test_id("stException").count() == 0
