"""The charts a page draws as the browser gets them (``ui.charts.draw``): each one's spec with the numbers
it reads from its rows written in, its rows by dataset, and the sentence that follows it."""

from __future__ import annotations

import dataclasses
import html
import json
import re

import pandas as pd
from streamlit import dataframe_util
from streamlit.testing.v1 import element_tree as et

_READ = re.compile(r"""data\('(\w+)'\)\[0\] \? data\('\w+'\)\[0\]\[("(?:[^"\\]|\\.)*")\] : 0""")
_SAID = re.compile(r'^<p class="chart-said">(.*)</p>$', re.S)


@dataclasses.dataclass
class Drawn:
    spec: dict  # its expressions replaced by the numbers they read
    rows: dict[str, pd.DataFrame]
    said: str | None
    sent: tuple  # what reaches the browser: the spec's text and every dataset's bytes


def said_of(node) -> str | None:
    """The sentence a ``chart-said`` block holds, or None for any other element."""
    if isinstance(node, et.Markdown) and (found := _SAID.match(node.value)):
        return html.unescape(found.group(1))
    return None


def drawn(at) -> list[Drawn]:
    """Every chart of the page, in order (of every run's, for ``tests.ui.every_tab.EveryTab``)."""
    if hasattr(at, "runs"):
        return [d for run in at.runs for d in drawn(run)]
    found: list[Drawn] = []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) == "vega_lite_chart":
                found.append(_drawn(child.proto))
            elif (said := said_of(child)) is not None and found:
                found[-1].said = said
            else:
                walk(child)

    walk(at.main)
    return found


def _drawn(proto) -> Drawn:
    rows = {d.name: dataframe_util.convert_arrow_bytes_to_pandas_df(d.data.data) for d in proto.datasets}
    sent = (proto.spec, proto.data.data, tuple((d.name, d.data.data) for d in proto.datasets))
    return Drawn(_resolved(json.loads(proto.spec), rows), rows, None, sent)


def _resolved(node, rows: dict[str, pd.DataFrame]):
    if isinstance(node, dict):
        if set(node) == {"expr"} and (found := _READ.fullmatch(node["expr"])):
            value = rows[found.group(1)][json.loads(found.group(2))].iloc[0]
            return float(value)
        return {k: _resolved(v, rows) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolved(v, rows) for v in node]
    return node
