"""The Long context page's config form in the session and the URL.

Every control is bound to the URL (its key is ``lc_`` and the config.json name), except the two factor
lists, which are kept in the session: a longrope list has 48 numbers. The preset and method lists show
names, so their URL values are written by hand (``sync_preset_url``, ``sync_method_url``), as the
sidebar's preset is. A control the session does not hold yet starts at the link's preset's value.
"""

from __future__ import annotations

import streamlit as st

from core.positional.long_context_presets import DEFAULT_PRESET, PRESETS
from ui.long_context.form import FIELDS, LINKED, preset_store
from ui.state.url_keys import register_url_keys

PRESET = "lc_preset"  # the preset selectbox's key and URL key
METHOD = "lc_rope_type"  # the method selectbox's key and URL key
CUSTOM = "custom"
PREFIX = "lc_"
URL_KEYS = register_url_keys(PRESET, *(PREFIX + k for k in LINKED))


def _link_preset() -> str:
    """The preset a link names (``check_url`` has checked it); a link with values but no preset: custom."""
    name = st.query_params.get(PRESET)
    if name in (CUSTOM, *PRESETS):
        return name
    return CUSTOM if any(k in st.query_params for k in URL_KEYS) else DEFAULT_PRESET


def _base() -> dict:
    """What a control not yet in the session starts at: the link's preset's value, or, for a link with the
    user's own values, the default preset's with the optional numbers blank (a copied link leaves out the
    blank ones)."""
    name = _link_preset()
    if name in PRESETS:
        return preset_store(PRESETS[name])
    blank = {k: None for k, f in FIELDS.items() if f.kind == "optional"}
    return {**preset_store(PRESETS[DEFAULT_PRESET]), **blank, "preset": CUSTOM}


def seed_controls() -> dict:
    """Start each control the session does not hold and the URL does not set (the URL seeds a bound
    widget itself); returns the starting values."""
    if PRESET not in st.session_state:  # the session's first run: the link's preset
        st.session_state[PRESET] = _link_preset()
    if METHOD not in st.session_state and METHOD in st.query_params:  # not bound: seeded here
        st.session_state[METHOD] = st.query_params[METHOD]
    base = _base()
    for name in ("rope_type", *FIELDS):
        key = PREFIX + name
        if key not in st.session_state and key not in st.query_params:
            st.session_state[key] = base[name]
    return base


def apply_preset() -> None:
    """The preset box's ``on_change``: every field takes the chosen preset's value."""
    name = st.session_state[PRESET]
    if name in PRESETS:
        for key, value in preset_store(PRESETS[name]).items():
            if key != "preset":
                st.session_state[PREFIX + key] = value


def edited() -> None:
    """A field's ``on_change``: the config is now the user's own."""
    st.session_state[PRESET] = CUSTOM


def sync_preset_url() -> None:
    """Keep the address bar's ``lc_preset`` the chosen preset's name ("custom" for the user's own)."""
    name = st.session_state.get(PRESET, DEFAULT_PRESET)
    if st.query_params.get(PRESET) != name:
        st.query_params[PRESET] = name


def sync_method_url() -> None:
    """Keep the address bar's ``lc_rope_type`` the method's config value (the box shows its name)."""
    if st.query_params.get(METHOD) != st.session_state[METHOD]:
        st.query_params[METHOD] = st.session_state[METHOD]
