"""The Families page's own settings: one URL-bound widget per setting of ``FamilyConfig``.

The settings come from the registry (``core.positional.family.all_params``): a family's own
settings appear here, and in the URL, by being declared in its module.
"""

from __future__ import annotations

import streamlit as st

from core.positional.family import FamilyConfig, Param, all_params
from ui.settings import bound_number
from ui.state.named_choice import named_choice

COLUMNS = 5


def setting(param: Param) -> object:
    """The widget of one setting: a choice among its options, or a number bound to its URL key."""
    if param.options:  # shown in words ("spread 1, as the lecture's code"), kept in the URL as "torch"
        shown = param.shown
        return named_choice(param.label, param.options, param.key, param.default, shown, help=param.help)
    return bound_number(param.label, param.key, param.default, param.help)


def settings_words() -> str:
    """The words the settings' labels use, each defined (``Param.words``): shown above the widgets,
    whose labels are read before anything under them."""
    return " ".join(p.words for p in all_params().values() if p.words)


def family_settings(columns: int = COLUMNS, words: bool = True) -> FamilyConfig:
    """Every family setting (heads, base, buckets, max_distance, clip, extrapolate, layout, …), in rows of
    ``columns`` widgets (1 in the sidebar); above them the words their labels use, unless ``words`` is
    False (the caller wrote them above a folded expander, where the page reads them too)."""
    params = list(all_params().values())
    if words:
        st.markdown(settings_words())
    values = {}
    for start in range(0, len(params), columns):  # row by row: a phone stacks them in reading order
        for column, param in zip(st.columns(columns), params[start : start + columns], strict=False):
            with column:
                values[param.key] = setting(param)
    return FamilyConfig(**values)
