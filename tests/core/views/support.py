"""What the browser reads of a chart Streamlit sends: its spec and its datasets' rows."""

from __future__ import annotations

import json

import pyarrow as pa


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
