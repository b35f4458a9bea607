"""Long context: how released models run RoPE past the length they were trained on (RoPE scaling)."""

import streamlit as st

from core.positional.long_context import PRESETS
from core.scripts.long_context import long_context_script
from ui.app import settings
from ui.code_view import show_script
from ui.long_context_views import (
    attention_section,
    config_controls,
    extrapolation_section,
    label_of,
    overview,
    pairs_section,
    rope_config,
    score_section,
    view_of,
)
from ui.navigation import page_title
from ui.presenter import Slides, predict_number, presenting

settings()  # the shared sidebar; this page reads only its own config
page_title("Long context: RoPE scaling in released models")
if not presenting():
    st.markdown(
        "A model with RoPE is trained on L positions. Past L its slow pairs turn to angles it never saw, "
        "so since 2023 long-context models change the rotation frequencies θᵢ: Llama 3.1, DeepSeek-V3, "
        "Qwen2.5, Phi-3 and Gemma 4 each in its own way. Pick a released model's config, or edit the values."
    )
with st.expander("The config: a released model's, or your own", expanded=not presenting()):
    preset, values = config_controls()
label = label_of(preset)
try:
    cfg = PRESETS[preset].config if preset in PRESETS else rope_config(values)
    view = view_of(cfg, label)
except ValueError as exc:
    st.error(str(exc))
    st.stop()

if not presenting():
    show_script(
        long_context_script(cfg, label),
        "it prints the lengths, s and the attention factor, which pairs are kept, interpolated or blended, "
        "the pairs that meet unseen angles, the score at 1, L and L', and last one JSON line with them.",
    )
titles = ["The config", "Which pairs are stretched", "What position alone adds", "The attention factor"]
titles.append("Extrapolation, measured")
slides = Slides("long_context", titles)
if slides.shows(1):
    overview(preset, cfg, view)
if slides.shows(2):
    st.subheader("1. Which pairs are kept, interpolated or blended")
    kept = sum(r.startswith("kept") for r in view.regimes)
    question = f"How many of the {len(view.regimes)} pairs does {label} leave as they were trained?"
    if not slides.on or predict_number("lc_kept", question, kept, 0.5):
        pairs_section(view)
if slides.shows(3):
    st.subheader(f"2. What position alone adds to a score, out to L' = {cfg.extended:,}")
    score_section(view, label)
if slides.shows(4):
    st.subheader("3. The attention factor")
    attention_section(view)
if slides.shows(5):
    st.subheader("4. Extrapolation, measured: a tiny RoPE model past its trained length")
    extrapolation_section()
