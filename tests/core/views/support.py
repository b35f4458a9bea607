"""What the browser reads of a chart the app sends (``ui.charts.draw``): its spec and its datasets' rows."""

from __future__ import annotations

import json
import re

import pyarrow as pa
from streamlit import dataframe_util

from core.views.browser_spec import browser_spec
from core.views.chart_specs import unvalidated

_READS = re.compile(r"""\{"expr": "data\('(\w+)'\)\[0\] \? data\('\w+'\)\[0\]\[\\"(.*?)\\"\] : 0"\}""")


def sent(chart) -> dict:
    """What the app sends for ``chart`` (``core.views.browser_spec``), read back as one spec: its datasets
    as the Arrow bytes Streamlit sends, each number the browser reads from the rows written in (and its
    column dropped), and its sentence as its description."""
    drawn = browser_spec(unvalidated(chart))
    tables = {name: pa.ipc.open_stream(data).read_all() for name, data in drawn.spec["datasets"].items()}
    text = json.dumps({k: v for k, v in drawn.spec.items() if k != "datasets"})
    read = {(name, column) for name, column in _READS.findall(text)}
    text = _READS.sub(lambda m: json.dumps(tables[m.group(1)].column(m.group(2))[0].as_py()), text)
    for name, column in read:
        tables[name] = tables[name].drop_columns([column])
    spec = json.loads(text)
    if drawn.said is not None:
        spec["description"] = drawn.said
    else:
        del spec["description"]
    spec["datasets"] = {n: dataframe_util.convert_arrow_table_to_arrow_bytes(t) for n, t in tables.items()}
    return spec


def rows_of(spec: dict) -> tuple[dict, dict]:
    """``spec`` with each dataset named by its place among them, and those datasets' rows: what the browser
    reads, whichever Arrow bytes carry it (pandas' conversion adds its own metadata, core.views.chart_specs
    sends numeric frames as plain Arrow tables)."""
    datasets = spec["datasets"]
    tables = {name: pa.ipc.open_stream(data).read_all().to_pylist() for name, data in datasets.items()}
    order = sorted(tables, key=lambda name: json.dumps(tables[name]))
    text = json.dumps({key: value for key, value in spec.items() if key != "datasets"})
    for k, name in enumerate(order):
        text = text.replace(name, f"dataset-{k}")
    return json.loads(text), {f"dataset-{k}": tables[name] for k, name in enumerate(order)}
