"""A bare Streamlit page, the baseline of ``browser_wait.py``: one number input and a line of text.

Options in its URL, to tell a Vega view's or a table's cost from the app's own:

- ``?heatmaps=13``: that many small Altair heatmaps (8 × 8) that change with the seed;
- ``&described=1``: each with a description naming the seed (a changed spec: the chart is built again);
- ``&concat=1``: the heatmaps as panels of one chart (one Vega view);
- ``&canvas=1``: drawn on a canvas instead of SVG;
- ``&inplace=1``: drawn with ``st.vega_lite_chart`` and a spec that does not change (the app's way);
- ``&echarts=1``: drawn as ECharts heatmaps (``st.echarts_chart``, canvas);
- ``?table=grid`` or ``?table=html``: a small table that changes with the seed, as a data grid or HTML.
"""

import altair as alt
import pandas as pd
import streamlit as st

seed = st.sidebar.number_input("Seed", value=123, step=1)
st.write(f"The seed is {seed}.")
if st.query_params.get("table"):
    small = pd.DataFrame({"n": [seed + k for k in range(8)], "square": [(seed + k) ** 2 for k in range(8)]})
    st.dataframe(small) if st.query_params["table"] == "grid" else st.table(small)
count = int(st.query_params.get("heatmaps", 0))
described = st.query_params.get("described") == "1"
frame = pd.DataFrame(
    [(i, j, (i * 7 + j * 3 + seed) % 11) for i in range(8) for j in range(8)], columns=list("ijv")
)
if st.query_params.get("concat") == "1":
    panels = [
        alt.Chart(frame).mark_rect().encode(x="j:O", y="i:O", color="v:Q").properties(title=f"map {k}")
        for k in range(count)
    ]
    st.altair_chart(alt.concat(*panels, columns=4), width="content")
    count = 0
SPEC = {  # the same for every seed: Vega keeps its view and replaces the data
    "mark": "rect",
    "encoding": {
        "x": {"field": "j", "type": "ordinal"},
        "y": {"field": "i", "type": "ordinal"},
        "color": {"field": "v", "type": "quantitative", "scale": {"domain": [0, 10]}},
    },
}
if st.query_params.get("inplace") == "1":
    for k in range(count):
        st.vega_lite_chart(frame, {**SPEC, "title": f"map {k}"}, width="stretch")
    count = 0
if st.query_params.get("echarts") == "1":
    cells = [[int(j), int(i), int(v)] for i, j, v in frame.itertuples(index=False)]
    for k in range(count):
        st.echarts_chart(
            {
                "title": {"text": f"map {k}"},
                "animation": False,
                "xAxis": {"type": "category", "data": list(range(8))},
                "yAxis": {"type": "category", "data": list(range(8))},
                "visualMap": {"min": 0, "max": 10, "show": False},
                "series": [{"type": "heatmap", "data": cells}],
            },
            height=300,
        )
    count = 0
for k in range(count):
    chart = alt.Chart(frame).mark_rect().encode(x="j:O", y="i:O", color="v:Q").properties(title=f"map {k}")
    if described:
        chart = chart.properties(description=f"map {k} for seed {seed}")
    if st.query_params.get("canvas") == "1":
        chart = chart.properties(usermeta={"embedOptions": {"renderer": "canvas"}})
    st.altair_chart(chart, width="stretch")
