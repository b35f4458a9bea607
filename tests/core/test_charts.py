import torch

from core.charts import grid_frame, heatmap
from core.units import human_bytes, human_count, shape_str


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


def test_method_colours_come_from_the_one_mapping():
    import pandas as pd

    from core.charts import line_chart, method_panel
    from core.colors import METHOD_COLORS

    frame = pd.DataFrame(
        {"r": [0, 1, 0, 1], "y": [0.0, 1.0, 2.0, 3.0], "method": ["RoPE", "RoPE", "ALiBi", "ALiBi"]}
    )
    colors = {"RoPE": METHOD_COLORS["rope"], "ALiBi": METHOD_COLORS["alibi"]}
    spec = line_chart(frame, "r", "y", "t", color="method", colors=colors).to_dict()
    scale = spec["encoding"]["color"]["scale"]
    assert scale["domain"] == ["RoPE", "ALiBi"] and scale["range"] == ["#59a14f", "#e15759"]
    assert spec["encoding"]["color"]["legend"]["orient"] == "bottom"
    panel = method_panel(
        frame[frame.method == "RoPE"], "r", "y", "RoPE", METHOD_COLORS["rope"], rule_at=1
    ).to_dict()
    line = panel["layer"][0]
    assert line["mark"]["color"] == "#59a14f" and line["title"]["color"] == "#59a14f"
    assert len(set(METHOD_COLORS.values())) == len(METHOD_COLORS)  # one colour per method
