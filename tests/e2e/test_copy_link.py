"""Copy link in Chromium: one click puts a link on the clipboard that reproduces the view."""

from playwright.sync_api import expect


def test_the_copied_link_reproduces_the_view_with_the_pasted_text(server, browser, wait_for_app):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(server + "/Pipeline?context=3&batch=2&stride=1")
    wait_for_app(page)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Paste", exact=True).click()
    area = sidebar.get_by_role("textbox", name="Paste text")
    area.fill("Tiny <b>text</b> & a $x$ that travels in the link.")
    area.press("Control+Enter")
    expect(page.get_by_text("pasted text: 50 characters", exact=False)).to_be_visible(timeout=30_000)
    # The rerun has drawn a new button whose link carries the text, and its script has bound the click.
    page.wait_for_selector('button.copy-link[data-bound][data-link*="text="]', timeout=30_000)
    sidebar.get_by_role("button", name="Copy link").click()
    expect(sidebar.get_by_text("Copied: paste it anywhere")).to_be_visible()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(server) and "text=" in link and "sample=" not in link
    reader = context.new_page()  # another person opening the link
    reader.goto(link)
    wait_for_app(reader)
    expect(reader.get_by_test_id("stSidebar").get_by_role("textbox", name="Paste text")).to_have_value(
        "Tiny <b>text</b> & a $x$ that travels in the link."
    )
    expect(reader.get_by_test_id("stMetricValue").filter(has_text="2 × 3 × 256").first).to_be_visible()
    assert reader.get_by_test_id("stException").count() == 0
    context.close()
