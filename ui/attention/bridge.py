"""Attention in one minute: what queries, keys, scores, softmax, heads and the causal mask are, in words,
and one query's row of the student's sentence as their picture (the Attention page's first section; the
words, folded, on the pages that speak of attention)."""

from __future__ import annotations

import streamlit as st

from core.attention.charts import (
    query_row_frame,
    query_row_sentences,
    query_scores_chart,
    query_weights_chart,
)
from core.attention.compare import visible_keys
from core.attention.display import token_labels
from core.attention.sentences import SentenceMaps
from core.positional.family import FAMILIES
from core.views.glossary import define
from core.views.units import plural
from ui.charts import draw
from ui.pair_headline import quoted
from ui.server.cache import chart

BRIDGE = "Attention in one minute: queries, keys, scores, softmax, heads and the causal mask"

BRIDGE_WORDS = (
    f"The input embeddings go first into {define('attention')}. From each token's input embedding x "
    f"it makes a {define('query and key')}: q = x·W_q and k = x·W_k, with two matrices the model learns. "
    f"The {define('score')} of query i for key j is q·k/√dh, where dh is how many numbers q and k each "
    f"have (dividing by √dh keeps scores from growing with it). A {define('softmax')} is applied to "
    f"each row of scores: "
    f"its weights say how much token i takes from each token j. A model runs several "
    f"{define('head', 'heads')}. GPT also uses a {define('causal mask')}."
)

TAUGHT = (
    "attention",
    "query and key",
    "score",
    "softmax",
    "head",
    "causal mask",
)  # what BRIDGE_WORDS defines


def attention_bridge(
    view: SentenceMaps,
    pieces: tuple[list[str], list[str]],
    causal: bool,
    words: bool = True,
    picture: bool = True,
    followed: tuple[str, int] | None = None,
) -> None:
    """What attention is, in a few sentences (``words``), and one query's row as its picture (``picture``;
    presenting, the two are slides of their own): the followed token's, in the sentence it was picked in
    (``followed``: "A" or "B" and its position there), else sentence A's token mid-sentence."""
    if words:
        st.markdown(BRIDGE_WORDS)
    if not picture:
        return
    label, query = followed or ("A", len(pieces[0]) // 2)  # mid-sentence: it sees some tokens, not the rest
    m, shown = (view.maps_a[view.method], pieces[0]) if label == "A" else (view.map_b, pieces[1])
    T = len(shown)
    hidden = T - visible_keys(m, query)
    if causal and hidden:
        seen = f"the causal mask hides the {plural(hidden, 'token')} after it"
    else:
        seen = "it sees every token" + (" (it is the last one)" if causal else " (the mask is off)")
    who = (
        f"sentence A's token {quoted(shown[query])} (position {query})"
        if followed is None
        else f"{quoted(shown[query])} (position {query} of {label}, the token you follow)"
    )
    st.markdown(
        f"Below, {who} as the query, with "
        f"{FAMILIES[view.method].label} and {view.head_label}: {seen}. The head's W_q and W_k are random "
        "(seeded), not trained, so the tokens' part of each score is arbitrary; what the positional method "
        "adds is exact."
    )
    labels = token_labels(shown)
    frame = query_row_frame(m, labels, query)
    said = query_row_sentences(frame, labels[query])
    builds = (query_scores_chart, query_weights_chart)
    for cell, build, words in zip(st.columns(2), builds, said, strict=True):
        draw(chart(build, frame, words), cell, width="stretch")  # as tall as its keys need


def attention_bridge_expander() -> None:
    """The bridge's words, folded, for a page that speaks of queries, keys and scores, with a link to
    its picture on the student's own sentence (the Attention page's first section)."""
    with st.expander(f"New to attention? {BRIDGE}", icon=":material/school:"):
        st.markdown(BRIDGE_WORDS)
        st.page_link(
            "pages/Attention.py",
            label="See it on your own sentence: Attention, section 1",
            icon=":material/grid_on:",
        )
