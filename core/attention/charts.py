"""Attention heatmaps: data in (``display.heatmap_frame``), ``alt.Chart`` out (no Streamlit).

Rows are queries i, columns keys j; axes are labelled with the tokens by an expression, so each cell
sends only ``i, j, v``. Masked cells carry no data and show the grey background.
"""

from __future__ import annotations

import json

import altair as alt
import pandas as pd
import torch

from core.views.chart_specs import templated
from core.views.charts import accent_bar, accent_title

MASKED = "#d1d5db"  # the background a hidden (masked) cell shows
HIGHLIGHT = "#111827"


def symmetric_domain(values: list[torch.Tensor]) -> tuple[float, float]:
    """One colour domain for several diverging heatmaps, from each one's visible values [n]: ±(largest
    |v|), at least ±1e-6."""
    limit = max([float(v.abs().max()) for v in values if len(v)] + [1e-6])
    return (-limit, limit)


@templated(live=("domain", "symlog"))  # built once per shape (labels, title, …), for every colour scale
def attention_heatmap(
    frame: pd.DataFrame,
    labels: list[str],
    title: str,
    *,
    domain: tuple[float, float],
    legend: str,
    scheme: str = "redblue",
    symlog: float | None = None,
    highlight: int | None = None,
    accent: str | None = None,
    height: int = 260,
    compact: bool = False,
) -> alt.LayerChart:
    """A query × key heatmap.

    Args:
        frame: cells with columns i (query), j (key), v; only the visible ones.
        labels: [T] axis label of each position (``display.token_labels``).
        domain: the colour scale's ends (share one between charts to compare them).
        legend: the colour legend's title.
        scheme: "redblue" (diverging, blue < 0 < red) or a sequential scheme such as "blues".
        symlog: a symmetric-log colour scale with this constant (small values stay visible next to large).
        highlight: a query row to outline (the moved token).
        accent: a family's colour, as a bar above the plot (the title stays dark).
        compact: no legend and no axis titles (small multiples on a projector; the caption names the scale).
    """
    names = json.dumps(labels)  # a literal array in Vega's expression language: label = names[i]
    diverging = scheme == "redblue"
    scale = alt.Scale(scheme=scheme, reverse=diverging, domain=list(domain))
    if symlog is not None:
        scale = alt.Scale(
            type="symlog", constant=symlog, scheme=scheme, reverse=diverging, domain=list(domain)
        )
    positions = list(range(len(labels)))
    axis = {"labelExpr": f"{names}[datum.value]", "labelOverlap": True, "labelLimit": 90}
    base = alt.Chart(frame).transform_calculate(query=f"{names}[datum.i]", key=f"{names}[datum.j]")
    x_title, y_title = (None, None) if compact else ("key j", "query i")
    x = alt.X("j:O", title=x_title, scale=alt.Scale(domain=positions), axis=alt.Axis(labelAngle=-50, **axis))
    y = alt.Y("i:O", title=y_title, scale=alt.Scale(domain=positions), axis=alt.Axis(**axis))
    cells = base.mark_rect().encode(
        x=x,
        y=y,
        color=alt.Color("v:Q", title=legend, scale=scale, legend=None if compact else alt.Legend()),
        tooltip=[
            alt.Tooltip("query:N"),
            alt.Tooltip("key:N"),
            alt.Tooltip("v:Q", title=legend, format=".4f"),
        ],
    )
    layers = [cells]
    if highlight is not None:
        row = base.transform_filter(alt.datum.i == highlight).mark_rect(
            filled=False, stroke=HIGHLIGHT, strokeWidth=2
        )
        layers.append(row.encode(x=x, y=y))
    if accent is not None:
        layers.append(accent_bar(accent))
    chart = alt.layer(*layers, title=title if accent is None else accent_title(title), height=height)
    return chart.configure_view(fill=MASKED)


def query_row_frame(m, labels: list[str], query: int) -> pd.DataFrame:
    """One query's row of an ``AttentionMap``: each key's label, score and weight, and whether the mask
    hides it (a hidden key's score is left out: the mask drops it before the softmax)."""
    visible = m.mask[query].tolist()
    scores = (m.content + m.position)[query].tolist()
    return pd.DataFrame(
        {
            "key": labels,
            "score": [s if v else None for s, v in zip(scores, visible, strict=True)],
            "weight": [
                float(w) if v else 0.0 for w, v in zip(m.weights[query].tolist(), visible, strict=True)
            ],
            "seen": ["sees it" if v else "hidden by the mask" for v in visible],
        }
    )


def query_row_charts(frame: pd.DataFrame, height: int = 200) -> tuple[alt.Chart, alt.LayerChart]:
    """The bridge's picture, two charts side by side: one query's scores, then its weights after the
    softmax, key by key."""
    order = list(frame["key"])
    y = alt.Y("key:N", sort=order, title="key j", axis=alt.Axis(labelOverlap=False))
    colors = alt.Color(
        "seen:N",
        title=None,
        scale=alt.Scale(domain=["sees it", "hidden by the mask"], range=["#1d4ed8", MASKED]),
        legend=alt.Legend(orient="bottom"),
    )
    score = (
        alt.Chart(frame, title="score q·k/√dh", height=height)
        .mark_bar()
        .encode(
            y=y,
            x=alt.X("score:Q", title="score"),
            color=colors,
            tooltip=["key", alt.Tooltip("score:Q", format=".4f")],
        )
    )
    weight = alt.Chart(frame, title="weight after the softmax", height=height).encode(
        y=alt.Y("key:N", sort=order, title=None, axis=alt.Axis(labelOverlap=False)),
        x=alt.X("weight:Q", title="weight (the row adds up to 1)", scale=alt.Scale(domain=[0, 1])),
    )
    bars = weight.mark_bar().encode(color=colors, tooltip=["key", alt.Tooltip("weight:Q", format=".4f")])
    text = (
        weight.mark_text(align="left", dx=4)
        .encode(text=alt.Text("label:N"))
        .transform_calculate(label="datum.seen == 'sees it' ? format(datum.weight, '.2f') : 'hidden'")
    )
    return score, alt.layer(bars, text)
