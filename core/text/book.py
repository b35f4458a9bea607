"""The book's text, ``the-verdict.txt``, recognised by its fingerprint: the app never ships it.

Raschka's *Build a Large Language Model (From Scratch)* reads it in chapter 2 and cuts its first batch
at the settings that are the sidebar's defaults (``PipelineConfig``). A student who uploads or pastes it
sees that batch; ``core.pipeline.book_text_note`` says so, and which settings keep it from being the book's.
"""

from __future__ import annotations

import hashlib

BOOK_TITLE = "Build a Large Language Model (From Scratch)"
BOOK_TEXT_NAME = "the-verdict.txt"
BOOK_TEXT_URL = (
    "https://raw.githubusercontent.com/rasbt/LLMs-from-scratch/main/ch02/01_main-chapter-code/the-verdict.txt"
)
# SHA-256 of the file's UTF-8 bytes as published: 20,479 ASCII characters, "\n" line ends, no BOM and
# no final line break. A copy with "\r\n" line ends reads the same once its line ends are read as
# Python's open() reads them (core.text.textfile), so this one fingerprint covers both.
BOOK_TEXT_SHA256 = "b41e41a68f0398a3154ae69e2e4c0e2694e17fe0d66730536837f1b01935b31f"
BOOK_TEXT_CHARS = 20_479  # its length: a text of another length is not hashed at all


def book_text_ending(text: str) -> str | None:
    """What follows the book's text in ``text`` ("" for the file itself), or None if it is another text.

    Blank characters after it (an editor's final line break) still make it the book's text: they
    change only its last tokens, never its first batch.
    """
    body = text.rstrip()
    if len(body) != BOOK_TEXT_CHARS:
        return None
    if hashlib.sha256(body.encode("utf-8")).hexdigest() != BOOK_TEXT_SHA256:
        return None
    return text[len(body) :]
