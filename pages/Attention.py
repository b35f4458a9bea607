"""Attention: where position acts. One head's scores on the student's two sentences, for every family."""

from contextlib import nullcontext

import streamlit as st

from core.attention.facts import key_fact
from core.attention.headline import pairs_of
from core.attention.sentences import check_settings, trained_maps
from core.order import check_sentence_tokens, mid_sentence
from core.positional.family import FAMILIES
from core.scripts.attention import attention_script
from core.text.tokenizer import token_strings
from core.views.glossary import named
from ui.answer import answer_slot, show_answer
from ui.app import settings
from ui.attention.answer import attention_answer, offered
from ui.attention.bridge import TAUGHT, attention_bridge
from ui.attention.heatmaps import (
    EVERY_FAMILY_PARTS,
    every_family_maps,
    side_by_side,
    split_view,
)
from ui.attention.pairs import PAIRS_QUESTION, pair_question, row_table, weights_note
from ui.attention.settings import attention_settings
from ui.attention.trained import trained_head, trained_run, weights_switch
from ui.code_view import show_script
from ui.navigation import page_title
from ui.pair_headline import quoted
from ui.predict import revealed
from ui.presenter import presenting
from ui.server import cache
from ui.slides import Slides
from ui.tables import token_text
from ui.todays_models.on_sentence import head_shares, todays_models_note
from ui.why_position.sentences import (
    followed_places,
    followed_token,
    in_a_note,
    longer_table_note,
    sentence_inputs,
    token_pickers,
)

cfg, _ = settings()
page_title("Attention: where position acts")
slot = answer_slot()  # the answer, in short, under the question (filled once the maps are computed)
# The methods the answer names, and so defines; the page defines the others where it first names them.
said = set() if slot is None else {FAMILIES[k].label for k in (*offered(cfg.method), cfg.method)}
if not presenting():
    st.markdown(
        "Absolute methods add position to the input embeddings. Relative methods leave the input alone and "
        "act inside attention, on the score of each pair of tokens: there they can see how far apart two "
        "tokens are. Same two sentences as **Why position?**."
    )
with st.sidebar if presenting() else nullcontext():  # presenting, the inputs wait in the sidebar
    typed_a, typed_b, mid = sentence_inputs()
    # Tracked (a rerun when opened or closed), so it stays open while its own settings change the page.
    with st.expander(
        "Attention settings: heads, the head shown, the mask, each family's own",
        key="attention_settings",
        on_change="rerun",
    ):
        chosen = attention_settings(1 if presenting() else 4, said)
    run = trained_run()
    use_trained = weights_switch(run)
text_a, text_b = (mid_sentence(typed_a), mid_sentence(typed_b)) if mid else (typed_a, typed_b)
try:
    cfg.validate()
    check_settings(chosen, cfg)
    if not typed_a.strip() or not typed_b.strip():
        raise ValueError("Type a sentence in both boxes.")
    ids = cache.token_ids(text_a, cfg.vocab_size), cache.token_ids(text_b, cfg.vocab_size)
    check_sentence_tokens(len(ids[0]), len(ids[1]), cfg.output_dim)
except ValueError as exc:
    st.error(str(exc))
    st.stop()

every = view = cache.sentence_maps((text_a, text_b), cfg, chosen)  # seeded random heads: every family on A
if use_trained:
    try:
        view = trained_maps(trained_head(run, chosen), ids, cfg.vocab_size)
    except ValueError as exc:
        st.warning(f"{exc} Showing the random head.")
family = FAMILIES[view.method]
causal = view is not every or chosen.causal
pieces = (token_strings(view.ids_a, cfg.vocab_size), token_strings(view.ids_b, cfg.vocab_size))
mask = "Causal mask on." if causal else "No mask: every token sees every token."
weights = f"Weights: {view.weights}. {view.head_label.capitalize()}. {mask}"
if not presenting():
    show_script(
        lambda: attention_script(cfg, chosen.fam, chosen.head, chosen.causal, text_a, text_b),
        f"with seeded random weights, it prints sentence A's content part, what {FAMILIES[cfg.method].label} "
        "changes and the weights, B's weights, the moved token's row and the pairs' terms, and last one JSON "
        "line with them.",
    )
headline = pairs_of(view, cfg.vocab_size, causal)
answer = attention_answer(view, headline)
show_answer(slot, answer)

