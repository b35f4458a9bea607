"""The Long context page's charts, as pure functions: a ``LongContextView`` in, ``alt.Chart`` out."""

from __future__ import annotations

import math

import altair as alt
import pandas as pd
import torch

from core.positional.long_context import PLAIN, REGIMES, STILL, LongContextView
from core.views.charts import LINE_KEY
from core.views.colors import GREY, NEXT_FAMILY_COLOR, SERIES_COLORS, SERIES_DASHES, SERIES_SHAPES
from core.views.describe import described, figure, lines_description

PAIR = "pair i"
WAVELENGTH = "positions per full turn (2π/θ)"
SLOWDOWN = "slowed by (θ trained / θ scaled)"
REGIME = "what scaling did"
DISTANCE = "distance r (positions)"
SCORE = "score from position alone"
# A regime's colour and point shape (a pair that never turns has no point: grey)
REGIME_COLORS = (*SERIES_COLORS[:5], GREY)
REGIME_SHAPES = (*SERIES_SHAPES[:5], "circle")
PLAIN_STYLE = (GREY, (2, 3))  # plain RoPE: grey, dotted, as in the wavelength chart
THIS_STYLE = (SERIES_COLORS[1], (1, 0))  # this config: solid (and thicker)
# Line widths (px): a dotted line as thin as the others reads as faint, so plain RoPE's is wider
PLAIN_WIDTH, LINE_WIDTH, THIS_WIDTH = 2.5, 1.8, 3.0
THIS_POINT = NEXT_FAMILY_COLOR  # this config on the attention factor's curves: black, as no line is
# Every other RoPE of the score chart: the series' other colours and dashes
OTHER_STYLES = tuple(
    zip(
        [c for c in SERIES_COLORS if c not in (GREY, THIS_STYLE[0])],
        [d for d in SERIES_DASHES if d not in (PLAIN_STYLE[1], THIS_STYLE[1])],
        strict=True,
    )
)


def _regime_scale(frame: pd.DataFrame, values: tuple[str, ...] = REGIME_COLORS) -> alt.Scale:
    """Each regime's own colour (or shape: ``values``), for the regimes ``frame`` has (so the legend
    lists only those)."""
    shown = [(r, c) for r, c in zip(REGIMES, values, strict=True) if r in set(frame[REGIME])]
    return alt.Scale(domain=[r for r, _ in shown], range=[c for _, c in shown])


def _legend(side: bool, columns: int = 2) -> alt.Legend:
    """A legend below the plot (the plot keeps the width on a phone), or at its right (``side``: a
    projector, where height is short)."""
    if side:
        return alt.Legend(orient="right", labelLimit=260)
    return alt.Legend(orient="bottom", direction="horizontal", columns=columns, labelLimit=260)


