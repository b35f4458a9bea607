"""Today's models: position layer by layer (Llama 4, Gemma 3, Qwen2.5-VL, DeepSeek-V3)."""

import streamlit as st

from core.positional.todays_models import LLAMA4, QWEN_VL
from core.positional.todays_views import (
    AFTER,
    BEFORE,
    IMAGE_GRID,
    answer_words,
    last_image_token,
    nope_layers,
)
from core.scripts.todays_models import todays_models_script
from core.views.glossary import FirstUse
from ui.answer import Answer, answer_slot, show_answer
from ui.app import checked_settings
from ui.code_view import show_script
from ui.navigation import page_title
from ui.open_tabs import SectionTabs
from ui.predict import predict_number, predict_position
from ui.presenter import presenting as slides_on
from ui.slides import Slides
from ui.todays_models.views import (
    SECTION_TAB,
    SECTION_TABS,
    SECTIONS,
    gemma3_section,
    heads_section,
    llama4_section,
    qwen_section,
)

checked_settings()
page_title("Today's models: position layer by layer")
slot = answer_slot()
words, number = answer_words()
evidence = (
    "The evidence is below: a tab for each of the four sections, with its tables, pictures and numbers."
)
show_answer(slot, Answer(f"{LLAMA4.name}'s layers without position", number, words, evidence=evidence))
if not slides_on():
    show_script(
        todays_models_script,
        "it prints Llama 4 Scout's layers without position and its temperature, Gemma 3's layer types and "
        "the pairs that turn inside its window, Qwen2.5-VL's (t, h, w) of each token, the numbers of a head "
        "that turn, and last one JSON line with them.",
    )
slides = Slides("today", SECTIONS)
# On a screen each section is a tab, only the open one computed and drawn; presenting, a slide per part.
sections = SectionTabs(slides, SECTION_TABS, SECTION_TAB)
words = FirstUse(teach=not slides.on)  # each word defined where a screen first writes it; a slide is plain
with sections.where:
    if sections.drawn(1):
        st.subheader(f"1. Layers without position: {LLAMA4.name}")
        question = f"How many of {LLAMA4.name}'s {LLAMA4.layers} layers have no position at all?"
        if not slides.on or predict_number("today_1", question, len(nope_layers()), 0, 0, "layers"):
            llama4_section(words, slides.part)
    if sections.drawn(2):
        st.subheader("2. A base per layer type: Gemma 3, Gemma 2, Gemma 4, gpt-oss")
        gemma3_section(words, slides.part)
    if sections.drawn(3):
        st.subheader("3. Positions in three dimensions: Qwen2.5-VL")
        rows, columns = IMAGE_GRID[1] // QWEN_VL.merge, IMAGE_GRID[2] // QWEN_VL.merge
        question = (
            f"{QWEN_VL.name} gives each token three positions (t, h, w): time, row and column. The text "
            f"before an image is {len(BEFORE)} tokens, at 0 to {len(BEFORE) - 1} on all three; the image is "
            f"{rows} × {columns} tokens. Which (t, h, w) does its bottom-right token get?"
        )
        if not slides.on or predict_position("today_3", question, last_image_token(BEFORE)):
            qwen_section(BEFORE, AFTER, words, slides.part)
    if sections.drawn(4):
        st.subheader("4. Part of each head turned: GPT-NeoX, Phi, GLM, DeepSeek-V3")
        heads_section(words, slides.part)
