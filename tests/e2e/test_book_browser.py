"""The book's text in Chromium: uploading the-verdict.txt shows the book's first batch.

A student downloads the file the sidebar links to and uploads it; the Pipeline says it is the book's
text and its inputs row b=0 is the book's 40, 367, 2885, 1464. The file is never in the repository:
the test skips when ../shared/data has no copy.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from core.text.book import BOOK_TEXT_URL
from tests.e2e.conftest import evidence, settled

BOOK_ROW_0 = ["40", "367", "2885", "1464"]
SETTLE_MS = 120_000  # a rerun on a loaded 2-core machine: a wait, not a bound


def inputs_row_0(page):
    """The inputs table's row b=0, its label first."""
    table = evidence(page, "stTable").first
    row = table.locator("tbody tr").filter(has=page.locator("th", has_text=re.compile(r"^b=0$")))
    return row.first.locator("th, td")


def upload(page, name: str, data: bytes) -> None:
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        {"name": name, "mimeType": "text/plain", "buffer": data}
    )


def test_uploading_the_book_shows_its_first_batch(server, page, wait_for_app, verdict_bytes):
    page.goto(server + "/Pipeline")
    wait_for_app(page)
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_role("combobox", name="Preset", exact=True)).to_have_value(
        "The book's setting (ch. 2.8)"
    )
    sidebar.get_by_text("Upload", exact=True).click()
    link = sidebar.get_by_role("link", name="download the-verdict.txt")
    expect(link).to_have_attribute("href", BOOK_TEXT_URL)
    upload(page, "the-verdict.txt", verdict_bytes)
    main = page.get_by_test_id("stMain")
    note = main.get_by_test_id("stAlertContentInfo").filter(has_text="This is the book's text")
    expect(note).to_contain_text(
        "at the book's settings: the batch below is the book's first batch", timeout=60_000
    )
    expect(
        main.get_by_text("uploaded file the-verdict.txt: 20,479 characters → 5,145 tokens", exact=False)
    ).to_be_visible()
    settled(page, SETTLE_MS)
    expect(inputs_row_0(page)).to_have_text(["b=0", *BOOK_ROW_0])  # its label, then t=0..3
    chips = page.locator(".st-key-chips-token [role='radiogroup'] > button")
    ids = [re.findall(r"[0-9]+", c)[-1] for c in chips.all_inner_texts()[:4]]  # piece, then ID
    assert ids == BOOK_ROW_0
    # The same file saved with Windows line ends is read as the book's open() reads it: the same tokens.
    upload(page, "the-verdict-crlf.txt", verdict_bytes.replace(b"\n", b"\r\n"))
    expect(
        main.get_by_text("uploaded file the-verdict-crlf.txt: 20,479 characters → 5,145 tokens", exact=False)
    ).to_be_visible(timeout=60_000)
    expect(note).to_contain_text("the batch below is the book's first batch")
    settled(page, SETTLE_MS)
    expect(inputs_row_0(page)).to_have_text(["b=0", *BOOK_ROW_0])  # its label, then t=0..3
    assert page.get_by_test_id("stException").count() == 0
