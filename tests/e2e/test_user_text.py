"""User text is read, never rendered: Markdown, LaTeX, directives and HTML from users stay text.

One hostile string goes through every place that shows user text — the pasted text's chips, an uploaded
file's name, Why position?'s sentences and the token named in its metric, a bad URL value in the
message that explains it — and Chromium must draw it literally: no link, no formula, no bold, no colour.
"""

from urllib.parse import quote

from playwright.sync_api import expect

HOSTILE = "$x$ **bold** [l](javascript:alert(1)) :red[x] <b>tag</b>"

# What any of the five would become if rendered: a link, KaTeX, bold, a coloured span, an HTML element.
RENDERED = """() => {
  const found = [];
  if (document.querySelector('a[href^="javascript"]')) found.push('javascript link');
  if (document.querySelector('.katex, .katex-display')) found.push('formula');
  for (const el of document.querySelectorAll('strong, b')) {
    if (['bold', 'tag'].includes(el.textContent.trim())) found.push('bold ' + el.textContent);
  }
  for (const el of document.querySelectorAll('[data-testid=stMain] span, [data-testid=stSidebar] span')) {
    if (el.textContent === 'x' && el.getAttribute('style') && el.getAttribute('style').includes('color'))
      found.push('coloured x');
  }
  return found;
}"""


def rendered_markup(page) -> list[str]:
    return page.evaluate(RENDERED)


def test_pasted_text_stays_text_in_the_chips(server, page, wait_for_app):
    page.goto(server + "/Pipeline?context=3&batch=2&stride=1")
    wait_for_app(page)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Paste", exact=True).click()
    area = sidebar.get_by_role("textbox", name="Paste text")
    area.fill(HOSTILE + " and some more words to fill the windows")
    area.press("Control+Enter")
    expect(page.get_by_text("pasted text:", exact=False)).to_be_visible(timeout=30_000)
    chips = page.locator(".st-key-chips-token")
    expect(chips).to_be_visible()
    shown = chips.inner_text()
    for piece in ("$", "x", "**", "javascript", "alert", "red", "[", "<", ">"):
        assert piece in shown, (piece, shown)
    assert chips.locator("b, strong, a").count() == 0
    assert rendered_markup(page) == []
    assert page.get_by_test_id("stException").count() == 0


def test_an_uploaded_file_name_stays_text(server, page, wait_for_app):
    # A name with "/" cannot be a file on disk; the browser sends whatever name it is given.
    upload = {
        "name": f"{HOSTILE}.txt",
        "mimeType": "text/plain",
        "buffer": b"A small text for the upload test, long enough for one batch of windows. " * 3,
    }
    page.goto(server + "/Pipeline?context=3&batch=2&stride=1")
    wait_for_app(page)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Upload", exact=True).click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(upload)
    caption = (
        page.get_by_test_id("stMain").get_by_test_id("stCaptionContainer").filter(has_text="characters →")
    )
    expect(caption).to_be_visible(timeout=30_000)
    assert f"uploaded file {HOSTILE}.txt:" in caption.inner_text()
    assert rendered_markup(page) == []
    assert page.get_by_test_id("stException").count() == 0


def test_why_position_sentences_and_the_moved_token_stay_text(server, page, wait_for_app):
    a = HOSTILE
    b = ":red[x] <b>tag</b> $x$ **bold** [l](javascript:alert(1))"
    page.goto(f"{server}/Why_position?a={quote(a)}&b={quote(b)}")
    wait_for_app(page)
    label = page.get_by_test_id("stMetricLabel").filter(has_text="no positions").first
    expect(label).to_be_visible(timeout=30_000)
    text = label.inner_text()
    assert text.startswith("cos('") and " in A, '" in text, text
    assert page.locator(".st-key-chips-token_a, .st-key-chips-token_b").count() == 2
    assert rendered_markup(page) == []
    assert page.get_by_test_id("stException").count() == 0


def test_a_bad_url_value_is_quoted_as_text(server, page, wait_for_app):
    page.goto(f"{server}/Pipeline?dim={quote(HOSTILE)}")
    wait_for_app(page)
    message = page.get_by_test_id("stAlertContainer").filter(has_text="dim")
    expect(message.first).to_be_visible(timeout=30_000)
    assert HOSTILE[:40] in message.first.inner_text()
    assert rendered_markup(page) == []
    assert page.get_by_test_id("stException").count() == 0
