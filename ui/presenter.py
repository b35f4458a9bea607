"""Presenter mode (URL ``present=1``): large type, one pipeline step at a time, predict then reveal."""

from __future__ import annotations

import streamlit as st

from core.pipeline import Step
from core.units import shape_str
from ui.components import step_header

STEP_KEY = "present_step"  # session key: the step on screen (1-based)
_CSS = """
<style>
html { font-size: 135%; }
[data-testid="stMetricValue"] { font-size: 3.2rem; }
h1 { font-size: 3rem !important; }
</style>
"""


def _toggle() -> None:
    if st.session_state["present_toggle"]:
        st.query_params["present"] = "1"
    else:
        st.query_params.pop("present", None)


def presenter_mode() -> bool:
    """The sidebar switch, in step with the URL parameter ``present``; True when presenting."""
    on = st.query_params.get("present") == "1"
    st.sidebar.toggle(
        "Presenter mode",
        value=on,
        key="present_toggle",
        on_change=_toggle,
        help="Large type for a projector, one step at a time, and a prediction before each shape.",
    )
    if on:
        st.html(_CSS)
    return on


def presenter_nav(total: int) -> int:
    """Previous / next buttons; returns the step on screen."""
    current = st.session_state.setdefault(STEP_KEY, 1)

    def move(by: int) -> None:  # a callback: the step changes before the page is drawn again
        st.session_state[STEP_KEY] = min(max(st.session_state[STEP_KEY] + by, 1), total)

    c1, c2, c3 = st.columns([1, 2, 1])
    c1.button(
        "◀ Previous", key="present_prev", disabled=current <= 1, width="stretch", on_click=move, args=(-1,)
    )
    c3.button(
        "Next ▶", key="present_next", disabled=current >= total, width="stretch", on_click=move, args=(1,)
    )
    c2.progress(current / total, text=f"Step {current} of {total}")
    return current


def step(number: int, info: Step, presenting: bool, current: int) -> bool:
    """Draw a step's header; True when its body should be drawn too.

    Presenting, only the current step is drawn, and its shape is hidden behind a prediction.
    """
    if not presenting:
        step_header(number, info)
        return True
    if number != current:
        return False
    revealed_key = f"revealed_{number}"
    st.subheader(f"{number}. {info.title}")
    st.code(info.code, language="python")
    if not st.session_state.get(revealed_key):
        st.text_input(
            f"Predict the shape of `{info.name}` (for example 8 × 4 × 256)", key=f"predict_{number}"
        )
        st.button(
            "Reveal",
            key=f"reveal_{number}",
            type="primary",
            on_click=lambda: st.session_state.update({revealed_key: True}),
        )
        return False
    guess = st.session_state.get(f"predict_{number}", "").replace("x", "×").replace(" ", "")
    if guess:
        right = guess == shape_str(info.shape).replace(" ", "").replace(",", "")
        (st.success if right else st.warning)(
            f"Your prediction: {st.session_state[f'predict_{number}']} — "
            + ("right!" if right else f"the tensor is {shape_str(info.shape)}.")
        )
    step_header(number, info)
    return True
