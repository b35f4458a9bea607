"""Why position? The lesson's opening example, with numbers; every sentence below is computed."""

import dataclasses
from contextlib import nullcontext

import streamlit as st

from core.order import (
    check_sentence_tokens,
    compare_orders,
    first_moved,
    mid_sentence,
    moved_sentence,
    permutation,
    reordering_sentence,
    shared_tokens,
    shuffle_sentences,
)
from core.positional.family import FAMILIES
from core.scripts.why_position import why_position_script
from core.text.tokenizer import token_strings
from core.views.glossary import define, defined_in
from core.views.markup import escape_markdown
from core.views.units import plural
from ui.answer import answer_slot, show_answer
from ui.app import settings
from ui.attention.bridge import attention_bridge_expander
from ui.code_view import show_script
from ui.navigation import page_title
from ui.pair_headline import pair_headline_or_message, relative_headline
from ui.predict import after_prediction, predict_number
from ui.presenter import presenting
from ui.server import cache
from ui.slides import Slides
from ui.token_chips import token_chips
from ui.why_position.answer import why_answer
from ui.why_position.sentences import (
    comparison_table,
    followed_places,
    followed_token,
    longer_table_note,
    sentence_inputs,
    shared_table,
    token_pickers,
    where_next,
)

cfg, _ = settings()
INTRO = (
    "An embedding layer is a lookup table: a token ID gets **the same vector wherever it "
    "stands**. Type two sentences with the same words in another order and compare."
)
page_title("Why position?")
slot = answer_slot()  # the answer, in short, right under the question (filled once it is computed)
if not presenting():
    st.markdown(INTRO)
    attention_bridge_expander()  # section 2 and the relative methods speak of attention
with st.sidebar if presenting() else nullcontext():  # presenting, the sentences are typed in the sidebar
    typed_a, typed_b, mid = sentence_inputs()
text_a, text_b = (mid_sentence(typed_a), mid_sentence(typed_b)) if mid else (typed_a, typed_b)
try:
    cfg.validate()
    if not typed_a.strip() or not typed_b.strip():
        raise ValueError("Type a sentence in both boxes.")
    ids_a, ids_b = cache.token_ids(text_a, cfg.vocab_size), cache.token_ids(text_b, cfg.vocab_size)
    check_sentence_tokens(len(ids_a), len(ids_b), cfg.output_dim)
except ValueError as exc:
    st.error(str(exc))
    st.stop()

if not presenting():
    show_script(
        lambda: why_position_script(cfg, text_a, text_b),
        "it prints the token IDs, the numbers of the two tables below and the shuffle comparisons.",
    )
order = permutation(len(ids_a), cfg.seed)
ids_p = [ids_a[k] for k in order]
num_positions = max(len(ids_a), len(ids_b))
additive = FAMILIES[cfg.method].additive
trained_rows = cfg.context_length  # the rows a model trained at the sidebar's context has
table_note = longer_table_note(FAMILIES[cfg.method], num_positions, cfg)
cfg = dataclasses.replace(cfg, context_length=num_positions) if table_note else cfg
(tok_a, tok_b), pos = cache.sentence_embeddings((text_a, text_b), cfg, num_positions)
tok_p = tok_a[order]
followed = followed_token(ids_a, ids_b, cfg.vocab_size)

# Presenting, the sentences are a section of their own and the long ones are split in two.
slides = Slides(
    "why",
    [
        "Two sentences",
        ("The same token, two positions", ["", "every shared token"]),
        ("Shuffle the words", ["", "what it shows"]),
    ],
)
if slides.shows(1):
    if slides.on:
        st.markdown(INTRO + " (Type them in the sidebar.)")
    if table_note:
        st.info(table_note)
    if slides.on:  # a slide's chips are a picture: no token is picked while presenting
        for label, ids in (("A", ids_a), ("B", ids_b)):
            st.markdown(f"**{label}** — {plural(len(ids), 'token')}")
            token_chips(ids, cfg.vocab_size, name=f"Token chips of {label}")
    else:
        token_pickers(ids_a, ids_b, cfg.vocab_size, "mark its row in the table of shared tokens (section 1)")
    if mid:
        st.caption(
            "Each sentence is tokenized with a space before it (· on its first chip), as its words stand "
            "mid-text."
        )

