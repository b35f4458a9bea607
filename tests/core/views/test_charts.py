import torch

from core.views.charts import grid_frame, heatmap
from core.views.units import human_bytes, human_count, shape_str


def test_heatmap_data_is_the_grid():
    values = torch.arange(6, dtype=torch.float32).reshape(2, 3) - 2
    frame = grid_frame(values, torch.tensor([0, 5]), torch.tensor([0, 1, 2]), "position t", "dimension j")
    spec = heatmap(frame, "dimension j", "position t", "x").to_dict()
    data = next(iter(spec["datasets"].values()))
    assert len(data) == 6
    assert data[3] == {"position t": 5, "dimension j": 0, "value": 1.0}
    assert spec["mark"]["type"] == "rect"
    assert spec["encoding"]["color"]["scale"]["domain"] == [-3.0, 3.0]


def test_units():
    assert shape_str((8, 4, 256)) == "8 × 4 × 256"
    assert human_bytes(805_306_368) == "805.3 MB"
    assert human_bytes(512) == "512 B"
    assert human_count(12_865_792) == "12.87 M"
    assert human_count(1024) == "1,024"


def test_families_lines_differ_in_colour_and_dash_and_titles_stay_dark():
    import pandas as pd

    from core.positional.family import FAMILIES
    from core.views.charts import line_chart, method_panel
    from core.views.colors import FAMILY_COLORS, FAMILY_DASHES

    rope, alibi = FAMILIES["rope"], FAMILIES["alibi"]
    frame = pd.DataFrame(
        {"r": [0, 1, 0, 1], "y": [0.0, 1.0, 2.0, 3.0], "method": ["RoPE", "RoPE", "ALiBi", "ALiBi"]}
    )
    colors = {"RoPE": rope.color, "ALiBi": alibi.color}
    dashes = {"RoPE": rope.dash, "ALiBi": alibi.dash}
    spec = line_chart(frame, "r", "y", "t", color="method", colors=colors, dashes=dashes).to_dict()
    scale = spec["encoding"]["color"]["scale"]
    assert scale == {"domain": ["RoPE", "ALiBi"], "range": [FAMILY_COLORS["rope"], FAMILY_COLORS["alibi"]]}
    dash = spec["encoding"]["strokeDash"]
    assert dash["scale"]["range"] == [list(FAMILY_DASHES["rope"]), list(FAMILY_DASHES["alibi"])]
    assert dash["field"] == "method" and dash["legend"] == spec["encoding"]["color"]["legend"]  # one legend
    assert spec["encoding"]["color"]["legend"]["orient"] == "bottom"
    panel = method_panel(frame[frame.method == "RoPE"], "r", "y", "RoPE", rope.color, rule_at=1).to_dict()
    line, _, bar = panel["layer"]
    assert line["mark"]["color"] == rope.color and "color" not in line["title"]  # the title in dark text
    assert bar["mark"]["color"] == rope.color and bar["mark"]["aria"] is False


def test_lines_that_are_not_families_get_the_palettes_colours_and_dashes_in_order():
    import pandas as pd

    from core.views.charts import line_chart
    from core.views.colors import SERIES_COLORS, SERIES_DASHES

    frame = pd.DataFrame({"r": [0, 1, 0, 1], "y": [0.0, 1.0, 2.0, 3.0], "c": ["b", "b", "a", "a"]})
    spec = line_chart(frame, "r", "y", "t", color="c").to_dict()
    assert spec["encoding"]["color"]["scale"]["range"] == list(SERIES_COLORS)
    assert spec["encoding"]["strokeDash"]["scale"]["range"] == [list(d) for d in SERIES_DASHES]
    assert spec["encoding"]["strokeDash"]["sort"] is None  # in the data's order, as the colours


def test_a_heatmaps_accent_is_a_bar_above_it_not_its_titles_colour():
    frame = grid_frame(
        torch.zeros(2, 2), torch.tensor([0, 1]), torch.tensor([0, 1]), "position t", "dimension j"
    )
    spec = heatmap(frame, "dimension j", "position t", "pos_embeddings", accent="#b45309").to_dict()
    assert spec["title"]["text"] == "pos_embeddings" and "color" not in spec["title"]
    cells, bar = spec["layer"]
    assert cells["mark"]["type"] == "rect" and bar["mark"]["color"] == "#b45309"
    assert bar["encoding"]["x2"] == {"value": 36}


def test_loss_chart_draws_both_curves_and_the_flat_baseline():
    from core.views.charts import loss_chart, loss_frame

    frame = loss_frame([0, 10], [5.0, 3.0], [5.5, 3.5], 4.0, 20)
    spec = loss_chart(frame).to_dict()
    data = next(iter(spec["datasets"].values()))
    assert [(row["step"], row["loss"], row["curve"]) for row in data] == [
        (0, 5.0, "training batch"),
        (10, 3.0, "training batch"),
        (0, 5.5, "validation"),
        (10, 3.5, "validation"),
        (0, 4.0, "guess from token counts (validation)"),
        (20, 4.0, "guess from token counts (validation)"),
    ]
    assert spec["title"] == "Loss" and spec["encoding"]["color"]["field"] == "curve"


