"""Attention heatmaps: data in (``display.heatmap_frame``), ``alt.Chart`` out (no Streamlit).

Rows are queries i, columns keys j; axes are labelled with the tokens by an expression, so each cell
sends only ``i, j, v``. Masked cells carry no data and show the grey background.
"""

from __future__ import annotations

import json

import altair as alt
import pandas as pd
import torch

from core.views.charts import accent_bar, accent_title
from core.views.describe import described, figure
from core.views.units import plural

MASKED = "#d1d5db"  # the background a hidden (masked) cell shows
HIGHLIGHT = "#111827"


def symmetric_domain(values: list[torch.Tensor]) -> tuple[float, float]:
    """One colour domain for several diverging heatmaps, from each one's visible values [n]: ±(largest
    |v|), at least ±1e-6."""
    limit = max([float(v.abs().max()) for v in values if len(v)] + [1e-6])
    return (-limit, limit)


def spoken(label: str) -> str:
    """An axis label (``display.token_labels``) as a sentence says it: a space where the label shows ·."""
    return label.replace("·", " ")


def heatmap_description(
    frame: pd.DataFrame, labels: list[str], title: str, legend: str, cells: int, highlight: int | None = None
) -> str:
    """An attention heatmap's sentence, from the cells it draws (``frame``: i, j, v of the visible ones;
    ``cells``: how many it has in all): its size, its values' range and where the ends are, the masked
    cells, the outlined row."""
    size = len({*frame["i"], *frame["j"]}) if len(frame) else 0
    head = f"{title}: query i down, key j across"
    if not len(frame):
        return f"{head}; every cell is hidden by the mask."
    low, high = frame.loc[frame["v"].idxmin()], frame.loc[frame["v"].idxmax()]

    def at(row) -> str:
        return f"query {spoken(labels[int(row['i'])])}, key {spoken(labels[int(row['j'])])}"

    ends = (
        f"every {legend} {figure(low['v'])}"
        if low["v"] == high["v"]
        else f"{legend} from {figure(low['v'])} ({at(low)}) to {figure(high['v'])} ({at(high)})"
    )
    hidden = cells - len(frame)
    masked = f"; {hidden:,} of {cells:,} cells hidden by the mask (grey)" if hidden else ""
    outlined = f" The row of query {spoken(labels[highlight])} is outlined." if highlight is not None else ""
    return f"{head}, {plural(size, 'position')}; {ends}{masked}.{outlined}"


def _color_scale(scheme: str, domain: tuple[float, float], symlog: float | None) -> alt.Scale:
    """A heatmap's colour scale: "redblue" reversed (blue < 0 < red) or a sequential scheme, symmetric-log
    with constant ``symlog`` if one is given."""
    diverging = scheme == "redblue"
    if symlog is not None:
        return alt.Scale(
            type="symlog", constant=symlog, scheme=scheme, reverse=diverging, domain=list(domain)
        )
    return alt.Scale(scheme=scheme, reverse=diverging, domain=list(domain))


