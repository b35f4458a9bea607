"""A Pipeline step's header: its title, line of code and numbers; presenting, its shape is predicted
first."""

from __future__ import annotations

import html

import streamlit as st

from core.pipeline import Step
from core.views.units import human_bytes, human_count, shape_str
from ui.predict import after_prediction, predict_shape
from ui.slides import Slides


def step_header(number: int, step: Step) -> None:
    """A step's title, its line of code and its shape, parameters and bytes."""
    st.subheader(f"{number}. {step.title}")
    code_line(step.code)
    step_metrics(step)


def code_line(code: str) -> None:
    """A step's line of code, in a code box of plain text: ``st.code``'s highlighter costs a page's
    first drawing about 0.3 s in the browser, for one line."""
    breaks = html.escape(code).replace("(", "(<wbr>")  # a phone's line breaks after a bracket, not mid-name
    st.html(f'<pre class="code-line"><code>{breaks}</code></pre>')


def step_metrics(step: Step) -> None:
    """A step's shape, parameters and bytes."""
    c1, c2, c3 = st.columns(3)
    c1.metric(f"`{step.name}` shape", shape_str(step.shape), help=f"Each number is stored as {step.dtype}.")
    c2.metric("Parameters", human_count(step.params), help=f"{step.params:,} trainable values")
    c3.metric(step.memory_label, human_bytes(step.nbytes), help=step.memory_help or f"{step.nbytes:,} bytes")


def step(number: int, info: Step, slides: Slides, lead: str = "") -> bool:
    """Draw a pipeline step's header; True when its body should be drawn too.

    Presenting, only the current step is drawn, and its shape is hidden behind a prediction: its first
    part shows ``lead`` (Markdown: what the class needs to see before it predicts), asks for the shape,
    shows the code and, once revealed, the shape; its later parts (``slides.at``) hold its body, reached
    once the prediction is revealed (or passed by a link).
    """
    if not slides.shows(number):
        return False
    if not slides.on:
        step_header(number, info)
        return True
    st.subheader(f"{number}. {info.title}")
    name = f"`{info.name}`"
    if slides.part > 0:
        return after_prediction(str(number))
    if lead:
        st.markdown(lead)
    shown = predict_shape(str(number), name, info.shape)
    code_line(info.code)
    if shown:
        step_metrics(info)
        if info.nbytes == 0 and info.memory_help:  # 0 B needs its reason on the slide, not in a tooltip
            st.caption(info.memory_help)
    return shown and len(slides.parts[number - 1]) == 1
