"""A chart as the browser gets it: the same spec for new numbers, the numbers in its data."""

import json

import pandas as pd
import pyarrow as pa
import torch

from core.views.browser_spec import MAIN, browser_spec
from core.views.chart_specs import Templates
from core.views.charts import centred_domain, grid_frame, heatmap


def _grid(seed: int) -> pd.DataFrame:
    values = torch.randn(4, 6, generator=torch.Generator().manual_seed(seed))
    return grid_frame(values, torch.arange(4), torch.arange(6), "position t", "dimension j")


def _drawn(frame: pd.DataFrame, templates: Templates):
    domain = centred_domain(frame)
    chart = templates.chart(
        heatmap,
        frame,
        ("dimension j", "position t", "pos_embeddings"),
        {"domain": domain, "description": f"ends {domain[1]:.3f}"},
        live=("domain", "description"),
    )
    return browser_spec(chart), domain


def _read(spec: dict, rows: pa.Table):
    """The spec with each expression replaced by the value it reads from the chart's first row."""
    text = json.dumps(spec)
    for column in rows.column_names:
        reads = json.dumps({"expr": f"data('{MAIN}')[0] ? data('{MAIN}')[0][{json.dumps(column)}] : 0"})
        text = text.replace(reads, json.dumps(rows.column(column)[0].as_py()))
    return json.loads(text)


def test_two_grids_of_one_shape_give_the_same_spec_and_each_its_own_numbers():
    templates = Templates()
    (one, domain_one), (two, domain_two) = _drawn(_grid(1), templates), _drawn(_grid(2), templates)
    spec_one = {k: v for k, v in one.spec.items() if k != "datasets"}
    spec_two = {k: v for k, v in two.spec.items() if k != "datasets"}
    assert json.dumps(spec_one) == json.dumps(spec_two)  # the browser keeps the view
    assert domain_one != domain_two and one.said != two.said
    assert one.said == f"ends {domain_one[1]:.3f}" and spec_one["description"].startswith(
        "Chart: pos_embeddings"
    )
    for drawn, domain, seed in ((one, domain_one, 1), (two, domain_two, 2)):
        rows = pa.ipc.open_stream(drawn.spec["datasets"][MAIN]).read_all()
        assert rows.column("value").to_pylist() == _grid(seed)["value"].tolist()
        color = _read(spec_one, rows)["encoding"]["color"]["scale"]["domain"]
        assert color == list(domain)  # the colour scale's ends, as drawn before: read from the rows


def test_a_chart_without_a_template_names_its_datasets_by_order_not_by_content():
    frame = _grid(3)
    drawn = browser_spec(heatmap(frame, "dimension j", "position t", "t", marked=(1,)))
    names = list(drawn.spec["datasets"])
    assert names == [MAIN, f"{MAIN}_1"]  # the grid, then the outlined row's
    outline = pa.ipc.open_stream(drawn.spec["datasets"][f"{MAIN}_1"]).read_all()
    assert outline.select(["position t"]).to_pydict() == {"position t": [1]}
    assert drawn.said.startswith("t: a heatmap of") and "Chart: t." in drawn.spec["description"]
