"""Presets: published models' settings, written into the sidebar's widgets when one is chosen."""

from __future__ import annotations

import streamlit as st

from core.config import PipelineConfig
from core.positional.family import FAMILIES
from core.presets import PRESETS, Preset
from core.text.samples import SAMPLE_TITLES, SAMPLES
from ui.server import cache
from ui.state.url_keys import register_url_keys, url_bound
from ui.state.url_params import defaults
from ui.text_source import DEFAULT_SAMPLE, LONG_SAMPLE

DEFAULT_BATCH = PipelineConfig().batch_size
CUSTOM = "custom"  # the preset value when settings are the user's own
BOOK = "book"  # the book's setting: the list shows it whenever its values are the settings, however set
PRESET = "preset"  # its URL parameter and widget key; the URL holds the preset's name, never its label
PRESET_KEYS = ("vocab", "dim", "context", "stride", "method", "heads", "base", "buckets", "max_distance")
APPLIED_PRESET = "_applied_preset"  # session key: the preset whose values were last written
register_url_keys(PRESET)


LEFT = "_left_preset"  # session key: (preset name, setting key) of the edit that turned the preset custom
SETTING_NAMES = {
    "vocab": "Vocab V",
    "dim": "Dim d",
    "context": "Context T",
    "stride": "Stride",
    "method": "Positional method",
    "heads": "Heads H",
    "base": "Base",
    "buckets": "T5 buckets",
    "max_distance": "T5 max distance",
}


def to_custom(key: str | None = None) -> None:
    """A preset-controlled setting (``key``) was edited by hand: the view is no longer the preset, and
    the sidebar says which setting made it so."""
    name = st.session_state.get(PRESET, CUSTOM)
    if name in PRESETS and key is not None:
        st.session_state[LEFT] = (name, key)
    st.session_state[PRESET] = CUSTOM


def custom_note() -> str | None:
    """Under the preset list, once an edit made it "Custom settings": which preset, which setting."""
    if st.session_state.get(PRESET, CUSTOM) != CUSTOM or LEFT not in st.session_state:
        return None
    name, key = st.session_state[LEFT]
    value = preset_values(PRESETS[name]).get(key)
    if value is None:
        return None
    shown = FAMILIES[value].label if key == "method" and value in FAMILIES else f"{value:,}"
    return (
        f"Custom settings: you changed {SETTING_NAMES[key]}, which {PRESETS[name].label} sets to {shown}. "
        "Choose the preset again to get all of its values back."
    )


def preset_label(name: str) -> str:
    """What the preset list shows for ``name``: the model's name (the URL keeps ``name``)."""
    return PRESETS[name].label if name in PRESETS else "Custom settings"


def preset_values(preset: Preset) -> dict[str, object]:
    """The widget values a preset sets (only the ones it defines; the batch depends on the text)."""
    values = {
        "vocab": preset.vocab_size,
        "dim": preset.dim,
        "context": preset.context_length,
        "stride": preset.stride,
        "method": preset.method,
        "heads": preset.heads,
        "base": preset.rope_base,
        "buckets": preset.buckets,
        "max_distance": preset.max_distance,
    }
    return {k: v for k, v in values.items() if v is not None}


def _in_force(key: str) -> str:
    """A setting's value this run, as text: the session's, else the URL's (checked by ``check_url``), else
    its default."""
    return str(
        st.session_state[key] if key in st.session_state else st.query_params.get(key, defaults()[key])
    )


def values_in_force(preset: Preset) -> bool:
    """Whether every value ``preset`` sets is already the setting's (choosing it would change none)."""
    return all(_in_force(k) == str(v) for k, v in preset_values(preset).items())


def _text_in_use(sample: str) -> str:
    """The text the page will run on: the sample ``sample``, or the user's own pasted or uploaded text."""
    source = st.session_state.get("source", "sample")
    if source == "paste":
        return st.session_state.get("text") or ""
    if source == "upload":
        upload = st.session_state.get("uploaded_text")
        return upload.text if upload is not None else ""
    return SAMPLES.get(sample, SAMPLES[DEFAULT_SAMPLE])


def _batch_in_use() -> int:
    """The batch size in force: the session's, else the URL's (checked by ``check_url`` before), else 8."""
    value = st.session_state.get("batch", st.query_params.get("batch", DEFAULT_BATCH))
    try:
        return int(value)
    except (TypeError, ValueError):
        return DEFAULT_BATCH


