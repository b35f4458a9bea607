"""Attention: where position acts. One head's scores on the student's two sentences, for every family."""

from contextlib import nullcontext

import streamlit as st

from core.attention import change_sentences, top_key
from core.config import FAMILIES
from core.order import check_sentence_tokens, mid_sentence
from core.scripts.attention import attention_script
from core.text import token_strings
from core.views import escape_markdown
from ui import cache
from ui.app import settings
from ui.attention_views import (
    attention_settings,
    check,
    move_row,
    quoted,
    row_table,
    sentence_maps,
    side_by_side,
    small_multiples,
    split_view,
    trained_maps,
    trained_run,
    weights_switch,
)
from ui.code_view import show_script
from ui.presenter import Slides, predict_token, presenting
from ui.sentences import sentence_inputs

cfg, _ = settings()
st.title("Attention: where position acts")
if not presenting():
    st.markdown(
        "Attention compares every token (a **query**, row i) with every token it may see (a **key**, column "
        "j): the score `q·kᵀ/√dh` becomes a weight by a softmax over the row. Absolute methods add position "
        "to the input; relative ones act right here, on the scores. Same two sentences as **Why position?**."
    )
with st.sidebar if presenting() else nullcontext():  # presenting, the inputs wait in the sidebar
    typed_a, typed_b, mid = sentence_inputs()
    # Tracked (a rerun when opened or closed), so it stays open while its own settings change the page.
    with st.expander(
        "Attention settings: heads, the head shown, the mask, each family's own",
        key="attention_settings",
        on_change="rerun",
    ):
        chosen = attention_settings(1 if presenting() else 4)
    run = trained_run()
    use_trained = weights_switch(run)
text_a, text_b = (mid_sentence(typed_a), mid_sentence(typed_b)) if mid else (typed_a, typed_b)
try:
    cfg.validate()
    check(chosen, cfg)
    if not typed_a.strip() or not typed_b.strip():
        raise ValueError("Type a sentence in both boxes.")
    ids = cache.token_ids(text_a, cfg.vocab_size), cache.token_ids(text_b, cfg.vocab_size)
    check_sentence_tokens(len(ids[0]), len(ids[1]), cfg.output_dim)
except ValueError as exc:
    st.error(str(exc))
    st.stop()

every = view = sentence_maps((text_a, text_b), cfg, chosen)  # seeded random heads: every family on A
if use_trained:
    try:
        view = trained_maps(run, chosen, ids, cfg.vocab_size)
    except ValueError as exc:
        st.warning(f"{exc} Showing the random head.")
family = FAMILIES[view.method]
pieces = (token_strings(view.ids_a, cfg.vocab_size), token_strings(view.ids_b, cfg.vocab_size))
mask = "Causal mask on." if view is not every or chosen.causal else "No mask: every token sees every token."
weights = f"Weights: {view.weights}. {view.head_label.capitalize()}. {mask}"
if not presenting():
    st.caption(weights)
if not presenting():
    show_script(
        attention_script(cfg, chosen.fam, chosen.head, chosen.causal, text_a, text_b),
        f"with seeded random heads, it prints sentence A's content part, what {FAMILIES[cfg.method].label} "
        "changes and the weights, B's weights and the moved token's row, and last one JSON line with them.",
    )
slides = Slides("attention", [f"Where {family.label} acts", "A and B, side by side", "Every family"])
if slides.shows(1):
    st.subheader(f"1. Where {family.label} acts, on sentence A ({view.head_label})")
    if slides.on:
        st.caption(weights)
    if family.additive:
        st.markdown(
            f"{family.label} adds its table to the input, so these scores are computed from **x + p**: "
            "the position part is what adding p changed."
        )
    elif family.where:
        st.markdown(f"{family.where}: the position part is exactly that term. The input is the token alone.")
    else:
        st.markdown(
            "NoPE adds nothing anywhere: its only position signal is the **causal mask** (grey), so a token "
            "sees just its prefix. Without the mask it could not tell orders apart."
        )
    split_view(family, view.maps_a[view.method], pieces[0], "A")

moved = view.moved
if slides.shows(2):
    st.subheader("2. A and B, side by side")
    if moved is None:
        st.info("No token the sentences share moved, so there is no row to compare. Move a word.")
    else:
        piece = pieces[0][moved.position_a]
        answer = pieces[1][top_key(view.map_b, moved.position_b)]
        question = f"Which token does {quoted(piece)} attend to most in B under {family.label}?"
        if not slides.on or predict_token("attention_top", question, answer):
            side_by_side(view, pieces)
            row = move_row(view)
            by_id = dict(zip(view.ids_a + view.ids_b, pieces[0] + pieces[1], strict=True))
            words = change_sentences(row, repr(piece), by_id, most=1 if slides.on else 3)
            st.markdown(
                f"{quoted(piece)} moved from position {moved.position_a} to {moved.position_b}. "
                + " ".join(escape_markdown(w) for w in words)
            )
            if not slides.on:
                row_table(row, cfg.vocab_size)

if slides.shows(3):
    st.subheader(f"3. Every family on sentence A ({every.head_label})")
    if not slides.on:
        st.markdown(
            "What each family changes in the scores (the position part): the same sentence and the same "
            "seeded random head for all, so each family's signature shows."
        )
    small_multiples(every, token_strings(every.ids_a, cfg.vocab_size))