def _height(plot: int, entries: int, side: bool, columns: int = 2) -> int:
    """The chart's height for a plot of ``plot`` px: Streamlit fits title, plot and a legend below it
    into the height, so a legend below adds its rows."""
    return plot if side else plot + 22 * -(-entries // columns) + 44


# What a chart with a line key draws besides its plot (px): a key's entry is as tall as its 40-px line
TITLE, SUBTITLE, X_AXIS, LEGEND_TITLE, LEGEND_ROW = 30, 18, 50, 26, 44


def line_chart_height(
    plot: int, entries: int, side: bool = False, columns: int = 2, subtitle: bool = False
) -> int:
    """The height of a chart whose key shows each line's dash (``LINE_KEY``) for a plot of ``plot`` px:
    Streamlit fits title, axis, key and plot into it, so the plot keeps its size only if they are
    counted (``side``: a projector's key at the right, where the height is the plot's alone)."""
    if side:
        return plot
    rows = -(-entries // columns)
    return plot + TITLE + SUBTITLE * subtitle + X_AXIS + LEGEND_TITLE + LEGEND_ROW * rows


# A long name on two lines, split at its first space: two columns of keys then fit a phone's width
TWO_LINES = (
    "length(datum.label) > 14 && indexof(datum.label, ' ') > 0 ? [substring(datum.label, 0, "
    "indexof(datum.label, ' ')), substring(datum.label, indexof(datum.label, ' ') + 1)] : datum.label"
)


def line_styles(field: str, names: list[str], plain: str, side: bool, this: str | None = None) -> dict:
    """The colour, dash and width encodings of lines named by ``field`` (``names`` in key order): plain
    RoPE grey, dotted and wider, ``this`` config solid and thickest, the others the series' colours and
    dashes; one key for colour and dash, below the plot (``side``: at its right)."""
    others = iter(OTHER_STYLES)
    styles = {n: PLAIN_STYLE if n == plain else THIS_STYLE if n == this else next(others) for n in names}
    widths = [PLAIN_WIDTH if n == plain else THIS_WIDTH if n == this else LINE_WIDTH for n in names]
    legend = alt.Legend(**_legend(side).to_dict(), **LINE_KEY, **({} if side else {"labelExpr": TWO_LINES}))

    def scale(values: list) -> alt.Scale:
        return alt.Scale(domain=names, range=values)

    return {
        "color": alt.Color(
            f"{field}:N", sort=names, legend=legend, scale=scale([c for c, _ in styles.values()])
        ),
        "strokeDash": alt.StrokeDash(
            f"{field}:N", sort=names, legend=legend, scale=scale([list(d) for _, d in styles.values()])
        ),
        "strokeWidth": alt.StrokeWidth(f"{field}:N", sort=names, legend=None, scale=scale(widths)),
    }


def trained_rule(at: float, label: str, field: str) -> alt.LayerChart:
    """A dashed vertical rule at the trained length, labelled at its top (left out of the accessibility
    tree: the chart's description names it)."""
    base = alt.Chart(pd.DataFrame({field: [at], "label": [label]})).encode(x=f"{field}:Q")
    rule = base.mark_rule(strokeDash=[6, 4], color="#374151", aria=False)
    text = base.mark_text(align="left", dx=4, dy=-6, color="#111827", aria=False)
    return rule + text.encode(text="label:N", y=alt.value(10))


def pair_frame(view: LongContextView) -> pd.DataFrame:
    """One row per rotated pair: its plain and scaled wavelength, the slow-down and its regime.

    Pairs that do not rotate (θ = 0) have no wavelength and are left out.
    """
    plain, scaled = view.plain.double(), view.scaled.double()  # [n] each
    frame = pd.DataFrame(
        {
            PAIR: range(len(plain)),
            "plain RoPE": (2 * math.pi / plain).numpy(),
            "scaled": (2 * math.pi / scaled).numpy(),
            SLOWDOWN: (plain / scaled).numpy(),
            REGIME: view.regimes,
        }
    )
    return frame[frame[REGIME] != STILL].reset_index(drop=True)


def _rules(lengths: dict[str, float], field: str, scale: alt.Scale) -> alt.LayerChart:
    """Dashed horizontal rules at ``lengths`` (label -> value) on the y ``scale``, labelled at the left
    (left out of the accessibility tree: a chart's description names them)."""
    frame = pd.DataFrame({field: list(lengths.values()), "label": list(lengths)})
    base = alt.Chart(frame).encode(y=alt.Y(f"{field}:Q", scale=scale))
    rule = base.mark_rule(strokeDash=[6, 4], color="#374151", aria=False)
    text = base.mark_text(align="left", dx=4, dy=-6, color="#111827", aria=False).encode(
        text="label:N", x=alt.value(0)
    )
    return rule + text


def pairs_description(frame: pd.DataFrame, original: int, extended: int, finding: str) -> str:
    """What ``wavelength_chart`` shows, from a ``pair_frame``: the wavelengths' range before and after
    scaling, the lengths marked, then ``finding`` (the page's sentence on the pairs' regimes)."""
    marked = f"trained L = {original:,}" + (f" and L' = {extended:,}" if extended != original else "")
    return (
        f"Positions per full turn of each {PAIR}, {figure(frame[PAIR].min())} to "
        f"{figure(frame[PAIR].max())}, on a log scale: trained from {figure(frame['plain RoPE'].min())} to "
        f"{figure(frame['plain RoPE'].max())}, scaled from {figure(frame['scaled'].min())} to "
        f"{figure(frame['scaled'].max())}; dashed lines at {marked}. {finding}"
    )


def _wavelength_axis(frame: pd.DataFrame, extended: int) -> tuple[alt.Scale, alt.Axis]:
    """The wavelengths' log scale, from the shortest trained one to the longest scaled one or L' (with
    room at both ends), and its axis with one grid line a decade."""
    ends = [float(frame["plain RoPE"].min()), float(frame["scaled"].max()), float(extended)]
    y_scale = alt.Scale(type="log", domain=[min(ends) / 1.5, max(ends) * 1.5], nice=False)
    decades = [
        10.0**k
        for k in range(math.ceil(math.log10(min(ends) / 1.5)), math.floor(math.log10(max(ends) * 1.5)) + 1)
    ]
    return y_scale, alt.Axis(values=decades, format=",")


def wavelength_chart(
    frame: pd.DataFrame,
    original: int,
    extended: int,
    height: int = 280,
    side: bool = False,
    description: str | None = None,
) -> alt.LayerChart:
    """Each pair's wavelength before (grey line) and after scaling (points by regime), log scale, with the
    trained length L and the extended L' as rules: a pair below L turns whole circles within L.

    ``description``: what a screen reader says for it (``pairs_description``).
    """
    y_scale, y_axis = _wavelength_axis(frame, extended)
    entries = frame[REGIME].nunique()
    columns = 1 if entries <= 3 else 2  # two long names side by side are cut off on a phone
    plain = (
        alt.Chart(frame)
        .mark_line(color=PLAIN_STYLE[0], strokeDash=list(PLAIN_STYLE[1]), strokeWidth=PLAIN_WIDTH)
        .encode(
            x=alt.X(f"{PAIR}:Q", title=PAIR),
            y=alt.Y("plain RoPE:Q", title=WAVELENGTH, scale=y_scale, axis=y_axis),
        )
    )
    legend = _legend(side, columns)
    scaled = (
        alt.Chart(frame)
        .mark_point(size=36, opacity=0.9, filled=True)
        .encode(
            x=f"{PAIR}:Q",
            y=alt.Y("scaled:Q", scale=y_scale),
            color=alt.Color(f"{REGIME}:N", title=REGIME, scale=_regime_scale(frame), legend=legend),
            shape=alt.Shape(
                f"{REGIME}:N", title=REGIME, scale=_regime_scale(frame, REGIME_SHAPES), legend=legend
            ),
            tooltip=[
                alt.Tooltip(f"{PAIR}:Q"),
                alt.Tooltip("plain RoPE:Q", title="positions per turn, trained", format=",.1f"),
                alt.Tooltip("scaled:Q", title="positions per turn, scaled", format=",.1f"),
                alt.Tooltip(f"{SLOWDOWN}:Q", format=".4f"),
                alt.Tooltip(f"{REGIME}:N"),
            ],
        )
    )
    lengths = {f"trained L = {original:,}": original}
    if extended != original:
        lengths[f"L' = {extended:,}"] = extended
    rules = _rules(lengths, "scaled", y_scale)
    # A phone needs the key on a line of its own; a projector's short chart, one line of title
    key = "trained (dotted), scaled (dots)"
    title = (
        alt.Title(f"Positions per full turn: {key}")
        if side
        else alt.Title("Positions per full turn", subtitle=key)
    )
    height = _height(height, entries, side, columns)
    return described(alt.layer(plain, scaled, rules, title=title, height=height), description)


def slowdown_description(frame: pd.DataFrame, factor: float, findings: list[str]) -> str:
    """What ``slowdown_chart`` shows, from a ``pair_frame``: the slow-downs from the first pair to the
    last, then ``findings`` (the page's sentences on which pairs the method picks)."""
    course = lines_description("How much each pair is slowed down", frame, PAIR, SLOWDOWN)
    marked = "1 (kept)" + (f" and s = {factor:g}" if factor != 1 else "")
    return " ".join([course, f"Dashed lines at {marked}.", *findings])


def slowdown_chart(
    frame: pd.DataFrame, factor: float, height: int = 280, description: str | None = None
) -> alt.LayerChart:
    """How much scaling slows each pair, θ_plain / θ_scaled (log scale): 1 kept, s interpolated.

    No legend: it sits beside ``wavelength_chart``, whose legend has the same colours. ``description``:
    what a screen reader says for it (``slowdown_description``).
    """
    ends = [float(frame[SLOWDOWN].min()), float(frame[SLOWDOWN].max()), 1.0, factor]
    y_scale = alt.Scale(type="log", domain=[min(ends) / 1.2, max(ends) * 1.2], nice=False)
    line = alt.Chart(frame).mark_line(color="#d1d5db").encode(x=alt.X(f"{PAIR}:Q", title=PAIR))
    line = line.encode(y=alt.Y(f"{SLOWDOWN}:Q", title="slowed by", scale=y_scale))  # longer clips the title
    points = (
        alt.Chart(frame)
        .mark_point(size=36, opacity=0.9, filled=True)
        .encode(
            x=f"{PAIR}:Q",
            y=alt.Y(f"{SLOWDOWN}:Q", scale=y_scale),
            color=alt.Color(f"{REGIME}:N", scale=_regime_scale(frame), legend=None),
            shape=alt.Shape(f"{REGIME}:N", scale=_regime_scale(frame, REGIME_SHAPES), legend=None),
            tooltip=[alt.Tooltip(f"{PAIR}:Q"), alt.Tooltip(f"{SLOWDOWN}:Q", format=".4f"), f"{REGIME}:N"],
        )
    )
    lengths = {"1: kept": 1.0, f"s = {factor:g}": factor} if factor != 1 else {"1: kept": 1.0}
    title = alt.Title("How much each pair is slowed down")
    chart = alt.layer(line, points, _rules(lengths, SLOWDOWN, y_scale), title=title, height=height)
    return described(chart, description)


def score_frame(view: LongContextView) -> pd.DataFrame:
    """Long form: one row per (curve, distance) of the position-only score."""
    r = view.distances.numpy()
    return pd.concat(
        [pd.DataFrame({DISTANCE: r, SCORE: y.numpy(), "RoPE": name}) for name, y in view.scores.items()],
        ignore_index=True,
    )


SCORE_TITLE = "What position alone does to a score, out to L'"


def score_description(frame: pd.DataFrame, original: int) -> str:
    """What ``score_chart`` shows, from a ``score_frame``: each RoPE's score from distance 1 to L', and
    the trained length marked."""
    course = lines_description(SCORE_TITLE, frame, DISTANCE, SCORE, "RoPE")
    return f"{course} A dashed line marks the trained length L = {original:,}."


def score_chart(
    frame: pd.DataFrame,
    this: str,
    original: int,
    height: int = 300,
    side: bool = False,
    description: str | None = None,
) -> alt.LayerChart:
    """The position-only score against distance (log x from 1 to L'), one line per RoPE, this config's
    drawn thicker, with the trained length L as a rule (``description``: ``score_description``)."""
    names = list(dict.fromkeys(frame["RoPE"]))
    lines = (
        alt.Chart(frame)
        .mark_line()
        .encode(
            x=alt.X(
                f"{DISTANCE}:Q",
                title=DISTANCE,
                scale=alt.Scale(type="log", nice=False, domain=[1, float(frame[DISTANCE].max())]),
            ),
            y=alt.Y(f"{SCORE}:Q", title=SCORE),
            tooltip=[
                "RoPE:N",
                alt.Tooltip(f"{DISTANCE}:Q", format=","),
                alt.Tooltip(f"{SCORE}:Q", format=".4f"),
            ],
            **line_styles("RoPE", names, PLAIN, side, this),
        )
    )
    marks = trained_rule(original, f"trained L = {original:,}", DISTANCE)
    title = alt.Title(SCORE_TITLE)
    chart = alt.layer(lines, marks, title=title, height=line_chart_height(height, len(names), side))
    return described(chart, description)


def attention_frame(curves: dict[str, torch.Tensor], factors: torch.Tensor) -> pd.DataFrame:
    """Long form: the attention factor against s, one curve per method."""
    s = factors.double().numpy()
    return pd.concat(
        [
            pd.DataFrame({"factor s": s, "attention factor": y.numpy(), "method": n})
            for n, y in curves.items()
        ],
        ignore_index=True,
    )


def this_config(factor: float, value: float) -> str:
    """The sentence under ``attention_chart``: where its black dot is."""
    return f"The black dot is this config: s = {factor:g}, attention factor {value:.4f}."


def attention_description(frame: pd.DataFrame, factor: float, value: float) -> str:
    """What ``attention_chart`` shows, from an ``attention_frame``: each method's factor against s, and
    this config's point."""
    course = lines_description("The attention factor", frame, "factor s", "attention factor", "method")
    return f"{course} {this_config(factor, value)}"


def attention_chart(
    frame: pd.DataFrame,
    factor: float,
    value: float,
    height: int = 240,
    side: bool = False,
    description: str | None = None,
) -> alt.LayerChart:
    """The attention factor against s for each method (a colour and a dash each), and this config's
    (s, factor) as a black point.

    ``description``: what a screen reader says for it (``attention_description``).
    """
    legend = alt.Legend(**_legend(side, 1).to_dict(), **LINE_KEY)
    dashes = alt.Scale(range=[list(d) for d in SERIES_DASHES])
    lines = (
        alt.Chart(frame)
        .mark_line()
        .encode(
            x=alt.X("factor s:Q", scale=alt.Scale(type="log", nice=False)),
            y=alt.Y("attention factor:Q", scale=alt.Scale(zero=False)),
            color=alt.Color("method:N", sort=None, legend=legend, scale=alt.Scale(range=list(SERIES_COLORS))),
            strokeDash=alt.StrokeDash("method:N", sort=None, legend=legend, scale=dashes),
            tooltip=[
                "method:N",
                alt.Tooltip("factor s:Q", format=".2f"),
                alt.Tooltip("attention factor:Q", format=".4f"),
            ],
        )
    )
    here = pd.DataFrame({"factor s": [factor], "attention factor": [value], "label": ["this config"]})
    point = (
        alt.Chart(here)
        .mark_point(size=120, filled=True, opacity=1, color=THIS_POINT)
        .encode(
            x="factor s:Q", y="attention factor:Q", tooltip=["label:N", "factor s:Q", "attention factor:Q"]
        )
    )
    title = alt.Title("The attention factor", subtitle="against the scaling's factor s")  # fits a phone
    height = line_chart_height(height, frame["method"].nunique(), side, 1, subtitle=True)
    chart = alt.layer(lines, point, title=title, height=height)
    return described(chart, description)
