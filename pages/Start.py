"""Start here: the app's name, what it is for, and the lesson's route: the chapter's steps, then what
goes beyond it, one line a step."""

import streamlit as st

from core.views.glossary import define
from core.views.units import plural
from ui.app import settings
from ui.navigation import BEYOND, CHAPTER, GLOSSARY, ROUTE, Stop, page_of, visited
from ui.presenter import PRESENT_HOW, presenting

settings()  # the shared sidebar: its settings are the ones every step uses
st.title("Positional Embeddings Explorer")
st.markdown(
    "The embedding layer gives a token the **same vector wherever it stands**, so an LLM needs extra "
    "information about position. This app shows, with real tensors and your own text, how a model turns "
    "text into the **input embeddings** it trains on, and how each kind of positional embedding, "
    "absolute or relative, tells positions apart. Absolute ones are added to the input; relative ones act "
    f"later, in {define('attention')}."
)
st.subheader("The route")
if presenting():  # one screen on a projector: the steps' names, each a link to its slides
    for n, stop in enumerate(ROUTE, 1):
        st.page_link(page_of(stop), label=f"**{n}. {stop.title}**", icon=stop.icon)
    st.stop()


def route_step(stop: Stop) -> None:
    """One step of the route: its link (marked once visited), its question and, beyond the chapter, what
    it needs first."""
    seen = visited(stop)
    with st.container(border=True):
        st.page_link(
            page_of(stop),
            label=f"**{ROUTE.index(stop) + 1}. {stop.title}**" + (" (visited)" if seen else ""),
            icon=":material/check_circle:" if seen else stop.icon,
        )
        st.markdown(stop.question)
        if stop.needs:
            st.caption(stop.needs)


st.markdown(f"**The chapter (ch. 2.8)**: its {plural(len(CHAPTER), 'step')}, in the lecture's order.")
for stop in CHAPTER:
    route_step(stop)
st.markdown(
    f"**Beyond the chapter**: {plural(len(BEYOND), 'step')} that carry it further, to today's long texts "
    "and models and to training. Each says what to see first."
)
for stop in BEYOND:
    route_step(stop)
st.caption("Each page ends with a link to the next one.")
st.subheader("How to use it")
st.markdown(
    "- **The sidebar** holds the lesson's settings: vocabulary size V, embedding dimension d, context "
    "length T, batch size B, stride and seed. Change one and every step follows.\n"
    "- **Your own text**: paste or upload it in the sidebar. Upload the book's `the-verdict.txt` to see "
    "the book's first batch, token for token.\n"
    "- **Copy link** shares the exact view, settings and text included.\n"
    f"- {PRESENT_HOW}\n"
    "- **A word you do not know**: each page explains it where it first appears, and the Glossary lists "
    "them all."
)
st.page_link(page_of(GLOSSARY), label="The Glossary", icon=GLOSSARY.icon)
