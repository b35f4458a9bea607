"""The book's text and the book's setting on the Pipeline: pasted, the-verdict.txt gives the
book's first batch and the page says so; settings equal to the book's show as its preset.

The text is never in the repository: the tests that need it skip when ../shared/data has no copy.
"""

from streamlit.testing.v1 import AppTest

from core.text.book import BOOK_TEXT_URL
from tests.tables import row_labels

BOOK_ROW_0 = [40, 367, 2885, 1464]  # the book's first batch, row b=0 (ch. 2.8)
BOOK_LABEL = "The book's setting"


def paste(at: AppTest, text: str) -> AppTest:
    at.sidebar.radio(key="source").set_value("paste").run()
    at.sidebar.text_area(key="text").input(text).run()
    return at


def inputs(at: AppTest) -> list[list[int]]:
    """The Pipeline's ``inputs`` table (the first table of token IDs: rows b=…, columns t=…)."""
    frame = next(d.value for d in at.table if row_labels(d.value)[:1] == ["b=0"])
    return frame.values.tolist()


def book_notes(at: AppTest) -> list[str]:
    return [i.value for i in at.info if i.value.startswith("This is the book's text")]


def shown_preset(at: AppTest) -> str:
    box = at.sidebar.selectbox(key="preset")
    return box.options[box.index]


def test_the_pasted_book_gives_the_books_first_batch_and_says_so(open_page, verdict_text):
    at = paste(open_page(), verdict_text)
    assert not at.exception and not at.error
    assert inputs(at)[0] == BOOK_ROW_0
    assert book_notes(at) == [
        "This is the book's text, the-verdict.txt from chapter 2 of Raschka's *Build a Large Language Model "
        "(From Scratch)*, at the book's settings: the batch below is the book's first batch, token for token."
    ]
    at.sidebar.number_input(key="context").set_value(8).run()  # the text stays the book's; the batch not
    assert inputs(at)[0][:4] == BOOK_ROW_0
    assert book_notes(at)[0].endswith("at T = 8 (the book's 4) the first batch is not the book's.")


def test_presenting_the_book_keeps_every_slide_for_its_step(open_page, verdict_text):
    at = paste(open_page(present="true"), verdict_text)  # the slides' room is the steps'
    assert not at.exception and not book_notes(at)


def test_another_text_gets_no_book_sentence(open_page):
    at = paste(open_page(), "The cat sat on the mat. " * 20)
    assert not book_notes(at)


def test_the_sidebar_says_where_the_books_text_comes_from(open_page):
    at = open_page()
    assert not [c for c in at.sidebar.caption if BOOK_TEXT_URL in c.value]  # the sample: nothing to add
    for source, action in [("paste", "paste its whole text here"), ("upload", "upload it here")]:
        at.sidebar.radio(key="source").set_value(source).run()
        line = next(c.value for c in at.sidebar.caption if BOOK_TEXT_URL in c.value)
        assert line.startswith("The book's text (*Build a Large Language Model (From Scratch)*, ch. 2): [")
        assert f"the-verdict.txt]({BOOK_TEXT_URL}) and {action}." in line


def test_the_defaults_show_as_the_books_setting_and_leave_the_address_alone(open_page):
    at = open_page()
    assert shown_preset(at).startswith(BOOK_LABEL) and at.sidebar.selectbox(key="preset").value == "book"
    assert "preset" not in at.query_params  # the settings say it by themselves
    assert not at.info and not any("Preset:" in m.value for m in at.markdown)  # no note, no model panel
    at.sidebar.number_input(key="dim").set_value(64).run()
    assert shown_preset(at) == "Custom settings"
    at.sidebar.number_input(key="dim").set_value(256).run()  # back to the book's values, by hand
    assert shown_preset(at).startswith(BOOK_LABEL)


def test_links_with_the_books_values_show_its_setting(open_page):
    assert shown_preset(open_page(dim="256", context="4", stride="4")).startswith(BOOK_LABEL)
    assert shown_preset(open_page(preset="custom")).startswith(BOOK_LABEL)  # an older link at the defaults
    assert shown_preset(open_page(preset="book", batch="2")).startswith(BOOK_LABEL)
    assert shown_preset(open_page(context="8")) == "Custom settings"
    assert shown_preset(open_page(method="rope")) == "Custom settings"


def test_choosing_the_books_setting_sets_its_values(open_page):
    at = open_page(preset="gpt2-small", sample="log")
    assert at.sidebar.number_input(key="dim").value == 768
    at = at.sidebar.selectbox(key="preset").select("book").run()
    assert not at.exception and not at.error
    sidebar = at.sidebar
    values = {k: sidebar.number_input(key=k).value for k in ("vocab", "dim", "context", "stride")}
    assert values == {"vocab": 50257, "dim": 256, "context": 4, "stride": 4}
    assert sidebar.selectbox(key="method").value == "learned"
    assert shown_preset(at).startswith(BOOK_LABEL) and "preset" not in at.query_params
