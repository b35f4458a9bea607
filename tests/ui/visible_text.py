"""A page's words as a student reads them, in reading order, from an AppTest of it.

``reading(at)`` returns the main area's text as one stream, and a stream of its own for each closed
expander and each tab after the first (what is before it, then what it holds): a student reads those
only when they open them. Markdown, captions, notes, titles, metrics (label and value), widget labels,
page links, tables (headers, row labels and text cells) and the titles a chart draws; not tooltips,
code, token chips or user text.
"""

from __future__ import annotations

import json

from streamlit.testing.v1 import element_tree as et

from core.views.glossary import first_undefined
from ui.navigation import PAGES

_TEXT = (et.Markdown, et.Title, et.Header, et.Subheader, et.Caption, et.AlertBase)
_LABELLED = (et.Button, et.Selectbox, et.NumberInput, et.Toggle, et.Radio, et.SelectSlider, et.Checkbox)


def _chart_titles(spec: dict | list) -> list[str]:
    """Every title a Vega-Lite spec draws (the chart's, its axes', its legends')."""
    found = []
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "title" and isinstance(value, str):
                found.append(value)
            elif key == "title" and isinstance(value, dict) and isinstance(value.get("text"), str):
                found.append(value["text"])
            elif key not in ("data", "datasets"):
                found += _chart_titles(value)
    elif isinstance(spec, list):
        for value in spec:
            found += _chart_titles(value)
    return found


def _words(node: et.Node) -> list[str]:
    """The words one element shows (a chart's sentence for a screen reader is not drawn)."""
    if isinstance(node, et.Markdown) and node.value.startswith('<p class="chart-said">'):
        return []
    if isinstance(node, _TEXT):
        return [node.value]
    if isinstance(node, et.Metric):
        return [node.label, node.value]
    if isinstance(node, _LABELLED):
        return [node.label]
    if isinstance(node, et.PageLink):
        return [node.proto.label]
    if isinstance(node, et.Table):
        frame = node.value
        cells = [str(v) for v in frame.to_numpy().ravel() if isinstance(v, str)]
        return [" ".join(map(str, frame.columns)), " ".join(map(str, frame.index)), *cells]
    if getattr(node, "type", None) == "vega_lite_chart":
        return _chart_titles(json.loads(node.proto.spec))
    return []


def reading(at) -> list[str]:
    """The main area's text in reading order, then one stream per closed expander or later tab."""
    streams: list[str] = []

    def walk(node: et.Node, before: list[str]) -> list[str]:
        children = list(getattr(node, "children", {}).values())
        for k, child in enumerate(children):
            closed = isinstance(child, et.Expander) and not child.proto.expanded
            later_tab = isinstance(child, et.Tab) and k > 0
            if isinstance(child, et.Expander | et.Tab):
                # An expander's label names what it explains inside: its words are defined there.
                label = [child.label] if isinstance(child, et.Tab) else []
                if closed or later_tab:
                    streams.append("\n".join(walk(child, [*before, *label])))
                    before = [*before, *label]
                    continue
                before = walk(child, [*before, *label])
            elif isinstance(child, et.Block):
                before = walk(child, before)
            else:
                before = [*before, *_words(child)]
        return before

    main = "\n".join(walk(at.main, []))
    return [main, *streams]


PAGE_NAMES = tuple(stop.title for stop in PAGES)  # a page's name is a name, not a use of its words


def undefined_words(at) -> list[str]:
    """Every word of the glossary that a page (an AppTest of it) uses before defining it, in any of its
    streams (``reading``), as "term: …the words around it…"."""
    return [
        f"{name}: …{words}…"
        for stream in reading(at)
        for name, words in first_undefined(stream, names=PAGE_NAMES)
    ]