def _position_axes(names: str, count: int, compact: bool, row: int | None) -> tuple[alt.X, alt.Y]:
    """The key (x) and query (y) encodings over ``count`` positions, labelled by ``names`` (a Vega array
    literal); ``compact`` and ``row`` as in ``attention_heatmap``."""
    positions = list(range(count))
    # Cells, outline, axes and legend out of the accessibility tree (a node per cell and token label):
    # the description says what the map shows in one sentence.
    # Not flush (Streamlit's theme flushes every axis): a band's first label would leave its row's middle.
    axis = {
        "labelExpr": f"{names}[datum.value]",
        "labelOverlap": row is None,
        "labelFlush": False,
        "labelLimit": 90,
        "aria": False,
    }
    if row is not None:  # a slide's map: the theme's ~22 px between labels and plot goes to the rows
        axis["labelPadding"] = 6
    x_title, y_title = (None, None) if compact else ("key j", "query i")
    # Upright, every key's label needs a column only as wide as its line is tall.
    angle = -50 if row is None else -90
    x = alt.X(
        "j:O", title=x_title, scale=alt.Scale(domain=positions), axis=alt.Axis(labelAngle=angle, **axis)
    )
    y = alt.Y("i:O", title=y_title, scale=alt.Scale(domain=positions), axis=alt.Axis(**axis))
    return x, y


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
    row: int | None = None,
    description: str | None = None,
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
        row: px a position takes: the plot as tall as its positions need, each labelled on both axes
            (a slide's maps); None: ``height`` px, and Vega leaves out a label that would overlap another.
        description: what a screen reader says for the chart (``heatmap_description``, or the page's
            sentence on it); the cells and the outline are left out of the accessibility tree.
    """
    names = json.dumps(labels)  # a literal array in Vega's expression language: label = names[i]
    scale = _color_scale(scheme, domain, symlog)
    x, y = _position_axes(names, len(labels), compact, row)
    base = alt.Chart(frame).transform_calculate(query=f"{names}[datum.i]", key=f"{names}[datum.j]")
    cells = base.mark_rect(aria=False).encode(
        x=x,
        y=y,
        color=alt.Color("v:Q", title=legend, scale=scale, legend=None if compact else alt.Legend(aria=False)),
        tooltip=[
            alt.Tooltip("query:N"),
            alt.Tooltip("key:N"),
            alt.Tooltip("v:Q", title=legend, format=".4f"),
        ],
    )
    layers = [cells]
    if highlight is not None:
        outline = base.transform_filter(alt.datum.i == highlight).mark_rect(
            filled=False, stroke=HIGHLIGHT, strokeWidth=2, aria=False
        )
        layers.append(outline.encode(x=x, y=y))
    if accent is not None:
        layers.append(accent_bar(accent))
    tall = height if row is None else alt.Step(row)
    chart = alt.layer(*layers, title=title if accent is None else accent_title(title), height=tall)
    return described(chart, description).configure_view(fill=MASKED)


def query_row_frame(m, labels: list[str], query: int) -> pd.DataFrame:
    """One query's row of an ``AttentionMap``: each key's place j, label, score and weight, and whether
    the mask hides it (a hidden key's score is left out: the mask drops it before the softmax)."""
    visible = m.mask[query].tolist()
    scores = (m.content + m.position)[query].tolist()
    return pd.DataFrame(
        {
            "j": range(len(labels)),
            "key": labels,
            "score": [s if v else None for s, v in zip(scores, visible, strict=True)],
            "weight": [
                float(w) if v else 0.0 for w, v in zip(m.weights[query].tolist(), visible, strict=True)
            ],
            "seen": ["sees it" if v else "hidden by the mask" for v in visible],
        }
    )


def query_row_sentences(frame: pd.DataFrame, query: str) -> tuple[str, str]:
    """What the bridge's two charts show, from a ``query_row_frame``: the highest and lowest score, the
    largest weight, and the keys the mask hides (``query``: the query's axis label)."""
    seen = frame[frame["seen"] == "sees it"]
    hidden = len(frame) - len(seen)
    masked = f" The causal mask hides {hidden} of the {len(frame)} keys: no score, weight 0." * bool(hidden)
    top, bottom = seen.loc[seen["score"].idxmax()], seen.loc[seen["score"].idxmin()]
    heavy = seen.loc[seen["weight"].idxmax()]
    q = spoken(query)
    score = (
        f"Scores q·k/√dh of query {q} for each key j: highest {figure(top['score'])} for key "
        f"{spoken(top['key'])}, lowest {figure(bottom['score'])} for key {spoken(bottom['key'])}.{masked}"
    )
    weight = (
        f"Weights after the softmax of query {q}: positive, adding up to 1; the largest, "
        f"{heavy['weight']:.2f}, goes to key {spoken(heavy['key'])}.{masked}"
    )
    return score, weight


def query_row_charts(frame: pd.DataFrame, query: str, row: int = 28) -> tuple[alt.Chart, alt.LayerChart]:
    """The bridge's picture, two charts side by side: one query's scores, then its weights after the
    softmax, key by key (``query``: the query's axis label, for what a screen reader says of them)."""
    said = query_row_sentences(frame, query)
    return query_scores_chart(frame, said[0], row), query_weights_chart(frame, said[1], row)


# Keys in their order in the sentence (the frame's j), so the spec is the same for any sentence.
_KEYS = alt.Axis(labelOverlap=False, labelFlush=False)  # flush, the first key's label left its bar
_IN_ORDER = alt.EncodingSortField(field="j", op="min", order="ascending")
_SEEN = alt.Color(
    "seen:N",
    title=None,
    scale=alt.Scale(domain=["sees it", "hidden by the mask"], range=["#1d4ed8", MASKED]),
    legend=alt.Legend(orient="bottom"),
)


def query_scores_chart(frame: pd.DataFrame, description: str, row: int = 28) -> alt.Chart:
    """One query's scores, key by key (``row``: px a key takes, so the plot is as tall as its keys need
    and their labels never overprint one another, on a slide too)."""
    score = (
        alt.Chart(frame, title="score q·k/√dh", height=alt.Step(row))
        .mark_bar()
        .encode(
            y=alt.Y("key:N", sort=_IN_ORDER, title="key j", axis=_KEYS),
            x=alt.X("score:Q", title="score"),
            color=_SEEN,
            tooltip=["key", alt.Tooltip("score:Q", format=".4f")],
        )
    )
    return described(score, description)


def query_weights_chart(frame: pd.DataFrame, description: str, row: int = 28) -> alt.LayerChart:
    """One query's weights after the softmax, key by key, each written beside its bar."""
    weight = alt.Chart(frame, title="weight after the softmax", height=alt.Step(row)).encode(
        y=alt.Y("key:N", sort=_IN_ORDER, title=None, axis=_KEYS),
        x=alt.X("weight:Q", title="weight (the row adds up to 1)", scale=alt.Scale(domain=[0, 1])),
    )
    bars = weight.mark_bar().encode(color=_SEEN, tooltip=["key", alt.Tooltip("weight:Q", format=".4f")])
    text = (
        weight.mark_text(align="left", dx=4, aria=False)
        .encode(text=alt.Text("label:N"))
        .transform_calculate(label="datum.seen == 'sees it' ? format(datum.weight, '.2f') : 'hidden'")
    )
    return described(alt.layer(bars, text), description)
