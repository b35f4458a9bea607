"""Every chart says what it shows: a top-level description from its own numbers (the accessible name of
its root in the browser), and its decorative marks out of the accessibility tree."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import torch

from core.attention.charts import attention_heatmap, heatmap_description, query_row_charts
from core.positional.long_context import attention_factor_curves, long_context_view
from core.positional.long_context_presets import PRESETS
from core.positional.long_context_words import pair_findings
from core.positional.rope_scaling_charts import (
    attention_chart,
    attention_description,
    attention_frame,
    pair_frame,
    pairs_description,
    score_chart,
    score_description,
    score_frame,
    slowdown_chart,
    slowdown_description,
    wavelength_chart,
)
from core.text.vocab import SweepPoint
from core.training.position_loss import position_loss_chart
from core.views.charts import (
    bar_chart,
    grid_frame,
    heatmap,
    loss_chart,
    loss_frame,
    method_panel,
    path_chart,
    scatter_chart,
    similarity_heatmap,
    structure_chart,
    vocab_charts,
    vocab_frame,
)
from core.views.describe import figure, grid_description, lines_description, trend
from tests.core.views.support import sent

DECORATIVE = {"rule", "text", "rect"}  # rules, their labels, heatmap cells and outlines


def marks(spec: dict) -> list[dict]:
    """Every mark of a spec, in its layers, facets and concatenations, as a dict with its type."""
    found = []
    if "mark" in spec:
        mark = spec["mark"]
        found.append(mark if isinstance(mark, dict) else {"type": mark})
    for part in ("layer", "hconcat", "vconcat", "concat"):
        for sub in spec.get(part, []):
            found += marks(sub)
    if isinstance(spec.get("spec"), dict):
        found += marks(spec["spec"])
    return found


def grid(values: list[list[float]]) -> pd.DataFrame:
    t = torch.tensor(values, dtype=torch.float64)
    return grid_frame(t, torch.arange(t.shape[0]) * 4, torch.arange(t.shape[1]), "position t", "dimension j")


def curve(ys: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"r": range(len(ys)), "y": [float(y) for y in ys]})


def lc_charts(key: str = "llama3.1-8b") -> list:
    cfg = PRESETS[key].config
    view = long_context_view(cfg, "this config")
    frame, findings = pair_frame(view), pair_findings(view)
    factors = torch.logspace(0, 2, 60, dtype=torch.float64)
    lines = attention_frame(attention_factor_curves(cfg, factors), factors)
    scores = score_frame(view)
    a = view.attention_factor
    return [
        wavelength_chart(
            frame, cfg.original, cfg.extended, description=pairs_description(frame, cfg.original, 9, "F.")
        ),
        slowdown_chart(frame, cfg.factor, description=slowdown_description(frame, cfg.factor, findings[1:])),
        score_chart(scores, "this config", cfg.original, description=score_description(scores, cfg.original)),
        attention_chart(lines, cfg.factor, a, description=attention_description(lines, cfg.factor, a)),
    ]


def query_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "key": ["0:·a", "1:·dog", "2:·bites"],
            "score": [0.5, -1.25, None],
            "weight": [0.8176, 0.1824, 0.0],
            "seen": ["sees it", "sees it", "hidden by the mask"],
        }
    )


FINDING = "RoPE is +3.000 at r = 0 and falls to +1.000 at r = 2."  # a page's finding beside its panel
ATTENTION = pd.DataFrame({"i": [0, 1, 1], "j": [0, 0, 1], "v": [1.0, 0.25, 0.75]})
LABELS = ["0:·a", "1:·dog"]

# Every builder of the app, as its callers build it (the page's own sentence where it passes one).
BUILDERS = {
    "heatmap": lambda: heatmap(grid([[-2.5, 0.0], [1.0, 3.25]]), "dimension j", "position t", "table"),
    "similarity heatmap": lambda: similarity_heatmap(
        grid_frame(torch.eye(2), torch.arange(2), torch.arange(2), "position i", "position j"), "sim"
    ),
    "line with a rule": lambda: structure_chart(
        pd.DataFrame({"step": [0, 10, 20], "structure": [0.0, 0.2, 0.5]}), 10
    ),
    "loss": lambda: loss_chart(loss_frame([0, 10], [5.0, 3.0], [5.5, 3.5], 4.0, 20)),
    "vocab": lambda: vocab_charts(vocab_frame([SweepPoint(257, 900), SweepPoint(50257, 200)], 16), 1000)[1],
    "bar": lambda: bar_chart(
        pd.DataFrame({"head": [1, 2], "slope m": [0.5, 0.25]}), "head", "slope m", "Slopes"
    ),
    "scatter": lambda: scatter_chart(
        pd.DataFrame({"cos": [1.0, 0.0], "sin": [0.0, 1.0], "position": [0, 1], "pair": "pair 0"}),
        "cos",
        "sin",
        "position",
        "Turns",
        "pair",
    ),
    "path": lambda: path_chart(
        pd.DataFrame({"d1": [0.0, 1.0, 0.5], "d2": [1.0, 0.0, -1.0], "p": [0, 1, 2]}), "d1", "d2", "p", "Path"
    ),
    "method panel": lambda: method_panel(
        curve([3, 2, 1]), "r", "y", "RoPE", "#59a14f", 2, description=FINDING
    ),
    "attention heatmap": lambda: attention_heatmap(
        ATTENTION,
        LABELS,
        "A: weights",
        domain=(0.0, 1.0),
        legend="weight",
        highlight=1,
        description=heatmap_description(ATTENTION, LABELS, "A: weights", "weight", 4, 1),
    ),
    "query scores": lambda: query_row_charts(query_frame(), "2:·bites")[0],
    "query weights": lambda: query_row_charts(query_frame(), "2:·bites")[1],
    "position loss": lambda: position_loss_chart(
        pd.DataFrame({"method": ["ALiBi"] * 4, "position": range(4), "loss": [3.0, 2.0, 2.5, 2.6]}), 2
    ),
    **{f"long context {k}": (lambda k=k: lc_charts()[k]) for k in range(4)},
}


@pytest.mark.parametrize("name", BUILDERS)
def test_every_chart_has_a_description_of_its_own_that_the_browser_gets(name):
    spec = sent(BUILDERS[name]())
    assert isinstance(spec.get("description"), str) and len(spec["description"]) > 20
    assert spec["description"] != "Vega visualization"  # Vega's default name
    assert not any("description" in sub for sub in spec.get("layer", []))  # a layer's is not the name
    assert "\x00" not in spec["description"]  # no template's stand-in left


@pytest.mark.parametrize("name", BUILDERS)
def test_decorative_marks_are_left_out_of_the_accessibility_tree(name):
    spec = sent(BUILDERS[name]())
    decorative = [m for m in marks(spec) if m["type"] in DECORATIVE]
    assert all(m.get("aria") is False for m in decorative), decorative


def test_a_heatmap_says_its_axes_and_its_range_and_hides_cells_axes_and_legend():
    spec = sent(heatmap(grid([[-2.5, 0.0], [1.0, 3.25]]), "dimension j", "position t", "table"))
    assert spec["description"] == (
        "table: a heatmap of position t 0 to 4 down (2 rows), dimension j 0 to 1 across (2 columns); "
        "values from -2.50 (position t 0, dimension j 0) to 3.25 (position t 4, dimension j 1)."
    )
    encoding = spec["encoding"]
    assert spec["mark"] == {"type": "rect", "aria": False}
    assert encoding["x"]["axis"]["aria"] is False and encoding["y"]["axis"]["aria"] is False
    assert encoding["color"]["legend"]["aria"] is False
    with_gaps = grid([[math.nan, 1.0], [math.nan, math.nan]])
    assert grid_description("b", with_gaps, "dimension j", "position t").endswith(
        "every value 1; 3 cells without a value."
    )


def test_a_line_chart_says_each_lines_course_and_where_its_rule_is():
    loss = sent(loss_chart(loss_frame([0, 10], [5.0, 3.0], [5.5, 3.5], 4.0, 20)))["description"]
    assert loss == (
        "Loss: loss against step, 0 to 20. training batch: falls from 5 at step 0 to 3 at step 10. "
        "validation: falls from 5.50 at step 0 to 3.50 at step 10. guess from token counts (validation): "
        "stays at 4."
    )
    frame = pd.DataFrame({"step": [0, 10, 20], "structure": [0.0, 0.2, 0.5]})
    assert sent(structure_chart(frame, 10))["description"].endswith("A dashed line at step 10 (shown).")
    sweep = vocab_frame([SweepPoint(257, 900), SweepPoint(5000, 300), SweepPoint(50257, 200)], 16)
    tokens, table = (sent(c)["description"] for c in vocab_charts(sweep, 1000))
    assert (
        "falls from 900" in tokens
        and "to 200" in tokens
        and tokens.endswith("A dashed line marks V = 1,000.")
    )
    assert "rises from 4,112" in table and tokens != table


def test_a_curve_that_turns_says_where():
    xs = np.arange(5.0)
    assert trend(xs, np.array([1.0, 0.5, -0.25, 0.0, 0.5]), "r") == (
        "goes from 1 at r 0 to 0.5 at r 4, lowest -0.25 at r 2"
    )
    assert (
        trend(xs, np.array([0.0, 2.0, 1.0, 1.0, 1.0]), "r")
        == "goes from 0 at r 0 to 1 at r 4, highest 2 at r 1"
    )
    assert trend(xs, np.full(5, math.nan), "r") == "has no values"
    named = lines_description(
        "t", pd.DataFrame({"r": [0, 1, 0, 1], "y": [1, 2, 2, 2], "m": list("aabb")}), "r", "y", "m"
    )
    assert named == "t: y against r, 0 to 1. a: rises from 1 at r 0 to 2 at r 1. b: stays at 2."


def test_figures_are_short_and_never_negative_zero():
    assert [figure(v) for v in (50257, 0.5, -0.0004, -0.00001, 3.14159, 12.345, 1234.5, math.nan)] == [
        "50,257", "0.5", "-0.0004", "-1e-05", "3.14", "12.3", "1,234", "none",
    ]  # fmt: skip
    assert figure(-0.0) == "0"


def test_an_attention_map_says_its_range_its_mask_and_its_outlined_row():
    said = heatmap_description(ATTENTION, LABELS, "A: weights", "weight", 4, highlight=1)
    assert said == (
        "A: weights: query i down, key j across, 2 positions; weight from 0.25 (query 1: dog, key 0: a) to 1 "
        "(query 0: a, key 0: a); 1 of 4 cells hidden by the mask (grey). The row of query 1: dog is outlined."
    )
    spec = sent(
        attention_heatmap(
            ATTENTION, LABELS, "A", domain=(0.0, 1.0), legend="w", highlight=1, description=said
        )
    )
    assert spec["description"] == said
    cells, outline = spec["layer"]
    assert cells["mark"]["aria"] is False and outline["mark"]["aria"] is False
    assert (
        cells["encoding"]["x"]["axis"]["aria"] is False
        and cells["encoding"]["color"]["legend"]["aria"] is False
    )


def test_the_bridge_says_the_querys_highest_score_and_largest_weight():
    score, weight = (sent(c)["description"] for c in query_row_charts(query_frame(), "2:·bites"))
    assert score == (
        "Scores q·k/√dh of query 2: bites for each key j: highest 0.5 for key 0: a, lowest -1.25 for key 1: "
        "dog. The causal mask hides 1 of the 3 keys: no score, weight 0."
    )
    assert "the largest, 0.82, goes to key 0: a" in weight


def test_the_long_context_charts_say_the_lengths_and_the_pages_findings():
    cfg = PRESETS["llama3.1-8b"].config
    view = long_context_view(cfg, "this config")
    frame, findings = pair_frame(view), pair_findings(view)
    said = pairs_description(frame, cfg.original, cfg.extended, findings[0])
    assert f"trained L = {cfg.original:,} and L' = {cfg.extended:,}" in said and said.endswith(findings[0])
    slowed = slowdown_description(frame, cfg.factor, findings[1:])
    assert f"s = {cfg.factor:g}" in slowed and all(f in slowed for f in findings[1:])
    for spec in map(sent, lc_charts()):
        assert spec["description"]
        assert all(m.get("aria") is False for m in marks(spec) if m["type"] in DECORATIVE)


def test_the_position_loss_chart_says_the_pages_sentences():
    frame = pd.DataFrame({"method": ["ALiBi"] * 4, "position": range(4), "loss": [3.0, 2.0, 2.5, 2.6]})
    spec = sent(position_loss_chart(frame, 2, findings=["ALiBi: it rises."]))
    assert spec["description"] == "ALiBi: it rises. A dashed line marks the trained length T = 2."
    assert spec["layer"][1]["mark"]["type"] == "rule" and spec["layer"][1]["mark"]["aria"] is False


def test_a_chart_redrawn_for_a_projector_keeps_its_description():
    chart = heatmap(grid([[-2.5, 0.0], [1.0, 3.25]]), "dimension j", "position t", "table")
    configured = chart.configure_axis(labelFontSize=17).properties(title="short")  # as presenting does
    assert sent(configured)["description"] == sent(chart)["description"]
