"""Prediction boxes while presenting: a box hides a shape, a number or a token until the class has
guessed it; once revealed, the verdict says how the guess did. Next on an unrevealed prediction reveals
it first, and a later slide of the same prediction (reached by a link) shows its content, never the
question again."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.prediction import (
    example_shape,
    number_problem,
    parse_number,
    parse_shape,
    position_problem,
    shape_problem,
)
from core.views.markup import escape_markdown
from core.views.units import position_str, shape_str

_ASKED = "_asked"  # session key: the prediction whose box the last run drew (Next reveals it first)


def _reveal(key: str) -> None:
    """Reveal's callback (and Next's, on an unrevealed prediction): the answer may be shown, and the guess
    is kept for the verdict (the box, no longer drawn, loses its own value). A second press, from a
    clicker pressed twice, keeps the first guess."""
    if st.session_state.get(f"revealed_{key}"):
        return
    st.session_state[f"revealed_{key}"] = True
    st.session_state[f"guess_{key}"] = st.session_state.get(f"predict_{key}", "")


def forget_asked() -> None:
    """Forget which box the last run drew (``Slides`` does, first in a run: ``ask`` names this run's)."""
    st.session_state.pop(_ASKED, None)


def reveal_asked() -> bool:
    """Next's callback: reveal the prediction whose box the run before it drew, if it is unrevealed;
    True when it did (Next then stays on the slide), False when there was none to reveal."""
    asked = st.session_state.get(_ASKED)
    if asked is None or revealed(asked):
        return False
    _reveal(asked)
    return True


def revealed(key: str) -> bool:
    """Whether prediction ``key`` has been revealed (or passed by a link) in this session."""
    return bool(st.session_state.get(f"revealed_{key}"))


def after_prediction(key: str) -> bool:
    """A later slide of prediction ``key``'s section: True, its content is shown.

    Next reveals a prediction before it moves on, so only a link (or a reload) lands here unrevealed:
    the class arrived with nothing to predict, so the prediction counts as passed, without a guess and
    so without a verdict, and no slide asks it again.
    """
    if not revealed(key):
        st.session_state[f"revealed_{key}"] = True
        st.session_state[f"guess_{key}"] = None
    return True


def guess(key: str) -> str | None:
    """What was typed in prediction ``key``'s box when it was revealed (or so far); None when it was
    passed by a link (nothing was asked)."""
    return st.session_state.get(f"guess_{key}", st.session_state.get(f"predict_{key}", ""))


NO_GUESS = "No guess was typed."  # the verdict's start for a prediction revealed with an empty box


def ask(key: str, question: str, problem: Callable[[str], str | None] | None = None) -> bool:
    """A prediction box and a Reveal button until revealed; True once the answer may be shown.

    Call it with the same ``key`` and ``question`` on every section that would show the answer. ``problem``
    says what it cannot read in a guess (plain text, escaped here), shown under the box as it is typed.
    """
    if revealed(key):
        return True
    st.session_state[_ASKED] = key  # Next's callback, in the next run, reveals it before moving on
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    typed = c1.text_input(question, key=f"predict_{key}")
    c2.button(
        "Reveal",
        key=f"reveal_{key}",
        type="primary",
        width="stretch",
        on_click=_reveal,
        args=(key,),
    )
    if problem is not None and (message := problem(typed)):
        st.warning(escape_markdown(message))
    return False


def shape_question(name: str, shape: tuple[int, ...]) -> str:
    """The question before a shape: how to write one, with an example that is not ``shape``."""
    example = example_shape(shape)
    return f"Predict the shape of {name} (for example {example} or [{example.replace(' × ', ', ')}])"


def predict_shape(key: str, name: str, shape: tuple[int, ...]) -> bool:
    """Ask for the shape of ``name`` before showing it; True once revealed (then says how the guess did).

    The verdict repeats the shape read from the guess, never the typed text itself; a guess it cannot
    read gets what it could not read and an example.
    """
    if not ask(key, shape_question(name, shape), lambda text: shape_problem(text, shape)):
        return False
    typed = guess(key)
    if typed is None:  # passed by a link: nothing to say about a guess
        return True
    read = parse_shape(typed)
    if not typed.strip():
        st.info(f"{NO_GUESS} The tensor is {shape_str(shape)}.")
    elif read == shape:
        st.success(f"Right: {shape_str(shape)}.")
    elif read is not None:
        st.warning(f"You predicted {shape_str(read)}; the tensor is {shape_str(shape)}.")
    elif message := shape_problem(typed, shape):
        st.warning(f"{escape_markdown(message)} The tensor is {shape_str(shape)}.")
    return True


def predict_number(
    key: str, question: str, answer: float, tolerance: float, digits: int = 0, unit: str = ""
) -> bool:
    """Ask for a number before showing it; True once revealed (then says how close the guess was, or what
    it could not read). The verdict writes the answer with ``digits`` decimals, as the page shows it
    (0: a count, "29"), then ``unit`` if given ("29 pairs": the answer as a slide would state it)."""
    if not ask(key, question, number_problem):
        return False
    typed, shown = guess(key), f"{answer:,.{digits}f}" + (f" {unit}" if unit else "")
    if typed is None:  # passed by a link: nothing to say about a guess
        return True
    read = parse_number(typed)
    if not typed.strip():
        st.info(f"{NO_GUESS} The answer is {shown}.")
    elif read is not None:
        close = abs(read - answer) <= tolerance
        (st.success if close else st.warning)(
            f"You predicted {read:g}; the answer is {shown}" + (" — right!" if close else ".")
        )
    elif message := number_problem(typed):
        st.warning(f"{escape_markdown(message)} The answer is {shown}.")
    return True


def predict_position(key: str, question: str, answer: tuple[int, ...]) -> bool:
    """Ask for a position of a few whole numbers ((t, h, w)) before showing it; True once revealed (then
    says whether the guess was it, or what it could not read)."""
    if not ask(key, question, lambda text: position_problem(text, len(answer))):
        return False
    if (typed := guess(key)) is None:  # passed by a link: nothing to say about a guess
        return True
    read, shown = parse_shape(typed), position_str(answer)
    if not typed.strip():
        st.info(f"{NO_GUESS} The answer is {shown}.")
    elif read == answer:
        st.success(f"Right: {shown}.")
    elif read is not None and len(read) == len(answer):
        st.warning(f"You predicted {position_str(read)}; the answer is {shown}.")
    elif message := position_problem(typed, len(answer)):
        st.warning(f"{escape_markdown(message)} The answer is {shown}.")
    return True


def predict_token(key: str, question: str, answer: str) -> bool:
    """Ask for a token before showing it; True once revealed (then says whether the guess was it).

    A guess is right when it is the token's text, ignoring quotes, surrounding spaces and case; the
    verdict quotes the answer, never the typed text.
    """
    if not ask(key, question):
        return False
    if (typed := guess(key)) is None:  # passed by a link: nothing to say about a guess
        return True
    typed, shown = typed.strip().strip("'\"").strip().casefold(), escape_markdown(repr(answer))
    if not typed:
        st.info(f"{NO_GUESS} The answer is {shown}.")
    else:
        right = typed == answer.strip().casefold()
        (st.success if right else st.warning)(f"Right: {shown}." if right else f"The answer is {shown}.")
    return True
