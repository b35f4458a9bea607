"""The Attention page's own settings: the heads H, the head shown, the causal mask and each family's
settings it uses (URL keys ``head``, ``causal`` and the families'). Why position? reads them too."""

from __future__ import annotations

import re

import streamlit as st

from core.attention.sentences import AttentionSettings
from core.positional.family import EXTRAPOLATE, FAMILIES, FamilyConfig, all_params
from core.views.glossary import GLOSSARY, define, named
from ui.families.controls import setting, settings_words
from ui.settings import bound_number
from ui.state.url_keys import register_url_keys, url_bound
from ui.state.url_params import url_value

register_url_keys("head", "causal")
SKIPPED = ("pairing", EXTRAPOLATE.key)  # settings the page does not use (its RoPE pairs as the tiny GPT)


def attention_settings(per_row: int = 4, said: set[str] = frozenset()) -> AttentionSettings:
    """The widgets: heads H, the head shown, the causal mask, and each family's settings it uses; above
    them the words their labels use, the methods they name included (but those in ``said``)."""
    params = [p for key, p in all_params().items() if key not in SKIPPED]
    values = {}
    labels = " ".join(p.label for p in params)
    names = [named(f.label) for f in FAMILIES.values() if f.label not in said and names_it(labels, f.label)]
    methods = f"The methods they name: {'; '.join(names)}. " if names else ""
    st.caption(f"{methods}{settings_words()} The {define('causal mask')} can be turned off.")
    columns = st.columns(per_row)
    with columns[0]:
        head = bound_number("Head shown", "head", 1, "Which head's scores the page shows (1 … H).")
    for k, param in enumerate(params):
        with columns[(k + 1) % per_row]:
            values[param.key] = setting(param)
    causal = st.toggle(
        "Causal mask: a token sees only itself and the tokens before it, as in GPT",
        value=True,
        **url_bound("causal"),
    )
    return AttentionSettings(FamilyConfig(**values), int(head) - 1, causal)


def names_it(text: str, label: str) -> bool:
    """Whether ``text`` names the method ``label`` in any of the glossary's forms ("Shaw clip k")."""
    return label in GLOSSARY and re.search(GLOSSARY[label].uses, text) is not None


def current_settings() -> AttentionSettings:
    """The same settings without drawing them (Why position?): from this session, else the URL."""
    fam = FamilyConfig(**{k: url_value(k, p.default) for k, p in all_params().items() if k not in SKIPPED})
    return AttentionSettings(fam, int(url_value("head", 1)) - 1, bool(url_value("causal", True)))
