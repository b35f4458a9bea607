"""Presets: published models' settings, written into the sidebar's widgets when one is chosen."""

from __future__ import annotations

import streamlit as st

from core.presets import PRESETS, Preset
from core.samples import SAMPLE_TITLES, SAMPLES
from ui import cache
from ui.text_source import DEFAULT_SAMPLE, LONG_SAMPLE
from ui.url_keys import register_url_keys, url_bound

CUSTOM = "custom"  # the preset value when settings are the user's own
PRESET_KEYS = ("vocab", "dim", "context", "method", "heads", "base", "buckets", "max_distance")
APPLIED_PRESET = "_applied_preset"  # session key: the preset whose values were last written
register_url_keys("preset")


def to_custom() -> None:
    """A preset-controlled setting was edited by hand: the view is no longer the preset."""
    st.session_state["preset"] = CUSTOM


def preset_values(preset: Preset) -> dict[str, object]:
    """The widget values a preset sets (only the ones it defines)."""
    values = {
        "vocab": preset.vocab_size,
        "dim": preset.dim,
        "context": preset.context_length,
        "method": preset.method,
        "heads": preset.heads,
        "base": preset.rope_base,
        "buckets": preset.buckets,
        "max_distance": preset.max_distance,
    }
    return {k: v for k, v in values.items() if v is not None}


def apply_new_preset() -> str | None:
    """Write a newly chosen preset's values (from the selectbox or the URL) before any widget exists.

    A preset whose context does not fit the sample in use also switches to the long sample, so the
    page never stops at "use a longer text"; returns what it says about that switch.
    """
    name = st.session_state.get("preset", st.query_params.get("preset", CUSTOM))
    if st.session_state.get(APPLIED_PRESET) == name:
        return None
    st.session_state[APPLIED_PRESET] = name
    if name not in PRESETS:
        return None
    preset = PRESETS[name]
    st.session_state.update(preset_values(preset))
    if st.session_state.get("source", "sample") != "sample":
        return None  # the user's own text stays; the page's message offers the long sample
    sample = st.session_state.get("sample", st.query_params.get("sample", DEFAULT_SAMPLE))
    needed = preset.context_length + 1  # one window and its shifted target
    V = preset.vocab_size  # a smaller vocabulary makes more tokens of the same text
    have = len(cache.token_ids(SAMPLES.get(sample, SAMPLES[DEFAULT_SAMPLE]), V))
    if have >= needed or len(cache.token_ids(SAMPLES[LONG_SAMPLE], V)) < needed:
        return None
    st.session_state["sample"] = LONG_SAMPLE
    if "sample" in st.query_params:
        st.query_params["sample"] = LONG_SAMPLE
    return (
        f"{preset.label}: one window of context {preset.context_length:,} needs {needed:,} tokens and the "
        f"{sample} sample has {have:,}, so the text is now the long sample, {SAMPLE_TITLES[LONG_SAMPLE]}."
    )


def preset_choice() -> Preset | None:
    """The ``preset`` selectbox (its values were written by ``apply_new_preset``)."""
    name = st.selectbox(
        "Preset",
        (CUSTOM, *PRESETS),
        **url_bound("preset"),
        index=0,
        help="Published model configurations: " + ", ".join(p.label for p in PRESETS.values()),
    )
    return PRESETS.get(name)


def current_preset() -> Preset | None:
    """The preset whose values are in force (None for custom settings)."""
    return PRESETS.get(st.session_state.get("preset", CUSTOM))
