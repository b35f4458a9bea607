"""Why position?'s own controls: the two sentences and how to read them (URL keys a, b, space)."""

from __future__ import annotations

import streamlit as st

from ui.url_keys import register_url_keys, url_bound
from ui.url_params import MAX_SENTENCE_CHARS

register_url_keys("a", "b", "space")


def sentence_inputs() -> tuple[str, str, bool]:
    """Sentence A, sentence B (each at most ``MAX_SENTENCE_CHARS``) and whether they stand mid-sentence."""
    col_a, col_b = st.columns(2)
    typed_a = col_a.text_input(
        "Sentence A", "The cat sat on the mat", max_chars=MAX_SENTENCE_CHARS, **url_bound("a")
    )
    typed_b = col_b.text_input(
        "Sentence B", "On the mat the cat sat", max_chars=MAX_SENTENCE_CHARS, **url_bound("b")
    )
    mid = st.toggle(
        "Read each sentence as if it stood mid-sentence (a space before its first word)",
        value=True,
        **url_bound("space"),
        help="GPT-2 keeps a word's leading space in its token: 'dog' at the start of a text and ' dog' "
        "inside one are different token IDs, so a word that moves to or from the start would not be "
        "compared.",
    )
    return typed_a, typed_b, mid
