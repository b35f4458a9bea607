"""Start here: the app's name, what it is for, and the lesson's route, one line a step."""

import streamlit as st

from ui.app import settings
from ui.navigation import ROUTE, page_of, visited
from ui.presenter import presenting

settings()  # the shared sidebar: its settings are the ones every step uses
st.title("Positional Embeddings Explorer")
st.markdown(
    "The embedding layer gives a token the **same vector wherever it stands**, so an LLM needs extra "
    "information about position. This app shows, with real tensors and your own text, how a model turns "
    "text into the **input embeddings** it trains on, and how each kind of positional embedding, "
    "absolute or relative, tells positions apart."
)
st.subheader("The route")
st.caption("Seven steps, in the lecture's order. Each page ends with a link to the next one.")
if presenting():  # one screen on a projector: the steps' names, each a link to its slides
    for n, stop in enumerate(ROUTE, 1):
        st.page_link(page_of(stop), label=f"**{n}. {stop.title}**", icon=stop.icon)
    st.stop()
for n, stop in enumerate(ROUTE, 1):
    seen = visited(stop)
    with st.container(border=True):
        st.page_link(
            page_of(stop),
            label=f"**{n}. {stop.title}**" + (" (visited)" if seen else ""),
            icon=":material/check_circle:" if seen else stop.icon,
        )
        st.markdown(stop.question)
st.subheader("How to use it")
st.markdown(
    "- **The sidebar** holds the lesson's settings: vocabulary size V, embedding dimension d, context "
    "length T, batch size B, stride and seed. Change one and every step follows.\n"
    "- **Your own text**: paste or upload it in the sidebar. Upload the book's `the-verdict.txt` to see "
    "the book's first batch, token for token.\n"
    "- **Copy link** shares the exact view, settings and text included.\n"
    "- **Presenter mode** (for a projector) shows one section at a time and asks the class to predict "
    "each answer before it is revealed."
)
