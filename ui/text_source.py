"""The text the pipeline runs on: a sample, pasted text or an uploaded file (source, sample, text, upload)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from core.serving.budget import MAX_TEXT_BYTES, MAX_TEXT_CHARS
from core.text.book import BOOK_TEXT_NAME, BOOK_TEXT_URL, BOOK_TITLE
from core.text.samples import SAMPLE_TITLES, SAMPLES
from core.text.textfile import MAX_UPLOAD_BYTES, decode_text_file, too_large_message
from core.views.markup import escape_markdown
from ui.state.named_choice import named_choice
from ui.state.url_keys import register_url_keys

# Both caps derive from the server's memory budget (core.serving.budget): what a class's texts keep together.
PASTE_HELP = (
    f"At most {MAX_TEXT_CHARS:,} characters and {MAX_TEXT_BYTES:,} bytes of UTF-8 ({MAX_TEXT_BYTES:,} "
    "tokens at V = 257): the server's memory is shared by the whole class. Longer texts: upload a file."
)
DEFAULT_SAMPLE = "lesson"
LONG_SAMPLE = "log"
register_url_keys("sample")


@dataclass(frozen=True)
class TextChoice:
    """The text the pipeline runs on, or why there is none."""

    text: str  # the text ("" when there is none)
    label: str  # where it came from, for captions
    error: str | None = None  # a message for the user instead of a text


def use_long_sample() -> None:
    """A button's callback: the long sample as the text."""
    st.session_state.update(source="sample", sample=LONG_SAMPLE)


def _read_upload() -> TextChoice:
    upload = st.file_uploader(
        f"A .txt file (UTF-8, at most {MAX_UPLOAD_BYTES // 1000:,} kB)",
        type=["txt"],
        key="upload",
        max_upload_size=1,  # Streamlit's smallest (MB); decode_text_file holds it to MAX_UPLOAD_BYTES
    )
    if upload is not None:  # kept in this session's state so it survives a page switch
        try:
            text = decode_text_file(upload.name, upload.getvalue())
            st.session_state["uploaded_text"] = TextChoice(text, f"uploaded file {upload.name}")
        except ValueError as exc:
            st.session_state["uploaded_text"] = TextChoice(
                "", "", escape_markdown(str(exc))
            )  # names the file
    return st.session_state.get("uploaded_text", TextChoice("", "", "Upload a .txt file to use it."))


def text_source() -> TextChoice:
    """Sample, pasted or uploaded text (widget keys ``source``, ``sample``, ``text``, ``upload``)."""
    source = st.radio(
        "Text",
        ["sample", "paste", "upload"],
        horizontal=True,
        key="source",
        format_func=str.capitalize,
        persist_state="session",
    )
    if source != "sample":  # where the book's text comes from: the app recognises it, never ships it
        how = "download" if source == "upload" else "open"
        what = "upload it here" if source == "upload" else "paste its whole text here"
        st.caption(
            f"The book's text (*{BOOK_TITLE}*, ch. 2): [{how} {BOOK_TEXT_NAME}]({BOOK_TEXT_URL}) and {what}."
        )
    if source == "paste":
        text = st.text_area(
            "Paste text",
            key="text",
            height=140,
            max_chars=MAX_TEXT_CHARS,
            persist_state="session",
            placeholder="Paste any text here",
        )
        st.caption(PASTE_HELP)  # under the box, not behind a "?" button: no Tab stop of its own
        if not text:  # a text of newlines or spaces is a text: GPT-2's BPE has tokens for them
            return TextChoice("", "", "The text is empty: paste some text, or pick a sample.")
        if (size := len(text.encode("utf-8"))) > MAX_TEXT_BYTES:  # by what it costs, not its characters
            return TextChoice("", "", too_large_message("The pasted text", len(text), size))
        return TextChoice(text, "pasted text")
    if source == "upload":
        return _read_upload()
    # The list shows each sample's title; the URL keeps its name (sample=log).
    name = named_choice("Sample", list(SAMPLES), "sample", DEFAULT_SAMPLE, SAMPLE_TITLES.get)
    return TextChoice(SAMPLES[name], f"sample: {SAMPLE_TITLES[name]}")
