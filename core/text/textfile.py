"""Reading an uploaded text file: UTF-8 only, bounded by what it costs, with a clear message otherwise."""

from __future__ import annotations

from core.serving.budget import MAX_TEXT_BYTES

# A file's bytes are its text's UTF-8 (a byte-order mark aside), so this is the cap every text meets:
# its tokens at V = 257 (one per byte), derived from the server's memory budget (core.serving.budget).
MAX_UPLOAD_BYTES = MAX_TEXT_BYTES


def too_large_message(what: str, chars: int | None, nbytes: int, limit: int = MAX_TEXT_BYTES) -> str:
    """Why a text of ``nbytes`` bytes of UTF-8 is over ``limit``, in its cost: bytes and tokens at V = 257.

    Args:
        what: "The pasted text", "notes.txt" ... (already escaped if it is shown as Markdown).
        chars: its characters, when known.
    """
    size = f"{chars:,} characters, {nbytes:,} bytes of UTF-8" if chars is not None else f"{nbytes:,} bytes"
    return (
        f"{what} has {size}: {nbytes:,} tokens at V = 257, where every byte is a token. This shared server "
        f"takes texts of at most {limit:,} bytes ({limit:,} tokens at V = 257: about {limit:,} ASCII "
        f"characters, {limit // 3:,} Chinese, Japanese or Korean characters or {limit // 4:,} emoji), so "
        "that a whole class's texts fit in its memory. Use a shorter text; yours is not lost, it stays "
        "where you put it."
    )


def decode_text_file(name: str, data: bytes, limit: int = MAX_UPLOAD_BYTES) -> str:
    """The file's text, its line ends read as ``open()`` reads them and a UTF-8 byte-order mark dropped.

    ``ValueError`` says what is wrong with a file that has no such text.
    """
    if len(data) > limit:
        raise ValueError(too_large_message(name, None, len(data), limit))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{name} is not UTF-8 text (byte {exc.start:,} cannot be decoded). "
            "Save it as UTF-8 and upload it again."
        ) from None
    if not text.strip():
        raise ValueError(f"{name} is empty: there is nothing to tokenize.")
    # Line ends read as Python's open() reads a text file (the book's `open(path, encoding="utf-8")`):
    # "\r\n" and "\r" become "\n", so a copy saved with Windows line ends gives the book's tokens.
    return text.replace("\r\n", "\n").replace("\r", "\n")
