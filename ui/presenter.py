"""Presenter mode (URL ``present=true``): large type, one section at a time, predict then reveal.

The switch lives in the shared sidebar and is bound to the URL, so it stays on through page switches
and reloads. Every page splits itself into ``Slides``; a prediction box hides a shape or a number
until the class has guessed it.
"""

from __future__ import annotations

import altair as alt
import streamlit as st

from core.charts import unvalidated
from core.markup import escape_markdown
from core.pipeline import Step
from core.prediction import parse_number, parse_shape
from core.units import shape_str
from ui.widgets import step_header, step_metrics

PRESENT = "present"  # the switch's widget key and URL parameter
_CSS = """
<style>
html { font-size: 135%; }
[data-testid="stMainBlockContainer"] { padding-top: 4.5rem; }
h1 { font-size: 2.1rem !important; padding-top: 0 !important; }
[data-testid="stMetricValue"] { font-size: 3rem; }
[data-testid="stTable"] table { font-size: 1rem; }
</style>
"""


def presenter_toggle(bound: dict) -> None:
    """The sidebar switch, bound to the URL parameter ``present`` (``bound``: its key and binding)."""
    if st.query_params.get(PRESENT) == "1":  # links written before the switch was bound say present=1
        st.query_params[PRESENT] = "true"
        st.session_state[PRESENT] = True
    st.toggle(
        "Presenter mode",
        help="Large type for a projector, one section at a time, and a prediction before each answer.",
        **bound,
    )


def presenting() -> bool:
    """True while presenter mode is on (the URL says ``present=true``)."""
    return bool(st.session_state.get(PRESENT)) or st.query_params.get(PRESENT) in ("1", "true")


def presenter_style() -> None:
    """Large type for a projector, when presenting."""
    if presenting():
        st.html(_CSS)


def readable(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """``chart`` with labels a back row can read when presenting, ready to draw (every chart passes here).

    Drawing skips Altair's schema validation: ``core.charts.unvalidated``.
    """
    if presenting():
        chart = (
            chart.configure_axis(labelFontSize=17, titleFontSize=19)
            .configure_title(fontSize=22)
            .configure_legend(labelFontSize=16, titleFontSize=17)
        )
    return unvalidated(chart)


class Slides:
    """A page's sections; presenting, only one is drawn, with Previous / Next above it."""

    def __init__(self, page: str, titles: list[str]):
        self.page, self.titles, self.on = page, titles, presenting()
        self.current = self._nav() if self.on else 0

    def _nav(self) -> int:
        key, total = f"slide_{self.page}", len(self.titles)
        current = min(max(st.session_state.get(key, 1), 1), total)
        st.session_state[key] = current

        def move(by: int) -> None:  # a callback: the section changes before the page is drawn again
            st.session_state[key] = min(max(st.session_state[key] + by, 1), total)

        c1, c2, c3 = st.columns([1, 2, 1], vertical_alignment="center")
        c1.button(
            "◀ Previous",
            key=f"prev_{self.page}",
            disabled=current <= 1,
            width="stretch",
            on_click=move,
            args=(-1,),
        )
        c3.button(
            "Next ▶",
            key=f"next_{self.page}",
            disabled=current >= total,
            width="stretch",
            on_click=move,
            args=(1,),
        )
        c2.progress(current / total, text=f"Section {current} of {total}: {self.titles[current - 1]}")
        return current

    def shows(self, number: int) -> bool:
        """Whether section ``number`` (1-based) is drawn in this run."""
        return not self.on or number == self.current


def _revealed(key: str, question: str) -> bool:
    """A prediction box and a Reveal button until revealed; True once the answer may be shown."""
    if st.session_state.get(f"revealed_{key}"):
        return True
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.text_input(question, key=f"predict_{key}")
    c2.button(
        "Reveal",
        key=f"reveal_{key}",
        type="primary",
        width="stretch",
        on_click=lambda: st.session_state.update({f"revealed_{key}": True}),
    )
    return False


def predict_shape(key: str, name: str, shape: tuple[int, ...]) -> bool:
    """Ask for the shape of ``name`` before showing it; True once revealed (then says how the guess did).

    The verdict repeats the shape read from the guess, never the typed text itself.
    """
    example = "8 × 4 × 256, [8, 4, 256] or torch.Size([8, 4, 256])"
    if not _revealed(key, f"Predict the shape of {name} (for example {example})"):
        return False
    guess = parse_shape(st.session_state.get(f"predict_{key}", ""))
    if guess == shape:
        st.success(f"Right: {shape_str(shape)}.")
    elif guess is not None:
        st.warning(f"You predicted {shape_str(guess)}; the tensor is {shape_str(shape)}.")
    return True


def predict_number(key: str, question: str, answer: float, tolerance: float) -> bool:
    """Ask for a number before showing it; True once revealed (then says how close the guess was)."""
    if not _revealed(key, question):
        return False
    guess = parse_number(st.session_state.get(f"predict_{key}", ""))
    if guess is not None:
        close = abs(guess - answer) <= tolerance
        (st.success if close else st.warning)(
            f"You predicted {guess:g}; the answer is {answer:.6f}" + (" — right!" if close else ".")
        )
    return True


def predict_token(key: str, question: str, answer: str) -> bool:
    """Ask for a token before showing it; True once revealed (then says whether the guess was it).

    A guess is right when it is the token's text, ignoring quotes, surrounding spaces and case; the
    verdict quotes the answer, never the typed text.
    """
    if not _revealed(key, question):
        return False
    guess = st.session_state.get(f"predict_{key}", "").strip().strip("'\"").strip().casefold()
    if guess:
        right = guess == answer.strip().casefold()
        shown = escape_markdown(repr(answer))
        (st.success if right else st.warning)(f"Right: {shown}." if right else f"The answer is {shown}.")
    return True


def step(number: int, info: Step, slides: Slides) -> bool:
    """Draw a pipeline step's header; True when its body should be drawn too.

    Presenting, only the current step is drawn, and its shape is hidden behind a prediction.
    """
    if not slides.shows(number):
        return False
    if not slides.on:
        step_header(number, info)
        return True
    st.subheader(f"{number}. {info.title}")
    revealed = predict_shape(str(number), f"`{info.name}`", info.shape)
    st.code(info.code, language="python", wrap_lines=True)
    if revealed:
        step_metrics(info)
    return revealed
