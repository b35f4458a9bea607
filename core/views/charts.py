"""Charts as pure functions: data in, ``alt.Chart`` out (no Streamlit).

Every chart takes data that has already been downsampled (see ``core.pipeline.sample_indices``):
a view stays far below 1 MB of chart data at any context length.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import altair as alt
import pandas as pd
import torch

from core.text.vocab import SweepPoint, table_parameters
from core.views.colors import SERIES_COLORS, SERIES_DASHES
from core.views.describe import bars_description, described, figure, grid_description, lines_description

# px: a method panel's title. Set in the chart's config, not on its title, so that a projector's larger
# type (ui.presenter.readable, which configures titles again) replaces it.
PANEL_TITLE = 14


# A legend entry's line long enough to show its dash pattern (Vega's symbol size is an area: 40 px long)
LINE_KEY = {"symbolType": "stroke", "symbolSize": 1600, "symbolStrokeWidth": 2.5}


ACCENT_WIDTH = 36  # px: an accent bar's length, a swatch rather than a line of the plot


def accent_title(title: str, **options) -> alt.Title:
    """A title over an ``accent_bar``: in the theme's dark text, at the chart's left (where the plot
    starts would cut a long title on a projector's narrow panels)."""
    return alt.Title(title, anchor="start", offset=4, **options)


def accent_bar(color: str) -> alt.Chart:
    """A short bar in ``color`` above the plot's top-left corner, under the title: a family's (or
    tensor's) colour beside a title in dark text, which stays readable where coloured text would fade."""
    return (
        alt.Chart(alt.Data(values=[{}]))
        .mark_rule(color=color, strokeWidth=6, aria=False)
        .encode(x=alt.value(0), x2=alt.value(ACCENT_WIDTH), y=alt.value(-9))
    )


def centred_domain(frame: pd.DataFrame) -> tuple[float, float]:
    """A diverging colour scale's ends for a grid frame's values: ±(largest |value|), ±1 when all are 0."""
    limit = float(frame["value"].abs().max()) or 1.0
    return (-limit, limit)


def grid_frame(
    values: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor, row_name: str, col_name: str
) -> pd.DataFrame:
    """Long-form frame of a [R, C] grid: one row per cell with its row, column and value."""
    r, c = torch.meshgrid(rows, cols, indexing="ij")  # [R, C] each
    return pd.DataFrame(
        {
            row_name: r.flatten().numpy(),
            col_name: c.flatten().numpy(),
            "value": values.flatten().double().numpy(),
        }
    )


def heatmap(
    frame: pd.DataFrame,
    x: str,
    y: str,
    title: str,
    height: int = 220,
    scheme: str = "redblue",
    domain: tuple[float, float] | None = None,
    accent: str | None = None,
    description: str | None = None,
    marked: tuple[int, ...] = (),
    legend: str = "value",
) -> alt.Chart | alt.LayerChart:
    """A heatmap of ``frame`` (columns x, y, value). Default: diverging, blue < 0 < red, centred on 0.

    ``accent``: a family's or tensor's colour (``core.views.colors``), as a bar above the plot.
    ``marked``: values of y whose rows are outlined in black (the followed token's).
    ``legend``: the colour legend's title (what a cell's value is).
    ``description``: what a screen reader says for it (default: its axes and its values' range); the
    cells are left out of the accessibility tree, so it reads that one sentence, not a node per cell.
    """
    if domain is None:
        domain = centred_domain(frame)
    if description is None:
        description = grid_description(title, frame, x, y)
    diverging = scheme == "redblue"
    # Cells, axes and legend out of the accessibility tree (a node per cell and tick label): the
    # description says the axes' and the values' ranges in one sentence.
    cells = (
        alt.Chart(frame, height=height)
        .mark_rect(aria=False)
        .encode(
            x=alt.X(f"{x}:O", title=x, axis=alt.Axis(labelOverlap=True, labelAngle=0, aria=False)),
            y=alt.Y(f"{y}:O", title=y, axis=alt.Axis(labelOverlap=True, aria=False)),
            color=alt.Color(
                "value:Q",
                title=legend,
                scale=alt.Scale(scheme=scheme, reverse=diverging, domain=list(domain)),
                legend=alt.Legend(aria=False),
            ),
            tooltip=[alt.Tooltip(f"{y}:O"), alt.Tooltip(f"{x}:O"), alt.Tooltip("value:Q", format=".4f")],
        )
    )
    if marked:
        outline = alt.Chart(pd.DataFrame({y: list(marked)})).mark_rect(
            fill=None, stroke="#111827", strokeWidth=3, aria=False
        )
        cells = alt.layer(cells, outline.encode(y=alt.Y(f"{y}:O")), height=height)
    if accent is None:
        return described(cells.properties(title=title), description)
    layered = alt.layer(cells, accent_bar(accent), title=accent_title(title), height=height)
    return described(layered, description)


def similarity_heatmap(
    frame: pd.DataFrame,
    title: str,
    height: int = 300,
    accent: str | None = None,
    description: str | None = None,
    draw: Callable[..., alt.TopLevelMixin] = heatmap,
):
    """A position × position cosine-similarity matrix (columns position i, position j, value), −1 … 1.

    ``draw``: what builds the chart, with ``heatmap``'s arguments (default: ``heatmap`` itself)."""
    return draw(
        frame,
        "position j",
        "position i",
        title,
        height,
        domain=(-1.0, 1.0),
        accent=accent,
        description=description,
    )


def log_domain(values: pd.Series, also: float | None = None) -> list[float]:
    """A log axis from the smallest to the largest value and ``also`` (Vega's "nice" pads to powers of 10)."""
    ends = [float(values.min()), float(values.max())] + ([float(also)] if also is not None else [])
    return [min(ends), max(ends)]


def line_description(
    frame: pd.DataFrame,
    x: str,
    y: str,
    title: str,
    color: str | None = None,
    rule_at: float | None = None,
    rule_label: str = "",
    rule_format: str | None = None,
) -> str:
    """What a screen reader says for a ``line_chart``: each line's course and the rule, from the data."""
    description = lines_description(title, frame, x, y, color)
    if rule_at is not None and rule_format:  # its label as drawn: "V = 50,257"
        description += f" A dashed line marks {rule_label}{figure(rule_at)}."
    elif rule_at is not None:
        named = f" ({rule_label.strip()})" if rule_label.strip() else ""
        description += f" A dashed line at {x} {figure(rule_at)}{named}."
    return description


def _series_encodings(
    color: str, colors: dict[str, str] | None, dashes: dict[str, tuple[int, ...]] | None
) -> dict[str, alt.Color | alt.StrokeDash]:
    """A line chart's colour and dash per series of ``color``, in one legend below the plot: as given,
    else ``SERIES_COLORS`` and ``SERIES_DASHES`` in the data's order."""
    colors_scale = (
        alt.Scale(domain=list(colors), range=list(colors.values()))
        if colors
        else alt.Scale(range=list(SERIES_COLORS))
    )
    dash_scale = (
        alt.Scale(domain=list(dashes), range=[list(d) for d in dashes.values()])
        if dashes
        else alt.Scale(range=[list(d) for d in SERIES_DASHES])
    )
    legend = alt.Legend(orient="bottom", direction="horizontal", columns=2, labelLimit=260, **LINE_KEY)
    return {
        "color": alt.Color(f"{color}:N", title=color, sort=None, legend=legend, scale=colors_scale),
        "strokeDash": alt.StrokeDash(f"{color}:N", title=color, sort=None, legend=legend, scale=dash_scale),
    }


def _rule_marks(x: str, rule_at: float, rule_label: str, rule_format: str | None) -> alt.LayerChart:
    """A dashed vertical rule at ``rule_at`` on ``x``, labelled ``rule_label`` (and ``rule_at`` in d3's
    ``rule_format``, written by the browser)."""
    field = f"datum[{json.dumps(x)}]"
    label = json.dumps(rule_label) + (f" + format({field}, {json.dumps(rule_format)})" if rule_format else "")
    # One inline row (not a frame of its own): rule_at is a number in the spec, its label computed from it
    base = alt.Chart(alt.Data(values=[{x: rule_at}])).transform_calculate(label=label).encode(x=f"{x}:Q")
    # The rule and its label out of the accessibility tree: the description says where it is
    return base.mark_rule(strokeDash=[6, 4], color="#6b7280", aria=False) + base.mark_text(
        align="left", dx=4, dy=-6, color="#374151", aria=False
    ).encode(text="label:N", y=alt.value(10))


def line_chart(
    frame: pd.DataFrame,
    x: str,
    y: str,
    title: str,
    color: str | None = None,
    symlog: bool = False,
    rule_at: float | None = None,
    rule_label: str = "",
    height: int = 300,
    log_y: bool = False,
    colors: dict[str, str] | None = None,
    log_x: bool = False,
    y_format: str = ".4f",
    x_domain: tuple[float, float] | None = None,
    rule_format: str | None = None,
    dashes: dict[str, tuple[int, ...]] | None = None,
    description: str | None = None,
) -> alt.Chart:
    """Lines of ``y`` against ``x`` (one per ``color`` value), with an optional vertical rule.

    ``colors``, ``dashes``: a colour and a dash per ``color`` value (e.g. each ``Family.color`` and
    ``Family.dash`` by label; default: ``SERIES_COLORS`` and ``SERIES_DASHES`` in the data's order), so
    that lines differ in more than colour; the legend shows both and sits below the plot, so the plot
    keeps the width on a phone. The rule at ``rule_at`` is labelled ``rule_label``, followed by
    ``rule_at`` in d3's ``rule_format`` if one is given (written by the browser). ``x_domain``: the log
    axis's ends (default: the data's). ``description``: what a screen reader says for the chart
    (default: ``line_description``).
    """
    if description is None:
        description = line_description(frame, x, y, title, color, rule_at, rule_label, rule_format)
    scale = alt.Scale(type="symlog") if symlog else alt.Scale(type="log") if log_y else alt.Scale(zero=False)
    encoding = {
        # every x here counts something
        "x": alt.X(
            f"{x}:Q",
            title=x,
            axis=alt.Axis(tickMinStep=1),
            scale=alt.Scale(type="log", nice=False, domain=list(x_domain or log_domain(frame[x])))
            if log_x
            else alt.Undefined,
        ),
        "y": alt.Y(f"{y}:Q", title=y, scale=scale),
        "tooltip": [alt.Tooltip(f"{x}:Q", format=","), alt.Tooltip(f"{y}:Q", format=y_format)],
    }
    if color:
        encoding |= _series_encodings(color, colors, dashes)
        encoding["tooltip"].insert(0, alt.Tooltip(f"{color}:N"))
    rows = -(-frame[color].nunique() // 2) if color else 0  # the legend below takes rows of two
    chart = (
        alt.Chart(frame, title=title, height=height + 22 * rows + (28 if rows else 0))
        .mark_line(point=len(frame) <= 64)
        .encode(**encoding)
    )
    if rule_at is None:
        return described(chart, description)
    return described(chart + _rule_marks(x, rule_at, rule_label, rule_format), description)


def bar_chart(
    frame: pd.DataFrame, x: str, y: str, title: str, height: int = 220, description: str | None = None
) -> alt.Chart:
    """Bars of ``y`` for each ``x`` (ordinal); ``description``: what a screen reader says (default: each
    bar's value)."""
    if description is None:
        description = bars_description(title, frame, x, y)
    chart = (
        alt.Chart(frame, title=title, height=height)
        .mark_bar()
        .encode(
            x=alt.X(f"{x}:O", title=x, axis=alt.Axis(labelOverlap=True, labelAngle=0)),
            y=alt.Y(f"{y}:Q", title=y),
            tooltip=[alt.Tooltip(f"{x}:O"), alt.Tooltip(f"{y}:Q", format=".4g")],
        )
    )
    return described(chart, description)


def scatter_chart(
    frame: pd.DataFrame, x: str, y: str, color: str, title: str, facet: str, description: str | None = None
) -> alt.Chart:
    """Points coloured by a quantitative ``color`` field, one small panel per ``facet`` value.

    ``description``: what a screen reader says (default: the panels and what their points show).
    """
    panels = list(dict.fromkeys(frame[facet]))  # in the frame's order
    if description is None:
        description = (
            f"{title}: {y} against {x}, coloured by {color} ({_span_text(frame[color])}), one panel per "
            f"{facet}: {', '.join(map(str, panels))}."
        )
    chart = (
        alt.Chart(frame, width=200, height=200)
        .mark_circle(size=45, aria=False)
        .encode(
            x=alt.X(f"{x}:Q", scale=alt.Scale(domain=[-1.05, 1.05])),
            y=alt.Y(f"{y}:Q", scale=alt.Scale(domain=[-1.05, 1.05])),
            color=alt.Color(f"{color}:Q", scale=alt.Scale(scheme="viridis")),
            tooltip=[alt.Tooltip(f"{facet}:N"), alt.Tooltip(f"{color}:Q")],
        )
        .facet(column=alt.Column(f"{facet}:N", title=None, sort=panels))
        .properties(title=title)
    )
    return described(chart, description)


def _span_text(values: pd.Series) -> str:
    return f"{figure(values.min())} to {figure(values.max())}"


def path_description(frame: pd.DataFrame, x: str, y: str, order: str, title: str) -> str:
    """What a screen reader says for a ``path_chart``: the points drawn and the plane's extent."""
    return (
        f"{title}: {len(frame):,} points of {order} {_span_text(frame[order])}, joined in order; {x} "
        f"{_span_text(frame[x])}, {y} {_span_text(frame[y])}."
    )


def path_chart(
    frame: pd.DataFrame,
    x: str,
    y: str,
    order: str,
    title: str,
    height: int = 360,
    description: str | None = None,
) -> alt.Chart:
    """Points joined in ``order`` (a path through the plane), coloured by ``order``.

    ``description``: what a screen reader says (default: the points drawn and the plane's extent); the
    points are left out of the accessibility tree (hundreds of them: the data table lists them).
    """
    if description is None:
        description = path_description(frame, x, y, order, title)
    base = alt.Chart(frame, title=title, height=height).encode(
        x=alt.X(f"{x}:Q", title=x),
        y=alt.Y(f"{y}:Q", title=y),
        order=alt.Order(f"{order}:Q"),
    )
    line = base.mark_line(color="#9ca3af", strokeWidth=1)
    points = base.mark_circle(size=28, aria=False).encode(
        color=alt.Color(f"{order}:Q", title=order, scale=alt.Scale(scheme="viridis")),
        tooltip=[
            alt.Tooltip(f"{order}:Q"),
            alt.Tooltip(f"{x}:Q", format=".3f"),
            alt.Tooltip(f"{y}:Q", format=".3f"),
        ],
    )
    return described(line + points, description)


def method_panel(
    frame: pd.DataFrame,
    x: str,
    y: str,
    title: str,
    color: str,
    rule_at: float | None = None,
    height: int = 170,
    x_domain: tuple[float, float] | None = None,
    note: str | None = None,
    y_domain: tuple[float, float] | None = None,
    description: str | None = None,
) -> alt.Chart:
    """One method's curve on its own linear axis, in its colour, under a bar of it (small multiples, one
    per method; the title in dark text).

    ``x_domain``, ``y_domain``: an axis's ends (default: the data's, made nice; a constant curve needs
    ``y_domain``, or its one tick reads "0.000000"); ``note``: a line under the title (e.g. why this
    panel's axis is shorter than its neighbours'); ``description``: what a screen reader says for the
    panel (its finding).
    """
    heading = accent_title(title) if note is None else accent_title(title, subtitle=note)
    scale = alt.Scale(domain=list(x_domain), nice=False) if x_domain is not None else alt.Undefined
    chart = (
        alt.Chart(frame, title=heading, height=height)
        .mark_line(color=color, strokeWidth=2.5, point=len(frame) <= 64)
        .encode(
            x=alt.X(f"{x}:Q", title=x, axis=alt.Axis(tickMinStep=1), scale=scale),
            y=alt.Y(
                f"{y}:Q",
                title=y,
                scale=alt.Scale(zero=False, nice=True)
                if y_domain is None
                else alt.Scale(domain=list(y_domain), nice=False),
            ),
            tooltip=[alt.Tooltip(f"{x}:Q"), alt.Tooltip(f"{y}:Q", format=".4f")],
        )
    )
    if rule_at is None:
        return described(chart + accent_bar(color), description).configure_title(fontSize=PANEL_TITLE)
    # The rule's x as a datum on one inline row (not a frame of its own): a number in the spec.
    rule = (
        alt.Chart(alt.Data(values=[{}]))
        .mark_rule(strokeDash=[6, 4], color="#6b7280", aria=False)
        .encode(x=alt.datum(rule_at))
    )
    return described(chart + rule + accent_bar(color), description).configure_title(fontSize=PANEL_TITLE)


def loss_frame(
    steps: list[int],
    train_loss: list[float],
    val_loss: list[float],
    unigram_val_loss: float,
    total_steps: int,
) -> pd.DataFrame:
    """Long-form loss curves: the training batch's and the validation loss at ``steps``, and the loss of
    guessing each token from its count alone (a flat line from step 0 to ``total_steps``); columns
    step, loss (cross-entropy in nats), curve."""
    return pd.concat(
        [
            pd.DataFrame({"step": steps, "loss": train_loss, "curve": "training batch"}),
            pd.DataFrame({"step": steps, "loss": val_loss, "curve": "validation"}),
            pd.DataFrame(
                {
                    "step": [0, total_steps],
                    "loss": [unigram_val_loss] * 2,
                    "curve": "guess from token counts (validation)",
                }
            ),
        ]
    )


def loss_chart(frame: pd.DataFrame, draw: Callable[..., alt.TopLevelMixin] = line_chart) -> alt.Chart:
    """Training and validation loss against step, with the guess from token counts (a ``loss_frame``).

    ``draw``: what builds each chart, with ``line_chart``'s arguments (default: ``line_chart`` itself)."""
    return draw(frame, "step", "loss", "Loss", color="curve", height=260)


def structure_chart(
    frame: pd.DataFrame, shown_step: int, draw: Callable[..., alt.TopLevelMixin] = line_chart
) -> alt.Chart:
    """The learned table's structure score (columns step, structure), the step shown marked.

    ``draw``: what builds each chart, with ``line_chart``'s arguments (default: ``line_chart`` itself)."""
    return draw(
        frame, "step", "structure", "Learned structure", height=300, rule_at=shown_step, rule_label="shown"
    )


def distance_chart(
    frame: pd.DataFrame,
    colors: dict[str, str] | None = None,
    dashes: dict[str, tuple[int, ...]] | None = None,
    draw: Callable[..., alt.TopLevelMixin] = line_chart,
) -> alt.Chart:
    """Mean cosine similarity against distance, one line per table (columns distance, mean cosine, table),
    each in its colour and dash (``line_chart``'s). ``draw``: what builds the chart, with ``line_chart``'s
    arguments (default: ``line_chart`` itself)."""
    title = "Similarity against distance"
    return draw(frame, "distance", "mean cosine", title, color="table", colors=colors, dashes=dashes)


V_AXIS = "vocab size V (log)"


def vocab_frame(points: list[SweepPoint], dim: int) -> pd.DataFrame:
    """A vocab sweep as a frame: per V, the text's tokens and the token table's parameters V × d."""
    return pd.DataFrame(
        {
            V_AXIS: [p.vocab_size for p in points],
            "tokens in the text": [p.num_tokens for p in points],
            "parameters V × d": [table_parameters(p.vocab_size, dim) for p in points],
        }
    )


def vocab_charts(
    frame: pd.DataFrame, vocab_size: int, draw: Callable[..., alt.TopLevelMixin] = line_chart
) -> tuple[alt.Chart, alt.Chart]:
    """Sequence length and token-table size against V on a log axis, ``vocab_size`` marked.

    ``frame``: columns ``V_AXIS``, tokens in the text, parameters V × d (a ``vocab_frame``). ``draw``:
    what builds each chart, with ``line_chart``'s arguments (default: ``line_chart`` itself).
    """
    mark = {
        "rule_at": vocab_size,
        "rule_label": "V = ",
        "rule_format": ",",
        "log_x": True,
        "x_domain": tuple(log_domain(frame[V_AXIS], vocab_size)),
        "y_format": ",",
    }
    return (
        draw(frame, V_AXIS, "tokens in the text", "Vocabulary size against sequence length", **mark),
        draw(frame, V_AXIS, "parameters V × d", "…and the token table's size", log_y=True, **mark),
    )
