"""The book's text, ``the-verdict.txt``, recognised by its fingerprint: the app never ships it.

Raschka's *Build a Large Language Model (From Scratch)* reads it in chapter 2 and cuts its first batch
at the settings that are the sidebar's defaults (``PipelineConfig``). A student who uploads or pastes it
sees that batch; ``book_text_note`` says so, and which settings keep it from being the book's.
"""

from __future__ import annotations

import hashlib

from core.config import PipelineConfig
from core.positional.family import FAMILIES

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
BOOK = PipelineConfig()  # the book's settings (ch. 2.8): V 50,257, d 256, T 4, B 8, stride 4, learned
# The settings that cut the batch (its token IDs), then the ones that only embed it.
_BATCH = (
    ("vocab_size", "V = {}"),
    ("context_length", "T = {}"),
    ("stride", "stride {}"),
    ("batch_size", "B = {}"),
)
_EMBEDDING = (("output_dim", "d = {}"), ("method", "{}"))


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


def _show(key: str, value: object) -> str:
    """A setting's value as the page writes it: 50,257; a method's display name."""
    if key == "method":
        return FAMILIES[value].label if value in FAMILIES else str(value)
    return f"{value:,}"


def _differences(cfg: PipelineConfig, keys: tuple[tuple[str, str], ...]) -> list[str]:
    """Each setting of ``keys`` that differs from the book's: ``T = 8 (the book's 4)``."""
    return [
        f"{form.format(_show(key, getattr(cfg, key)))} (the book's {_show(key, getattr(BOOK, key))})"
        for key, form in keys
        if getattr(cfg, key) != getattr(BOOK, key)
    ]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ending(ending: str) -> str:
    """Blank characters after the text in words: "a line break", "3 line breaks", "2 blank characters"."""
    n = len(ending)
    if set(ending) == {"\n"}:
        return "a line break" if n == 1 else f"{n:,} line breaks"
    return "a blank character" if n == 1 else f"{n:,} blank characters"


def book_text_note(text: str, cfg: PipelineConfig) -> str | None:
    """One sentence for a text that is the book's: whether the page's first batch is the book's, and why not.

    Args:
        text: the text the page runs on.
        cfg: the sidebar's settings.
    Returns None for any other text.
    """
    ending = book_text_ending(text)
    if ending is None:
        return None
    what = f"This is the book's text, {BOOK_TEXT_NAME} from chapter 2 of Raschka's *{BOOK_TITLE}*"
    if ending:
        what += f", with {_ending(ending)} at its end that the book's file does not have"
    batch, embedding = _differences(cfg, _BATCH), _differences(cfg, _EMBEDDING)
    if batch:
        return f"{what}; at {_join(batch)} the first batch is not the book's."
    if embedding:
        return (
            f"{what}, and the batch below is the book's first batch, token for token; its embeddings "
            f"differ from the book's: {_join(embedding)}."
        )
    return f"{what}, at the book's settings: the batch below is the book's first batch, token for token."
