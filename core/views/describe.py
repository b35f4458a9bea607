"""A chart's finding in one sentence, read from its own data: what a screen reader says for the chart.

Vega-Lite's top-level ``description`` becomes the accessible name of the chart's root; where the page
writes sentences beside a chart, the chart takes those, and these build one for the others: what is on
the axes, the values' range and where its ends are, a curve's trend.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from core.views.units import plural


def figure(value: float) -> str:
    """A number as a description says it: whole numbers with separators, else three significant digits
    (never "-0")."""
    if value is None or not math.isfinite(value):
        return "none"
    if value == round(value) and abs(value) < 1e15:
        return f"{int(round(value)):,}"
    size = abs(value)
    text = (
        f"{value:,.0f}"
        if size >= 100
        else f"{value:.1f}"
        if size >= 10
        else f"{value:.2f}"
        if size >= 1
        else f"{value:.3g}"
    )
    return "0" if float(text.replace(",", "")) == 0 else text


def _span(values: pd.Series) -> str:
    low, high = values.min(), values.max()
    return figure(low) if low == high else f"{figure(low)} to {figure(high)}"


def grid_description(title: str, frame: pd.DataFrame, x: str, y: str, value: str = "value") -> str:
    """A heatmap's sentence: its rows and columns, and its values' range with the cells that hold the ends
    (cells without a value, NaN, counted apart)."""
    rows, cols = frame[y].nunique(), frame[x].nunique()
    shown = frame[frame[value].notna()]
    axes = (
        f"{y} {_span(frame[y])} down ({plural(rows, 'row')}), "
        f"{x} {_span(frame[x])} across ({plural(cols, 'column')})"
    )
    if not len(shown):
        return f"{title}: a heatmap of {axes}, with no values."
    low, high = shown.loc[shown[value].idxmin()], shown.loc[shown[value].idxmax()]
    at = f"{y} {figure(low[y])}, {x} {figure(low[x])}"
    ends = (
        f"every value {figure(low[value])}"
        if low[value] == high[value]
        else f"values from {figure(low[value])} ({at}) to {figure(high[value])} "
        f"({y} {figure(high[y])}, {x} {figure(high[x])})"
    )
    empty = len(frame) - len(shown)
    blank = f"; {plural(empty, 'cell')} without a value" if empty else ""
    return f"{title}: a heatmap of {axes}; {ends}{blank}."


def trend(xs: np.ndarray, ys: np.ndarray, x: str) -> str:
    """One curve's course: rises, falls or stays, from its first to its last value, and its extremes
    when it turns on the way."""
    keep = np.isfinite(ys)
    xs, ys = xs[keep], ys[keep]
    if not len(ys):
        return "has no values"
    first, last = f"{figure(ys[0])} at {x} {figure(xs[0])}", f"{figure(ys[-1])} at {x} {figure(xs[-1])}"
    steps = np.diff(ys)
    tol = 1e-9 * max(1.0, float(np.abs(ys).max()))
    if (np.abs(steps) <= tol).all():
        return f"stays at {figure(ys[0])}"
    if (steps >= -tol).all():
        return f"rises from {first} to {last}"
    if (steps <= tol).all():
        return f"falls from {first} to {last}"
    ends = (0, len(ys) - 1)  # an extreme at either end is said already
    turns = [
        f"{word} {figure(ys[k])} at {x} {figure(xs[k])}"
        for word, k in (("lowest", int(ys.argmin())), ("highest", int(ys.argmax())))
        if k not in ends
    ]
    return f"goes from {first} to {last}" + "".join(f", {turn}" for turn in turns)


def lines_description(title: str, frame: pd.DataFrame, x: str, y: str, color: str | None = None) -> str:
    """A line chart's sentence: its axes and each line's course (``trend``), in the legend's order."""
    xs, ys = frame[x].to_numpy(float), frame[y].to_numpy(float)  # in numpy: a chart's redraw pays it
    head = f"{title}: {y} against {x}, {_span(frame[x])}."

    def course(rows: np.ndarray) -> str:  # one line's points, in the order of x
        order = rows[np.argsort(xs[rows], kind="stable")]
        return trend(xs[order], ys[order], x)

    if not color:
        return f"{head} It {course(np.arange(len(frame)))}."
    names = frame[color].to_numpy(object)
    parts = [f"{name}: {course(np.flatnonzero(names == name))}." for name in dict.fromkeys(names)]
    return f"{head} {' '.join(parts)}"


def bars_description(title: str, frame: pd.DataFrame, x: str, y: str, listed: int = 12) -> str:
    """A bar chart's sentence: each bar's value (the first ``listed``), else the range and its ends."""
    pairs = [f"{x} {label}: {figure(v)}" for label, v in zip(frame[x], frame[y], strict=True)]
    if len(pairs) <= listed:
        return f"{title}: {'; '.join(pairs)}."
    low, high = frame.loc[frame[y].idxmin()], frame.loc[frame[y].idxmax()]
    return (
        f"{title}: {plural(len(frame), 'bar')}, {y} from {figure(low[y])} ({x} {low[x]}) to "
        f"{figure(high[y])} ({x} {high[x]})."
    )


def described(chart, description: str | None):
    """``chart`` with ``description`` as its top-level Vega-Lite ``description`` (None: as it is).

    Set on the top-level chart, not on a layer: only the top level's becomes the accessible name.
    """
    return chart if description is None else chart.properties(description=description)
