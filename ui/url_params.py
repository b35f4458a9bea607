"""Every setting's URL parameter and what it accepts; a bad value is explained, never replaced silently.

A widget bound to the URL quietly replaces a value it cannot take (``dim=abc``, ``dim=1.5``,
``vocab=inf``, ``method=unknown``) by its default. The entry point checks the address bar first,
says what was wrong with each value and removes it, so the page visibly falls back to the default.
Ranges are explained by each page's ``validate`` (the same on every page).
"""

from __future__ import annotations

import math
import re

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from core.config import (
    EXTRAPOLATE_FACTORS,
    LEARNED_INITS,
    METHODS,
    ROPE_PAIRINGS,
    SINUSOIDAL_LAYOUTS,
    FamilyConfig,
    PipelineConfig,
)
from core.markup import escape_markdown
from core.model import SIZES
from core.presets import PRESETS
from core.samples import SAMPLES
from core.training import TrainConfig

WHOLE, NUMBER = "a whole number", "a number"
_WHOLE = re.compile(r"[+-]?\d+")


def accepted() -> dict[str, str | tuple[str, ...]]:
    """URL key -> ``WHOLE``, ``NUMBER`` or the option values it accepts."""
    options = {
        "method": METHODS,
        "sample": tuple(SAMPLES),
        "preset": ("custom", *PRESETS),
        "extrapolate": tuple(str(f) for f in EXTRAPOLATE_FACTORS),
        "layout": tuple(SINUSOIDAL_LAYOUTS),
        "pairing": ROPE_PAIRINGS,
        "init": tuple(LEARNED_INITS),
        "size": tuple(SIZES),
        "corpus": ("log", "sidebar"),
        "present": ("true", "false", "1"),
        "space": ("true", "false"),
    }
    numbers = dict.fromkeys(
        ("vocab", "dim", "context", "batch", "stride", "seed", "heads", "buckets", "max_distance", "clip")
        + ("train_context", "steps"),
        WHOLE,
    )
    return {**numbers, "base": NUMBER, **options}


def defaults() -> dict[str, object]:
    """What each setting falls back to."""
    p, f, t = PipelineConfig(), FamilyConfig(), TrainConfig()
    return {
        "vocab": p.vocab_size,
        "dim": p.output_dim,
        "context": p.context_length,
        "batch": p.batch_size,
        "stride": p.stride,
        "seed": p.seed,
        "method": p.method,
        "sample": "lesson",
        "preset": "custom",
        "heads": f.heads,
        "base": f.base,
        "buckets": f.buckets,
        "max_distance": f.max_distance,
        "clip": f.clip,
        "extrapolate": f.extrapolate,
        "layout": f.layout,
        "pairing": f.pairing,
        "init": f.init,
        "size": t.size,
        "corpus": "log",
        "present": "false",
        "space": "true",
        "train_context": t.context_length,
        "steps": t.steps,
    }


def problem(key: str, value: str) -> str | None:
    """Why ``value`` cannot be URL parameter ``key`` (None when it can, or the key is not a setting)."""
    kind = accepted().get(key)
    if kind is None:
        return None
    if kind == WHOLE:
        return None if _WHOLE.fullmatch(value.strip()) else f"is not {WHOLE}"
    if kind == NUMBER:
        try:
            number = float(value)
        except ValueError:
            return f"is not {NUMBER}"
        return None if math.isfinite(number) else "is not a finite number"
    return None if value in kind else f"is not one of {', '.join(kind)}"


def check_url() -> list[str]:
    """Messages for the URL's bad values, which are removed so that their settings take the default."""
    messages = []
    for key in list(st.query_params):
        value = st.query_params.get(key, "")
        why = problem(key, value) if value != "" else (None if key not in accepted() else "is empty")
        if why is None:
            continue
        del st.query_params[key]
        st.session_state.pop(key, None)
        shown = escape_markdown(value[:40] + ("…" if len(value) > 40 else ""))
        messages.append(f"URL parameter **{key}** = “{shown}” {why}: using the default, {defaults()[key]}.")
    if messages:
        _forget_initial_values()
    return messages


def _forget_initial_values() -> None:
    """Make the bound widgets of this run seed from the corrected URL, not the one the page opened with.

    Streamlit seeds a bound widget from the query string the run *started* with
    (``QueryParams._initial_query_params``), so removing a parameter alone would still let ``vocab=inf``
    reach the widget. ``set_initial_query_params_from_current`` is what Streamlit itself calls on a page
    switch (``script_runner.py``) to re-seed from the filtered parameters.
    """
    ctx = get_script_run_ctx()
    if ctx is not None:
        with ctx.session_state.query_params() as qp:
            qp.set_initial_query_params_from_current()
