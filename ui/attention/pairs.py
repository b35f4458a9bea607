"""The Attention page's third section around its maps: the prediction asked first when presenting, what
besides the method moves the weights, and a token's attention row in A and in B, key by key."""

from __future__ import annotations

import pandas as pd
import streamlit as st
import torch

from core.attention.compare import tokens_back
from core.attention.headline import PairHeadline
from core.attention.sentences import SentenceMaps, move_row
from core.positional.family import Family
from core.text.tokenizer import token_strings
from core.views.units import plural
from ui.pair_headline import quoted
from ui.predict import predict_number, predict_token
from ui.tables import table, token_text

PAIRS_QUESTION = "attention_pairs"  # presenting, section 3's prediction; section 2's key fact waits for it


def pair_question(headline: PairHeadline, family: Family, view: SentenceMaps) -> bool:
    """Presenting, the A-and-B section's prediction, answerable by reasoning about the method; True once
    revealed (or when there is nothing to ask)."""
    kept, changed, pieces = headline.kept, headline.changed, headline.pieces
    if headline.silent:
        if not headline.causal or view.moved is None:
            return True
        piece = quoted(pieces[view.moved.token_id])
        question = f"With the causal mask, how many tokens (itself included) can {piece} see in B?"
        return predict_number(PAIRS_QUESTION, question, headline.seen[1], 0.5)
    if family.attention_bias is not None and changed is not None:
        one = float(family.attention_bias(view.num_heads, torch.arange(2))[view.head, 1, 0])  # distance 1
        pair = f"{quoted(pieces[changed.query_a])} → {quoted(pieces[changed.key_a])}"
        question = (
            f"In {view.head_label}, {family.label} adds {one:.4g} to the score of two tokens 1 apart. What "
            f"does it add to the score of {pair} in A, {tokens_back(changed.a.distance)}?"
        )
        return predict_number(PAIRS_QUESTION, question, changed.a.term, 0.005)
    if kept is None:
        return True
    pair = f"{quoted(pieces[kept.query_a])} → {quoted(pieces[kept.key_a])}"
    question = (
        f"{pair} is {tokens_back(kept.a.distance)} in A and in B. Does {family.label} give this pair the "
        "same term in both? (yes or no)"
    )
    return predict_token(PAIRS_QUESTION, question, "yes" if kept.same_term else "no")


def weights_note(headline: PairHeadline, piece: str) -> str:
    """What moves the weights of A and B besides the method: the head's content scores and the mask.

    ``piece``: the moved token, quoted for Markdown.
    """
    a, b = headline.seen
    mask = (
        f"and the causal mask, which lets {piece} see {plural(a, 'token')} in A and {b} in B"
        if headline.causal
        else "and no mask (it is off here)"
    )
    return (
        "The weights in A and B differ for three reasons: the random head's scores of the tokens themselves, "
        f"what the method adds for position (the terms above), {mask}. Only the terms are the method's own."
    )


def row_table(
    view: SentenceMaps, vocab_size: int, queries: tuple[int | None, int | None] | None = None
) -> None:
    """A token's attention row, key token by key token, in A and in B: at ``queries`` (the followed
    token's places; None in a sentence that does not have it), else the moved token's."""
    row = move_row(view, queries)

    def seen(weight: float | None, masked: bool) -> float | None:  # a hidden key gets no weight
        return None if weight is None or masked else weight

    a = [seen(k.weight_a, k.masked_a) for k in row]
    b = [seen(k.weight_b, k.masked_b) for k in row]
    weights = {
        "weight in A": a,
        "weight in B": b,
        "B − A": [None if x is None or y is None else y - x for x, y in zip(a, b, strict=True)],
    }
    frame = pd.DataFrame(
        {"key token": token_strings([k.token_id for k in row], vocab_size), **weights}, dtype=object
    )
    formats = {"key token": token_text} | dict.fromkeys(weights, "{:.4f}")
    table(frame.astype(dict.fromkeys(weights, float)), formats, hide_index=True)
    st.caption(row_note(view, vocab_size))


def row_note(view: SentenceMaps, vocab_size: int) -> str:
    """What an empty cell of the row table means, and which tokens' weights are sums (they occur twice)."""
    note = "An empty cell: the key token is not in that sentence, or the causal mask hides it from the query."
    repeated = []
    for label, ids in (("A", view.ids_a), ("B", view.ids_b)):
        many = [t for t in dict.fromkeys(ids) if ids.count(t) > 1]
        repeated += [f"{quoted(p)} in {label}" for p in token_strings(many, vocab_size)]
    if repeated:
        listed = repeated[0] if len(repeated) == 1 else ", ".join(repeated[:-1]) + " and " + repeated[-1]
        note += f" A token that occurs more than once gets the sum of its weights: {listed}."
    return note
