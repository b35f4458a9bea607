"""Why position?'s own pieces: the two sentences and how to read them (URL keys a, b, space), and the
shared-token table."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.order import OrderComparison, SharedToken
from core.text.tokenizer import token_strings
from ui.state.url_keys import register_url_keys, url_bound
from ui.state.url_params import MAX_SENTENCE_CHARS
from ui.widgets import table as draw_table
from ui.widgets import token_text

register_url_keys("a", "b", "space")


SENTENCE_A, SENTENCE_B = "The cat sat on the mat", "On the mat the cat sat"  # the lecture's pair


def sentence_inputs() -> tuple[str, str, bool]:
    """Sentence A, sentence B (each at most ``MAX_SENTENCE_CHARS``) and whether they stand mid-sentence."""
    col_a, col_b = st.columns(2)
    typed_a = col_a.text_input("Sentence A", SENTENCE_A, max_chars=MAX_SENTENCE_CHARS, **url_bound("a"))
    typed_b = col_b.text_input("Sentence B", SENTENCE_B, max_chars=MAX_SENTENCE_CHARS, **url_bound("b"))
    mid = st.toggle(
        "Read each sentence as if it stood mid-sentence (a space before its first word)",
        value=True,
        **url_bound("space"),
        help="GPT-2 keeps a word's leading space in its token: 'dog' at the start of a text and ' dog' "
        "inside one are different token IDs, so a word that moves to or from the start would not be "
        "compared.",
    )
    return typed_a, typed_b, mid


def shared_table(shared: list[SharedToken], vocab_size: int) -> None:
    """One row per token the sentences share: its positions, cosines and norms without and with positions."""
    table = pd.DataFrame(
        {
            "token": token_strings([s.token_id for s in shared], vocab_size),
            "ID": [s.token_id for s in shared],
            "position in A": [s.position_a for s in shared],
            "position in B": [s.position_b for s in shared],
            "cosine, no positions": [s.cosine_without for s in shared],
            "cosine, with positions": [s.cosine_with for s in shared],
            "norm, no positions": [s.norm_without for s in shared],
            "norm in A, with positions": [s.norm_with_a for s in shared],
            "norm in B, with positions": [s.norm_with_b for s in shared],
        }
    )
    numbers = [c for c in table.columns if c.startswith(("cosine", "norm"))]
    draw_table(table, {"token": token_text} | dict.fromkeys(numbers, "{:.6f}"), hide_index=True)


def comparison_table(comparisons: dict[str, OrderComparison]) -> None:
    """One row per pair of orders (its name: its comparison): vectors kept, cosines and gaps of the means."""
    rows = [
        {
            "pair": name,
            "same vectors, no positions": f"{c.shared_without} of {c.num_vectors}",
            "same vectors, with positions": f"{c.shared_with} of {c.num_vectors}",
            "cos of means, no positions": c.mean_cosine_without,
            "cos of means, with positions": c.mean_cosine_with,
            "max |diff| of means, with positions": c.mean_diff_with,
        }
        for name, c in comparisons.items()
    ]
    names = ("cos of means, no positions", "cos of means, with positions")
    formats = dict.fromkeys(names, "{:.6f}") | {"max |diff| of means, with positions": "{:.1e}"}
    draw_table(pd.DataFrame(rows), formats, hide_index=True)
