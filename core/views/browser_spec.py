"""A chart as the browser draws it in place: a Vega-Lite spec that stays the same when only its numbers
change, and its data apart.

The browser keeps a chart's Vega view, and only replaces its data, while the spec it is sent does not
change; any change to the spec builds the view again (compile, parse, draw). So ``browser_spec``:

- names the chart's datasets by their order (``rows``, ``rows_1``, …), not by a hash of their content;
- writes a number that a template takes from the data (``core.views.chart_specs``: a colour scale's
  ends, an axis's) as an expression that reads it from the chart's own rows, where Vega-Lite takes one
  (a scale's ends or constant; not an encoding's ``datum``, which leaves the chart empty); the number
  travels as a column of the data;
- moves the description, which is written from the numbers, out of the spec: the spec keeps a fixed name
  (the chart's title) and the sentence is shown beside the chart (``ui.charts.draw``).
"""

from __future__ import annotations

import dataclasses
import json
import threading
from contextlib import nullcontext

import altair as alt
import numpy as np
import pandas as pd
import pyarrow as pa

MAIN = "rows"  # the chart's own frame ("data_0", "data_1", … are Vega-Lite's names for derived data)
# Altair's active data transformer and theme are global to all threads; and a class opening one link
# draws the same charts in thirty threads at once: each is converted once, the others wait for it.
_LOCK = threading.RLock()
# Where Vega-Lite takes an expression for a number: a scale's ends or constant.
_SCALE_NUMBERS = frozenset({"domain", "domainMin", "domainMax", "domainMid", "constant"})


@dataclasses.dataclass(frozen=True)
class BrowserSpec:
    """``spec``: the Vega-Lite spec with its data under ``datasets`` (Arrow IPC bytes, as Streamlit sends
    them); the same text for every chart of a template whatever its numbers. ``said``: the chart's
    description, written from its numbers (None: it has none)."""

    spec: dict
    said: str | None


def browser_spec(chart: alt.TopLevelMixin) -> BrowserSpec:
    """``chart`` as the browser draws it in place (see the module): made once per chart, so a kept chart
    drawn again converts nothing."""
    text, datasets, said = _once(chart, "_sent", _sent)
    return BrowserSpec({**json.loads(text), "datasets": dict(datasets)}, said)


def _sent(chart: alt.TopLevelMixin) -> tuple[str, dict[str, bytes], str | None]:
    """``chart``'s spec (its text, without its data), its datasets as Arrow bytes and its sentence."""
    template = chart.__dict__.get("_template")
    base = _base(template if template is not None else chart)
    text, datasets, said = base.text, dict(base.datasets), base.said
    reals = chart.__dict__.get("_reals", {})
    if template is not None:
        datasets[MAIN] = _arrow_bytes(_with_columns(chart.__dict__["_frame"], base.columns, reals))
    for stand_in, real in reals.items():
        if stand_in == said:  # a live description
            said = real
        elif stand_in not in base.columns:  # written as it is: a string, or a number where no expression goes
            text = text.replace(json.dumps(stand_in), json.dumps(real))
    return text, datasets, None if said is None else str(said)


def _arrow_bytes(data) -> bytes:
    """A frame or Arrow table as the Arrow IPC stream Streamlit sends a chart's dataset in."""
    table = data if isinstance(data, pa.Table) else pa.Table.from_pandas(data)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


@dataclasses.dataclass(frozen=True)
class _Base:
    """What every copy of one chart (or template) shares: the spec's text (its fixed name as its
    description), its datasets by name, the stand-ins read from the data (by column), and its sentence
    (a template's stand-in for it)."""

    text: str
    datasets: dict
    columns: dict
    said: str | None


def _base(chart: alt.TopLevelMixin) -> _Base:
    """``chart``'s shared part, built once and kept on it."""
    return _once(chart, "_browser", _built)


def _once(chart: alt.TopLevelMixin, name: str, make):
    """``make(chart)``, made once and kept on ``chart`` as ``name``."""
    kept = chart.__dict__.get(name)
    if kept is None:
        with _LOCK:
            kept = chart.__dict__.get(name)
            if kept is None:
                kept = make(chart)
                object.__setattr__(chart, name, kept)
    return kept


