"""Every positional-encoding family, side by side."""

import streamlit as st

from core.families import drawn_span, families_answer
from core.positional.family import FAMILIES
from core.scripts.families import families_script
from core.serving.costs import families_view_bytes
from ui.answer import Answer, answer_slot, show_answer
from ui.app import settings
from ui.attention.bridge import attention_bridge_expander
from ui.code_view import show_script
from ui.families.close_up import close_up, close_up_parts
from ui.families.compare import (
    EVIDENCE,
    OVERVIEW_PARTS,
    SECTION_TAB,
    SECTION_TABS,
    intro,
    logit_parts,
    logit_section,
    overview,
    similarity_parts,
    similarity_section,
)
from ui.families.controls import family_settings, settings_words
from ui.navigation import page_title
from ui.open_tabs import SectionTabs
from ui.presenter import presenting
from ui.server.memory import reserve_for_run
from ui.slides import Slides

cfg, _ = settings()
page_title("Positional-encoding families, side by side")
slot = answer_slot()  # filled once the settings are checked: the answer comes first in reading order
if not presenting():
    st.markdown(intro(cfg))
    attention_bridge_expander()  # query, key and score, for a student the lecture has not taught them
    # The words the settings' labels use, defined where the page reads them (the table uses them too);
    # the settings themselves folded: the page's content comes first, not nine expert controls.
    st.markdown(settings_words())
    with st.expander("Family settings"):
        fam = family_settings(words=False)
else:  # the projector's screen holds one section: the settings wait in the sidebar
    with st.sidebar.expander("Family settings"):
        fam = family_settings(columns=1)
try:
    cfg.validate()
    fam.validate(cfg.output_dim, cfg.context_length)
except ValueError as exc:
    st.error(str(exc))
    st.stop()
said = families_answer(cfg.method, cfg.context_length, cfg.output_dim, fam)
show_answer(slot, Answer(said.label, said.number, said.words, others=said.others, evidence=EVIDENCE))
reserve_for_run(
    families_view_bytes(cfg.context_length, cfg.output_dim, drawn_span(cfg.context_length, fam)),
    "drawing these views",
)

if not presenting():
    show_script(
        lambda: families_script(cfg, fam),
        "it prints, for every method, what position alone adds to the attention score at each distance of "
        "chart 1 and, last, one JSON line with every curve.",
    )
family = FAMILIES[cfg.method]
slides = Slides(  # presenting, the tall sections come a part at a time
    "families",
    [
        (f"{len(FAMILIES)} families", OVERVIEW_PARTS),
        ("What position alone adds", logit_parts()),
        ("How alike are two positions?", similarity_parts(cfg, fam)),
        (f"Close-up: {family.label}", close_up_parts(cfg.method)),
    ],
)
if slides.shows(1):
    if slides.at(0) and slides.on:
        st.markdown(intro(cfg))
    overview(cfg, fam, slides.part)
sections = SectionTabs(slides, SECTION_TABS, SECTION_TAB, before=1)  # on a screen, only the open one drawn
with sections.where:
    if sections.drawn(1):
        st.subheader("1. What position alone adds to an attention score")
        logit_section(cfg, fam, slides.part)
    if sections.drawn(2):
        st.subheader("2. How alike are two positions?")
        similarity_section(cfg, fam, slides.part)
    if sections.drawn(3):
        st.subheader(f"3. Close-up: {family.label} — {family.source}")
        if slides.at(0):
            st.caption("Pick another family with **Positional method** in the sidebar.")
        close_up(cfg, fam, slides.part)
