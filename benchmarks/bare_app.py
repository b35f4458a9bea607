"""A bare Streamlit page, the baseline of ``browser_wait.py``: one number input and a line of text.

With ``?heatmaps=13`` it also draws that many small Altair heatmaps (8 × 8), to tell a Vega view's cost
from the app's own.
"""

import altair as alt
import pandas as pd
import streamlit as st

seed = st.sidebar.number_input("Seed", value=123, step=1)
st.write(f"The seed is {seed}.")
count = int(st.query_params.get("heatmaps", 0))
frame = pd.DataFrame(
    [(i, j, (i * 7 + j * 3 + seed) % 11) for i in range(8) for j in range(8)], columns=list("ijv")
)
for k in range(count):
    chart = alt.Chart(frame).mark_rect().encode(x="j:O", y="i:O", color="v:Q").properties(title=f"map {k}")
    st.altair_chart(chart, width="stretch")
