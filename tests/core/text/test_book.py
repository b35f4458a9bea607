"""The book's text is recognised by its fingerprint, and an upload or paste of it gives the book's tokens.

The text itself is never in the repository: the tests that need it read ``../shared/data/the-verdict.txt``
(``verdict_text``, ``verdict_bytes``) and skip when it is absent.
"""

import hashlib

import pytest

from core.config import PipelineConfig
from core.pipeline import book_text_note
from core.text.book import BOOK_TEXT_CHARS, BOOK_TEXT_SHA256, book_text_ending
from core.text.data import first_batch
from core.text.textfile import decode_text_file
from core.text.tokenizer import encode

BOOK_ROW_0 = [40, 367, 2885, 1464]  # the book's first batch, row b=0 (ch. 2.8)


def test_the_fingerprint_is_the_files(verdict_bytes, verdict_text):
    assert hashlib.sha256(verdict_bytes).hexdigest() == BOOK_TEXT_SHA256
    assert len(verdict_text) == BOOK_TEXT_CHARS
    assert book_text_ending(verdict_text) == ""


@pytest.mark.parametrize(
    "variant",
    [
        lambda b: b,  # the file as published
        lambda b: b.replace(b"\n", b"\r\n"),  # saved with Windows line ends
        lambda b: b"\xef\xbb\xbf" + b.replace(b"\n", b"\r\n"),  # and a byte-order mark
        lambda b: b.replace(b"\n", b"\r"),  # old Mac line ends
    ],
    ids=["file", "crlf", "bom-crlf", "cr"],
)
def test_an_upload_is_the_text_the_books_open_reads(verdict_bytes, verdict_text, variant):
    text = decode_text_file("the-verdict.txt", variant(verdict_bytes))
    assert text == verdict_text  # open(path, encoding="utf-8").read(), token for token
    assert book_text_ending(text) == ""
    assert first_batch(encode(text), 8, 4, 4).inputs[0].tolist() == BOOK_ROW_0


def test_the_book_with_a_final_line_break_is_still_the_books_first_batch(verdict_text):
    text = verdict_text + "\n"
    assert book_text_ending(text) == "\n"
    assert first_batch(encode(text), 8, 4, 4).inputs[0].tolist() == BOOK_ROW_0
    assert "with a line break at its end that the book's file does not have" in book_text_note(
        text, PipelineConfig()
    )


def test_another_text_of_the_same_length_is_not_the_book(verdict_text):
    changed = verdict_text[:-2] + "!" + verdict_text[-1]
    assert len(changed) == BOOK_TEXT_CHARS and book_text_ending(changed) is None
    assert book_text_note("The cat sat on the mat.", PipelineConfig()) is None


def test_the_note_says_whether_the_settings_are_the_books(verdict_text):
    at_book = book_text_note(verdict_text, PipelineConfig())
    assert at_book.startswith("This is the book's text, the-verdict.txt from chapter 2")
    assert "at the book's settings: the batch below is the book's first batch, token for token." in at_book
    embeddings = book_text_note(verdict_text, PipelineConfig(output_dim=64, method="rope"))
    assert "the batch below is the book's first batch, token for token" in embeddings
    assert embeddings.endswith("d = 64 (the book's 256) and RoPE (the book's Learned absolute).")
    batch = book_text_note(verdict_text, PipelineConfig(context_length=8, batch_size=4, output_dim=64))
    assert batch.endswith(
        "at T = 8 (the book's 4) and B = 4 (the book's 8) the first batch is not the book's."
    )
    assert "first batch, token for token" not in batch
    assert "at V = 1,000 (the book's 50,257) the first" in book_text_note(
        verdict_text, PipelineConfig(vocab_size=1000)
    )


@pytest.mark.parametrize(
    "data, text",
    [(b"a\r\nb\rc\n", "a\nb\nc\n"), (b"\xef\xbb\xbfx\r\n", "x\n"), (b"a\r\r\nb", "a\n\nb")],
)
def test_line_ends_are_read_as_python_reads_a_text_file(data, text, tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(data)
    assert decode_text_file("t.txt", data) == text == path.read_text(encoding="utf-8-sig")