def _built(chart: alt.TopLevelMixin) -> _Base:
    datasets: dict[str, object] = {}
    ids: dict[int, str] = {}

    def by_order(data, **_):
        name = ids.get(id(data))
        if name is None:
            name = ids[id(data)] = MAIN if not ids else f"{MAIN}_{len(ids)}"
            datasets[name] = data
        return {"name": name}

    alt.data_transformers.register("browser_spec", by_order)  # under _LOCK (``_once``)
    theme = alt.theme.enable("none") if alt.theme.active == "default" else nullcontext()
    with alt.data_transformers.enable("browser_spec"), theme:
        spec = chart.to_dict(validate=False, format="vega-lite")
    frame = chart.__dict__.get("_frame")
    if frame is not None and ids.get(id(frame)) != MAIN:
        raise ValueError("a template's own frame is not its first dataset")
    spec.pop("datasets", None)
    labels = chart.__dict__.get("_live_names", {})
    columns: dict = {}
    spec = _as_expressions(spec, labels, columns, in_scale=False)
    said = spec.pop("description", None)  # a template's: its stand-in, which each copy replaces
    spec["description"] = _name(spec)
    tables = {k: _arrow_bytes(as_arrow(v) if isinstance(v, pd.DataFrame) else v) for k, v in datasets.items()}
    return _Base(json.dumps(spec), tables, columns, said)


_NUMERIC = frozenset("biuf")  # numpy dtype kinds: bool, int, unsigned, float


def as_arrow(frame: pd.DataFrame) -> pd.DataFrame | pa.Table:
    """A frame of numeric columns on a plain row index as an Arrow table of the same columns (turned into
    Arrow bytes more cheaply than a pandas frame); any other frame as it is."""
    index = frame.index
    plain = isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1
    columns = dict(frame.items())  # not frame[name]: a new frame's first lookup hashes its columns
    numeric = all(isinstance(c.dtype, np.dtype) and c.dtype.kind in _NUMERIC for c in columns.values())
    if not plain or not numeric:
        return frame
    return pa.table({str(name): column.to_numpy() for name, column in columns.items()})


def _as_expressions(node, labels: dict, columns: dict, in_scale: bool, key: str | None = None):
    """``node`` with each number stand-in that sits where Vega-Lite takes an expression replaced by one
    that reads it from the chart's rows (its column recorded in ``columns``)."""
    if isinstance(node, dict):  # a scale's own numbers are its children's
        return {k: _as_expressions(v, labels, columns, key == "scale", k) for k, v in node.items()}
    if isinstance(node, list):
        return [_as_expressions(v, labels, columns, in_scale, key) for v in node]
    takes = in_scale and key in _SCALE_NUMBERS
    if isinstance(node, float) and node in labels and takes:
        column = columns[node] = labels[node]
        row = f"data('{MAIN}')[0]"
        return {"expr": f"{row} ? {row}[{json.dumps(column)}] : 0"}
    return node


def _with_columns(frame: pd.DataFrame, columns: dict, reals: dict) -> object:
    """The chart's frame, as Arrow where it can be, with a column for each number read from it: one
    value that every row points to (a byte a row), not the number again in each row."""
    table = as_arrow(frame)
    if not columns:
        return table
    if isinstance(table, pa.Table):
        for stand_in, column in columns.items():
            one = pa.DictionaryArray.from_arrays(
                pa.array([0] * table.num_rows, pa.int8()), pa.array([float(reals[stand_in])])
            )
            table = table.append_column(column, one)
        return table
    return table.assign(**{c: pd.Categorical([float(reals[s])] * len(table)) for s, c in columns.items()})


def _name(spec: dict) -> str:
    """A chart's fixed accessible name: its title (or its axes), and that its description follows."""
    title = _title(spec) or " against ".join(_axes(spec)) or "a chart"
    return f"Chart: {title}. What it shows is written just after it."


def _title(spec: dict) -> str:
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, list):
        title = " ".join(map(str, title))
    return str(title) if title else _in_parts(spec, _title, "")


def _axes(spec: dict) -> list[str]:
    """The titles (or fields) of the first encoding's y and x."""
    encoding = spec.get("encoding", {})
    found = [
        str(encoding[c].get("title") or encoding[c].get("field"))
        for c in ("y", "x")
        if isinstance(encoding.get(c), dict) and (encoding[c].get("title") or encoding[c].get("field"))
    ]
    return found or _in_parts(spec, _axes, [])


def _in_parts(spec: dict, read, none):
    """``read`` of the first subchart of a compound ``spec`` that gives something, else ``none``."""
    for part in ("layer", "hconcat", "vconcat", "concat"):
        for sub in spec.get(part, []):
            if found := read(sub):
                return found
    return none
