"""Glossary: every word the app uses that the lecture did not, defined once (``core.views.glossary``);
presenting, one topic a slide."""

import streamlit as st

from core.views.glossary import TERMS
from ui.app import settings
from ui.navigation import GLOSSARY, page_title
from ui.slides import Slides

settings()  # the shared sidebar
page_title(GLOSSARY.title)
topics = list(dict.fromkeys(term.topic for term in TERMS))
slides = Slides("glossary", topics)
if not slides.on:
    st.markdown(
        f"**The question:** {GLOSSARY.question} The lecture's own words (token, token ID, embedding, "
        "vector, position, context length, batch, broadcasting) are not here. Each page also explains these "
        "words where they first appear."
    )
for number, topic in enumerate(topics, 1):
    if slides.shows(number):
        st.subheader(topic)
        st.markdown("\n".join(f"- **{t.name}**: {t.gloss}." for t in TERMS if t.topic == topic))