def test_structure_chart_marks_the_step_shown():
    import pandas as pd

    from core.views.charts import structure_chart

    frame = pd.DataFrame({"step": [0, 10, 20], "structure": [0.0, 0.2, 0.5]})
    spec = structure_chart(frame, 10).to_dict()
    (curve,) = spec["datasets"].values()
    assert [row["structure"] for row in curve] == [0.0, 0.2, 0.5]
    marks = spec["layer"][1]
    assert marks["data"] == {"values": [{"step": 10}]}  # the rule at the step shown, labelled "shown"
    assert [layer["transform"] for layer in marks["layer"]] == [[{"calculate": '"shown"', "as": "label"}]] * 2
    assert spec["layer"][0]["title"] == "Learned structure"


def test_distance_chart_has_one_line_per_table():
    import pandas as pd

    from core.views.charts import distance_chart

    frame = pd.DataFrame(
        {"distance": [0, 1, 0, 1], "mean cosine": [1.0, 0.5, 1.0, 0.0], "table": list("aabb")}
    )
    spec = distance_chart(frame).to_dict()
    assert spec["title"] == "Similarity against distance"
    assert spec["encoding"]["x"]["field"] == "distance" and spec["encoding"]["color"]["field"] == "table"
    assert len(next(iter(spec["datasets"].values()))) == 4


def test_vocab_charts_tabulate_the_sweep_and_mark_v():
    from core.text.vocab import SweepPoint
    from core.views.charts import V_AXIS, vocab_charts, vocab_frame

    frame = vocab_frame([SweepPoint(100, 50), SweepPoint(1000, 30)], 8)
    assert frame[V_AXIS].tolist() == [100, 1000]
    assert frame["parameters V × d"].tolist() == [800, 8000]  # 100 × 8 and 1,000 × 8
    tokens, table = (chart.to_dict() for chart in vocab_charts(frame, 1000))
    assert tokens["layer"][0]["encoding"]["y"]["field"] == "tokens in the text"
    assert table["layer"][0]["encoding"]["y"]["scale"]["type"] == "log"
    assert table["layer"][0]["encoding"]["x"]["scale"] == {
        "domain": [100.0, 1000.0],
        "nice": False,
        "type": "log",
    }
    marks = table["layer"][1]  # the rule at V, labelled "V = 1,000" by the browser (d3's "," format)
    assert marks["data"] == {"values": [{V_AXIS: 1000}]}
    label = {"calculate": '"V = " + format(datum["vocab size V (log)"], ",")', "as": "label"}
    assert [layer["transform"] for layer in marks["layer"]] == [[label]] * 2
    assert marks["layer"][1]["encoding"]["text"]["field"] == "label"


def test_unvalidated_charts_give_the_same_spec_without_validating():
    import pandas as pd
    import pytest

    from core.views.chart_specs import unvalidated
    from core.views.charts import line_chart

    frame = pd.DataFrame({"r": [0, 1, 2], "y": [0.0, 1.0, 4.0]})
    spec = line_chart(frame, "r", "y", "t", rule_at=1).to_dict()
    fast = unvalidated(line_chart(frame, "r", "y", "t", rule_at=1))
    assert fast.to_dict() == spec and unvalidated(fast) is fast
    assert "__class__" not in fast.to_dict()
    broken = unvalidated(line_chart(frame, "r", "y", "t"))
    broken.mark = "not-a-mark"  # invalid: only validation notices
    broken.to_dict()  # drawn without validation
    with pytest.raises(Exception, match="not-a-mark"):
        broken.to_dict(validate=True)


def test_a_drawn_chart_is_converted_once_and_always_drawn_with_its_data(monkeypatch):
    # A kept chart was converted (spec and data) again on every rerun
    import altair as alt
    import pandas as pd

    from core.views.browser_spec import browser_spec
    from core.views.charts import line_chart
    from tests.core.views.support import rows_of, sent

    frame = pd.DataFrame({"r": [0, 1, 2], "y": [0.0, 1.0, 4.0]})
    chart = line_chart(frame, "r", "y", "t", rule_at=1)
    first = browser_spec(chart)
    assert rows_of(sent(chart)) == rows_of(sent(line_chart(frame, "r", "y", "t", rule_at=1)))
    converted = []
    monkeypatch.setattr(alt.TopLevelMixin, "to_dict", lambda *a, **k: converted.append(a) or {})
    again = browser_spec(chart)
    assert again == first and again.spec is not first.spec and not converted  # the same, not converted
    again.spec["datasets"].clear()  # Streamlit takes the datasets out: the next draw is not affected
    assert browser_spec(chart) == first
    monkeypatch.undo()
    other = browser_spec(line_chart(frame.assign(y=frame["y"] + 1), "r", "y", "t", rule_at=1))
    assert other.spec["datasets"]["rows"] != first.spec["datasets"]["rows"]  # other data: its own


def test_a_method_panel_can_fit_its_axis_and_say_why():
    import pandas as pd

    from core.views.charts import method_panel

    frame = pd.DataFrame({"r": [0, 1, 2, 3], "y": [17.8, -0.8, 0.3, -0.2]})
    spec = method_panel(
        frame, "r", "y", "Learned", "#4e79a7", 4, x_domain=(0, 4), note="rows 0…3 only"
    ).to_dict()
    line = spec["layer"][0]
    assert line["encoding"]["x"]["scale"] == {"domain": [0, 4], "nice": False}
    assert line["title"]["subtitle"] == "rows 0…3 only" and line["title"]["text"] == "Learned"
    plain = method_panel(frame, "r", "y", "Learned", "#4e79a7", 4).to_dict()["layer"][0]
    assert "scale" not in plain["encoding"]["x"] and "subtitle" not in plain["title"]
