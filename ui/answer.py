"""The answer, in short: under a page's question, its answer in plain words with the one number that
answers it, and a button for each method that would answer differently.

A page reserves the box's place under its question (``answer_slot``) and fills it once its numbers are
computed (``show_answer``): the box comes first in reading order, whatever the page computes first.
Not when presenting: there the class predicts each answer before it is revealed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core.positional.family import FAMILIES
from core.views.glossary import GLOSSARY, gloss, named
from ui.presenter import presenting
from ui.state.presets import to_custom
from ui.tables import table


@dataclass(frozen=True)
class Answer:
    """A page's answer for the settings in force."""

    label: str  # what the number is, in a few words
    number: str  # the number that answers the question, as shown
    words: str  # two to four plain sentences that answer it, the number among them
    others: tuple[str, ...] = field(default=())  # methods (keys) that answer differently: a button each
    others_say: str = "Other methods answer differently. See the page with:"  # above their buttons
    evidence: str = "The tables, captions and charts below are the evidence."
    table: pd.DataFrame | None = None  # exact numbers that belong to the answer (shown with ``evidence``)


def answer_slot() -> DeltaGenerator | None:
    """The box's place, right under the question (None when presenting)."""
    return None if presenting() else st.container()


def use_method(key: str) -> None:
    """A button's callback: the sidebar's method becomes ``key`` (the rest of the settings stay)."""
    st.session_state["method"] = key
    to_custom("method")


def show_answer(slot: DeltaGenerator | None, answer: Answer) -> None:
    """Draw ``answer`` in ``slot`` (nothing when there is none)."""
    if slot is None:
        return
    with slot.container(border=True, key="answer"):
        st.markdown("**The answer, in short**")
        words, number = st.columns([5, 2])  # the words first: they define what the number's label names
        words.markdown(answer.words)
        number.metric(answer.label, answer.number)
        if answer.table is not None:
            table(answer.table, hide_index=True, one_line="answer")
        st.caption(answer.evidence)
        if answer.others:
            labels = [FAMILIES[key].label for key in answer.others]
            new = [named(label) for label in labels if label in GLOSSARY and gloss(label) not in answer.words]
            if new:  # what each button's method is, unless the words said it
                st.caption("The other methods: " + "; ".join(new) + ".")
            st.markdown(answer.others_say)
            cells = st.columns(len(answer.others))
            for cell, key in zip(cells, answer.others, strict=True):
                label = FAMILIES[key].label
                cell.button(label, key=f"answer_{key}", on_click=use_method, args=(key,), width="stretch")
