"""Real trained positions: a pretrained model's learned table beside random and sinusoidal ones."""

import streamlit as st

from core.scripts.trained_positions import trained_positions_script
from core.views.glossary import define
from ui.answer import answer_slot, show_answer
from ui.app import checked_settings
from ui.code_view import show_script
from ui.navigation import page_title
from ui.open_tabs import SectionTabs
from ui.predict import predict_number
from ui.presenter import presenting
from ui.slides import Slides
from ui.trained_positions.views import (
    SECTION_TAB,
    SECTION_TABS,
    answer,
    pca_view,
    provenance,
    side_by_side,
    similarity_curves,
    tables,
    trained_curve,
    trained_figures,
    what_to_look_at,
)

cfg, _ = checked_settings()
page_title("What trained positions look like")
slot = answer_slot()
named = tables(cfg.seed)
trained = next(iter(named.values()))
quoted = trained_figures()
show_answer(slot, answer(cfg.seed))
INTRO = (
    "The lesson creates its positional table with `nn.Embedding(context_length, output_dim)`: random numbers "
    "that training will change. Here is a table that training **did** change: the 512 × 384 learned "
    f"positions of **all-MiniLM-L6-v2**, a small {define('sentence-embedding model')}, 6 layers of the BERT "
    f"family. It was {define('distilled')} from a larger BERT-style model and then "
    f"{define('fine-tuned')} on about a billion pairs of sentences, so that sentences that belong together "
    f"get close vectors. It is an {define('encoder')}, not a GPT that guesses the next token, but its "
    "positions are learned the same way: one trainable vector per position, added to the token vector."
)
if not presenting():
    st.markdown(INTRO)
    show_script(
        lambda: trained_positions_script(cfg.seed),
        "it prints the similarity by distance of the three tables, the two directions the trained positions "
        "differ most in and the turn per position that this page shows.",
    )
slides = Slides(  # presenting, the introduction is a section and the three tables two
    "trained",
    [
        "A table that training changed",
        "Neighbours after training",
        ("Three tables", ["the values", "their similarity"]),
        "Similarity against distance",
        ("The path through space", ["", "what it shows"]),
    ],
)
if slides.on and slides.shows(1):
    st.markdown(INTRO)
    provenance()
if slides.shows(2) and (
    not slides.on
    or predict_number(
        "trained_1",
        "Predict the mean cosine similarity of two neighbouring trained positions (distance 1), from −1 to 1",
        quoted["distance 1"],
        0.1,
        2,  # as the answer's metric shows it
    )
):
    c = st.columns(3)
    for column, (label, value) in zip(c, quoted.items(), strict=True):
        column.metric(
            f"Neighbour similarity at {label}",
            f"{value:.2f}",
            help="Mean cosine similarity of all pairs of trained positions that far apart.",
        )
    st.markdown(what_to_look_at(trained_curve()))  # read from the whole curve, not one distance
sections = SectionTabs(slides, SECTION_TABS, SECTION_TAB, before=2)  # on a screen, only the open one drawn
with sections.where:
    if sections.drawn(1):
        st.subheader(SECTION_TABS[0])
        side_by_side(cfg.seed, slides.part)
    if sections.drawn(2):
        st.subheader(SECTION_TABS[1])
        similarity_curves(cfg.seed)
    if sections.drawn(3):
        st.subheader(SECTION_TABS[2])
        pca_view(trained, slides.part)
    if sections.drawn(3) and slides.at(1):
        st.caption(
            "Fine-tuning used inputs of at most 128 tokens (the model card), so positions past 128 were last "
            "shaped in pre-training."
        )
if not slides.on:
    provenance()