shared = shared_tokens(ids_a, ids_b, tok_a, tok_b, pos)
moved = first_moved(shared)
question, piece, headline = "", "", None
if moved is not None:
    piece = escape_markdown(repr(token_strings([moved.token_id], cfg.vocab_size)[0]))
    headline = None if additive else pair_headline_or_message(cfg, (text_a, text_b))
    question = (  # it names the token: the table that would show the answer waits for the reveal
        f"Predict the cosine of {piece} in A (position {moved.position_a}) and {piece} in B (position "
        f"{moved.position_b}), token embeddings only, from −1 to 1"
    )
answer = why_answer(cfg.method, piece, moved, headline, trained_rows)  # its words: defined for section 1
if slides.shows(2):
    st.subheader("1. The same token, two positions")
    if not shared:
        st.warning("The two sentences share no token. Try words that appear in both.")
    elif moved is None:
        st.warning(
            "Every token the sentences share stands at the same position in both, so its vector is the "
            "same with or without positions. Move a word to see the difference."
        )
    elif slides.at(0) and (
        not slides.on or predict_number("why_1", question, moved.cosine_without, 0.001, 6)
    ):
        family = FAMILIES[cfg.method]
        cells = st.columns(2 if additive or headline is None or headline.silent else 3)
        cells[0].metric(
            f"cos({piece} in A, {piece} in B), no positions",
            f"{moved.cosine_without:.6f}",
            help="Token embeddings only: the same row of the same table, so identical.",
        )
        if additive:
            cells[1].metric(
                f"… with positions {moved.position_a} and {moved.position_b} added",
                f"{moved.cosine_with:.6f}",
                delta=f"{moved.cosine_with - moved.cosine_without:+.6f}",
                delta_color="off",
            )
            st.caption(
                f"{piece} moved from position {moved.position_a} in A to {moved.position_b} in B (positions "
                "count from 0, as `torch.arange` does). Only the positional vector tells its two places "
                "apart. "
                + (
                    "The table is random and untrained, so the exact cosine is chance; that it is below 1 "
                    "is not."
                    if family.seeded  # a table drawn at random, which training would change
                    else ""
                )
            )
        elif headline is not None:
            relative_headline(cells[1:], headline, piece, moved)
    if shared and slides.at(1) and (not slides.on or moved is None or after_prediction("why_1")):
        st.caption(
            "Every token the two sentences share: its positions, the cosine of its two vectors, and each "
            f"vector's {define('norm')}."
        )
        shared_table(shared, cfg.vocab_size, followed)
        if followed is not None:
            st.caption(
                f"▶ and bold on yellow: the token you follow, {followed_places(followed)}."
                if None not in (followed.a, followed.b)
                else f"The token you follow, {followed_places(followed)}, has no row: it is not shared."
            )
        st.caption(moved_sentence(shared, additive))
    if not additive and not slides.on:  # section 1 ends where the method acts: Attention, today's models
        where_next(FAMILIES[cfg.method], cfg.method, num_positions, defined_in(answer.words))

if slides.shows(3):
    st.subheader("2. Shuffle the words")
    comparisons = {
        name: compare_orders(tok_a, tok, pos) for name, tok in (("A vs shuffled A", tok_p), ("A vs B", tok_b))
    }
if slides.shows(3) and slides.at(0):
    # The answer spoke of attention for a method that acts there; otherwise the word is new here.
    attention = "attention" if not additive and moved is not None else define("attention")
    st.markdown(
        f"Here A is compared with a shuffle of its own tokens (the seed picks the shuffle). What the model "
        f"does next, {attention}, compares the vectors pair by pair: can it tell the two orders apart?"
    )
    token_chips(ids_p, cfg.vocab_size, name="Token chips of A, shuffled")
    comparison_table(comparisons)
if slides.shows(3) and slides.at(1):
    st.markdown(
        "\n".join(f"- {s}" for s in shuffle_sentences(cfg.method, additive, comparisons["A vs shuffled A"]))
    )
    everyone = list(dict.fromkeys(ids_a + ids_b))
    pieces = dict(zip(everyone, token_strings(everyone, cfg.vocab_size), strict=True))
    st.caption(escape_markdown(reordering_sentence(ids_a, ids_b, pieces)))
show_answer(slot, answer)
