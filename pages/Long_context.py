"""Long context: how released models run RoPE past the length they were trained on (RoPE scaling)."""

from contextlib import nullcontext

import streamlit as st

from core.positional.long_context import KEPT
from core.positional.long_context_presets import PRESETS
from core.positional.long_context_words import short_answer
from core.scripts.long_context import long_context_script
from core.views.glossary import FirstUse
from ui.answer import Answer, answer_slot, show_answer
from ui.app import settings
from ui.attention.bridge import attention_bridge_expander
from ui.code_view import show_script
from ui.long_context.form import rope_config
from ui.long_context.views import (
    KEPT_QUESTION,
    SECTION_TAB,
    SECTION_TABS,
    SECTIONS,
    STORY_PARTS,
    attention_section,
    config_controls,
    config_json_view,
    extrapolation_section,
    label_of,
    lengths,
    model_name,
    pairs_section,
    score_section,
    story_section,
    view_of,
)
from ui.navigation import page_title
from ui.open_tabs import SectionTabs
from ui.predict import predict_number
from ui.presenter import presenting
from ui.slides import Slides

EVIDENCE = (
    "The evidence is below: the numbered steps, then a tab for each section: 1 to 3 computed from this "
    "config, 4 a tiny model measured past its trained length."
)
settings()  # the shared sidebar; this page reads only its own config
page_title("Long context: RoPE scaling in released models")
answer = answer_slot()  # filled once the config's numbers are computed
# The story comes first, told from the config chosen below it; presenting, it is the first section.
story = nullcontext() if presenting() else st.container()
# Presenting, Previous / Next come before the settings: fewer Tabs.
slides = Slides("long_context", [("The question", STORY_PARTS), *SECTIONS])
# Tracked (a rerun when opened or closed), so it stays open while its own settings change the page.
with st.expander(
    "Change the model or its settings (its config file)",
    icon=":material/tune:",
    key="long_context_settings",
    on_change="rerun",
):
    settings_tab, json_tab = st.tabs(["Settings", "config.json"])
    with settings_tab:
        preset, values = config_controls()
label = label_of(preset)
try:
    cfg = PRESETS[preset].config if preset in PRESETS else rope_config(values)
    view = view_of(cfg, label)
except ValueError as exc:
    st.error(str(exc))
    st.stop()
with json_tab:
    config_json_view(preset, cfg)
said = short_answer(view, model_name(preset))
show_answer(answer, Answer(said.label, said.number, said.words, evidence=EVIDENCE))
words = FirstUse(teach=not presenting())  # each glossary word defined where the page first writes it

if not presenting():
    show_script(
        lambda: long_context_script(cfg, label),
        "it prints the lengths, s and the attention factor, how many pairs are kept or slowed, how many "
        "meet angles never seen in training, the score at 1, L and L', and last one JSON line with them.",
    )
if slides.shows(1):
    with story:
        story_section(view, model_name(preset), words, slides)
        if not presenting():
            lengths(cfg, view, words)
            attention_bridge_expander()
# On a screen each numbered section is a tab, only the open one computed and drawn; presenting, a slide.
sections = SectionTabs(slides, SECTION_TABS, SECTION_TAB, before=1)
with sections.where:
    if sections.drawn(1):
        st.subheader("1. Which pairs scaling slows down")
        kept = view.regimes.count(KEPT)
        question = f"How many of the {len(view.regimes)} pairs does {label} leave as they were trained?"
        unit = "pair" if kept == 1 else "pairs"  # the answer as the story states it: "keeps 29 pairs"
        if not slides.on or predict_number(KEPT_QUESTION, question, kept, 0.5, unit=unit):
            pairs_section(view, words)
    if sections.drawn(2):
        st.subheader(f"2. What position alone adds to a score, out to L' = {cfg.extended:,}")
        score_section(view, label, words)
    if sections.drawn(3):
        st.subheader("3. The attention factor")
        attention_section(view, words)
    if sections.drawn(4):
        st.subheader("4. Measured: a tiny RoPE model past its trained length")
        extrapolation_section(view, label, words)