followed = followed_token(view.ids_a, view.ids_b, cfg.vocab_size)
query = None if followed is None else (followed.sentence, followed.place)  # the query, in its own sentence
in_a = None if followed is None else followed.a  # its row in A's maps (section 4 draws A only)
label = "A" if followed is None else followed.sentence  # section 2's sentence: the followed token's
slides = Slides(
    "attention",
    [
        ("Attention in one minute", ["", "one query's row"]),
        f"Where {family.label} acts",
        "A and B, side by side",
        ("Every family", EVERY_FAMILY_PARTS),
    ],
)
if not slides.on:
    token_pickers(view.ids_a, view.ids_b, cfg.vocab_size, "follow its row in the maps below")
if slides.shows(1):
    st.subheader("1. Attention in one minute")
    attention_bridge(view, pieces, causal, words=slides.at(0), picture=slides.at(1), followed=query)

if slides.shows(2):
    st.subheader(f"2. Where {family.label} acts, on sentence {label} ({view.head_label})")
    distances = [p.a.distance for p in (headline.kept, headline.changed) if p] + [
        p.b.distance for p in (headline.kept, headline.changed) if p
    ]
    told = not slides.on or revealed(PAIRS_QUESTION)  # what follows for a pair is section 3's question
    st.info(key_fact(family, chosen.fam, view.head, distances, causal, told), icon=":material/key:")
    if not slides.on:  # the key fact says it, and the projector's screen is short
        st.caption(weights)
    if slides.on:
        pass
    elif family.additive:
        st.markdown(
            f"{family.label} adds its table to the input, so these scores are computed from **x + p**: "
            "the position part is what adding p changed."
            + (" " + note if (note := longer_table_note(family, max(map(len, ids)), cfg)) else "")
        )
    elif family.where:
        st.markdown(f"{family.where}: the position part is exactly that term. The input is the token alone.")
    else:
        st.markdown(
            f"{family.label} adds nothing anywhere: its only position signal is the **causal mask** "
            "(grey), so a token sees just the tokens up to itself. Without the mask it could not tell orders "
            "apart."
        )
    shown = (view.maps_a[view.method], pieces[0]) if label == "A" else (view.map_b, pieces[1])
    split_view(family, *shown, label, None if followed is None else followed.place)
    if followed is not None and not slides.on:  # presenting, the slide has no room: the outline shows it
        st.caption(f"Outlined: the query row of the token you follow, {followed_places(followed)}.")
    if not slides.on:
        shares = (lambda: head_shares(ids[0], cfg, chosen.fam, chosen.head)) if view is every else None
        todays_models_note(view.method, max(map(len, ids)), TAUGHT, shares)  # TAUGHT: section 1's words

moved = view.moved
if slides.shows(3):
    st.subheader("3. A and B, side by side")
    if moved is None:
        st.info("No token the sentences share moved, so there is no row to compare. Move a word.")
    elif not slides.on or pair_question(headline, family, view):
        piece = quoted(pieces[0][moved.position_a])
        st.markdown(  # above the maps: what to see in them
            f"{piece} moved from position {moved.position_a} to {moved.position_b}. "
            + (
                " ".join(headline.sentences)
                if headline.sentences
                else "No two tokens occur exactly once in both sentences, so there is no pair to compare."
            )
        )
        side_by_side(view, pieces, None if followed is None else (followed.a, followed.b))
        if not slides.on:
            st.caption(weights_note(headline, piece))
        if followed is not None and followed.token_id != moved.token_id:  # two tokens: say which is which
            st.caption(
                f"The maps outline the token you follow, {followed_places(followed)}; the sentences above "
                f"are about {piece}, the first token that moved."
            )
        if not slides.on and followed is not None:
            yours = token_text(followed.piece)
            st.markdown(
                f"The attention row of the token you follow, {yours}, in A and in B:"
                if followed.counterpart is not None
                else f"The attention row of the token you follow, {yours}, in {followed.sentence}; it is not "
                f"in {followed.other}, so it has no row there to compare (its column is empty):"
            )
            row_table(view, cfg.vocab_size, (followed.a, followed.b))
        elif not slides.on:
            row_table(view, cfg.vocab_size)

if slides.shows(4):
    st.subheader(f"4. Every family on sentence A ({every.head_label})")
    if not slides.on:
        st.markdown(
            "What each family changes in the scores (the position part): the same sentence and the same "
            "seeded random head for all, so each family's signature shows."
            + "".join(f" {named(f.label)}." for f in FAMILIES.values() if f.label not in said)
        )
    note = in_a_note(followed) if followed is not None and every is view else None
    pieces_a = token_strings(every.ids_a, cfg.vocab_size)
    every_family_maps(every, pieces_a, in_a if every is view else None, slides.part, note)
