"""Reading an uploaded text file: UTF-8 only, with a size limit and a clear message otherwise."""

from __future__ import annotations

MAX_UPLOAD_BYTES = 1_000_000  # 1 MB of text is ~250,000 GPT-2 tokens


def decode_text_file(name: str, data: bytes, limit: int = MAX_UPLOAD_BYTES) -> str:
    """The file's text (a UTF-8 byte-order mark is dropped); ``ValueError`` says what is wrong."""
    if len(data) > limit:
        raise ValueError(f"{name} has {len(data):,} bytes; the limit is {limit:,} bytes (1 MB).")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{name} is not UTF-8 text (byte {exc.start:,} cannot be decoded). "
            "Save it as UTF-8 and upload it again."
        ) from None
    if not text.strip():
        raise ValueError(f"{name} is empty: there is nothing to tokenize.")
    return text
