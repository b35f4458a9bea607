"""What today's models do with position on the student's sentence (``core.positional.on_sentence``),
written where the Attention page and Why position? show the chosen method acting on it."""

from __future__ import annotations

import streamlit as st

from core.positional.on_sentence import on_sentence


def todays_models_note(method: str, tokens: int, known: tuple[str, ...] = ()) -> None:
    """A paragraph for ``method`` on a sentence of ``tokens`` tokens, with a link to Today's models;
    nothing for a family today's models do not use. ``known``: glossary words the page defined above."""
    said = on_sentence(method, tokens, known)
    if not said:
        return
    st.markdown("**In today's models, on your sentences.**\n" + "\n".join(f"- {line}" for line in said))
    st.page_link("pages/Todays_models.py", label="Today's models, layer by layer", icon=":material/layers:")
