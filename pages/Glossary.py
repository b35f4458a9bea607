"""Glossary: every word the app uses that the lecture did not, defined once (``core.views.glossary``)."""

import streamlit as st

from core.views.glossary import TERMS
from ui.app import settings
from ui.navigation import GLOSSARY, page_title

settings()  # the shared sidebar
page_title(GLOSSARY.title)
st.markdown(
    f"**The question:** {GLOSSARY.question} The lecture's own words (token, token ID, embedding, vector, "
    "position, context length, batch, broadcasting) are not here. Each page also explains these words "
    "where they first appear."
)
for topic in dict.fromkeys(term.topic for term in TERMS):
    st.subheader(topic)
    st.markdown("\n".join(f"- **{term.name}**: {term.gloss}." for term in TERMS if term.topic == topic))