def apply_new_preset() -> str | None:
    """Write a newly chosen preset's values (from the selectbox or the URL) before any widget exists.

    Its stride is its context (``Preset.stride``: windows that do not overlap). A preset whose context
    does not fit the sample in use switches to the long sample, and a batch larger than the windows the
    text makes at that stride becomes as many as it makes, so the page never stops at "use a longer
    text"; returns what it says about either change. Settings that are the book's values show as the
    book's setting, however they were reached; a preset whose values are in force writes nothing.
    """
    name = st.session_state.get(PRESET, st.query_params.get(PRESET, CUSTOM))
    if name == CUSTOM and values_in_force(PRESETS[BOOK]):
        name = st.session_state[PRESET] = BOOK  # the book's values, typed or by default: its setting
    if PRESET not in st.session_state and name in (CUSTOM, *PRESETS):
        st.session_state[PRESET] = name  # the list shows the URL's preset on the session's first run
    if st.session_state.get(APPLIED_PRESET) == name:
        return None
    st.session_state[APPLIED_PRESET] = name
    if name not in PRESETS:
        return None
    preset = PRESETS[name]
    if values_in_force(preset):  # a link's own values, or the book's at the defaults: the batch stays too
        return None
    st.session_state.update(preset_values(preset))
    notes = []
    V, T = preset.vocab_size, preset.context_length  # a smaller vocabulary makes more tokens of a text
    sample = st.session_state.get("sample", st.query_params.get("sample", DEFAULT_SAMPLE))
    needed = T + 1  # one window and its shifted target
    have = len(cache.token_ids(_text_in_use(sample), V))
    own_text = (
        st.session_state.get("source", "sample") != "sample"
    )  # it stays; the page offers the long sample
    if not own_text and have < needed and len(cache.token_ids(SAMPLES[LONG_SAMPLE], V)) >= needed:
        st.session_state["sample"] = LONG_SAMPLE
        if "sample" in st.query_params:
            st.query_params["sample"] = LONG_SAMPLE
        notes.append(
            f"{preset.label}: one window of context {T:,} needs {needed:,} tokens and the {sample} sample "
            f"has {have:,}, so the text is now the long sample, {SAMPLE_TITLES[LONG_SAMPLE]}."
        )
        have = len(cache.token_ids(SAMPLES[LONG_SAMPLE], V))
    batch = _batch_in_use()
    stride, fitted = preset.data_settings(have, batch)
    if have >= needed and fitted < batch:
        st.session_state["batch"] = fitted
        notes.append(
            f"{preset.label} sets the stride to its context, {stride:,}, so that windows do not overlap (as "
            f"the book's loaders do over training data): the text's {have:,} tokens make {fitted} such window"
            f"{'s' * (fitted != 1)}, so the batch is now {fitted} (it was {batch})."
        )
    return " ".join(notes) or None


def sync_preset_url() -> None:
    """Keep the address bar's ``preset`` the chosen preset's name (none for custom settings, nor for the
    book's, which the settings in the address say by themselves).

    The list shows model names (``format_func``); a widget bound to the URL writes what it shows, so
    this one is synced by hand, after it is drawn, and a page switch (which keeps only bound
    parameters) gets it back on the next page's run.
    """
    name = st.session_state.get(PRESET, CUSTOM)
    if name in PRESETS and name != BOOK:
        if st.query_params.get(PRESET) != name:
            st.query_params[PRESET] = name
    elif PRESET in st.query_params:
        del st.query_params[PRESET]


def preset_choice() -> Preset | None:
    """The ``preset`` list, showing model names (its values were written by ``apply_new_preset``)."""
    key = url_bound(PRESET)["key"]  # a registered URL key: Copy link carries it; synced by sync_preset_url
    name = st.selectbox(
        "Preset",
        (CUSTOM, *PRESETS),
        key=key,
        persist_state="session",
        format_func=preset_label,
    )
    sync_preset_url()
    # Said under the list, not behind a "?" button (a Tab stop of its own: ui.settings).
    st.caption(
        custom_note()
        or "The book's setting (the defaults) or a published model's; a preset also sets the stride to its "
        "context length."
    )
    return PRESETS.get(name)


def current_preset() -> Preset | None:
    """The preset whose values are in force (None for custom settings)."""
    return PRESETS.get(st.session_state.get(PRESET, CUSTOM))
