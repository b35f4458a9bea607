"""``ui.server.cache``'s helpers: ``kept_chart`` (a chart kept while the objects it draws live),
``per_process`` (results kept by their arguments' values), ``chart`` (a builder drawn through a
template: the chart its builder gives) and ``clear``."""

import gc

import altair as alt
import pandas as pd
import pytest
import torch

from core.attention.charts import attention_heatmap, query_scores_chart, query_weights_chart
from core.positional import rope_scaling_charts as rope
from core.positional.long_context import long_context_view
from core.positional.long_context_presets import PRESETS
from core.text.vocab import SweepPoint
from core.views.charts import (
    bar_chart,
    heatmap,
    line_chart,
    loss_chart,
    loss_frame,
    method_panel,
    path_chart,
    similarity_heatmap,
    structure_chart,
    vocab_charts,
    vocab_frame,
)
from tests.core.views.support import rows_of, sent
from ui.server import cache


def drawn(chart) -> tuple[dict, dict]:
    """What the browser draws of ``chart``: the spec the app sends and its datasets' rows."""
    return rows_of(sent(chart))


def frame(values) -> pd.DataFrame:
    return pd.DataFrame({"r": range(len(values)), "y": [float(v) for v in values]})


def _views():
    return [long_context_view(PRESETS[name].config, "c") for name in list(PRESETS)[:2]]


# Each builder at the seam, called as the pages call it, on data that changes what it says
CALLS = {
    "line with a rule and colours": lambda f: (
        line_chart,
        f.assign(c=["a", "b"] * (len(f) // 2)),
        ("r", "y", "t"),
        {"color": "c", "rule_at": len(f) // 2, "rule_label": "here"},
    ),
    "line on a log axis": lambda f: (
        line_chart,
        f.assign(r=f["r"] + 1),
        ("r", "y", "t"),
        {"log_x": True, "rule_at": 2, "rule_format": ",", "rule_label": "V = "},
    ),
    "method panel": lambda f: (
        method_panel,
        f,
        ("r", "y", "Learned", "#4e79a7", len(f)),
        {"x_domain": (0, len(f)), "note": f"rows 0…{len(f) - 1}", "description": f"{len(f)} rows"},
    ),
    "bar": lambda f: (bar_chart, f, ("r", "y", "t"), {}),
    "heatmap": lambda f: (heatmap, f.assign(c=f["r"]).rename(columns={"y": "value"}), ("r", "c", "t"), {}),
    "heatmap with an accent": lambda f: (
        heatmap,
        f.assign(c=f["r"]).rename(columns={"y": "value"}),
        ("r", "c", "t"),
        {"accent": "#4e79a7", "domain": (-9.0, 9.0), "description": "said"},
    ),
    "path": lambda f: (path_chart, f.assign(x=f["y"] / 2), ("x", "y", "r", "t"), {}),
    "attention heatmap": lambda f: (
        attention_heatmap,
        pd.DataFrame({"i": f["r"], "j": f["r"], "v": f["y"]}),
        ([f"{k}:a" for k in range(len(f))], "t"),
        {"domain": (-float(len(f)), float(len(f))), "legend": "score", "symlog": 0.5, "description": "d"},
    ),
    "a query's scores": lambda f: (query_scores_chart, _query_row(f), (f"{len(f)} keys",), {}),
    "a query's weights": lambda f: (query_weights_chart, _query_row(f), (f"{len(f)} keys",), {"row": 17}),
}


def _query_row(f: pd.DataFrame) -> pd.DataFrame:
    """A query's row as ``query_row_frame`` gives it, from ``frame``'s values (the last key hidden)."""
    seen = ["sees it"] * (len(f) - 1) + ["hidden by the mask"]
    return pd.DataFrame(
        {
            "j": f["r"],
            "key": [f"{k}:t{k}" for k in f["r"]],
            "score": f["y"],
            "weight": f["y"] / 10,
            "seen": seen,
        }
    )


@pytest.mark.parametrize("name", CALLS)
def test_a_chart_drawn_through_the_seam_is_the_chart_its_builder_gives(name, fresh_caches):
    for values in ([0, 1, 4, 9], [3, -1, 2, 7], [5, 5, 5, 5, 1, 2] * 20):  # the last: > 64 rows
        build, data, args, kwargs = CALLS[name](frame(values))
        kept = cache.chart(build, data, *args, **kwargs)
        direct = build(data, *args, **kwargs)
        with alt.data_transformers.disable_max_rows():
            assert kept.to_dict() == direct.to_dict()  # validated, data inlined
        assert drawn(kept) == drawn(direct)  # as Streamlit sends it: this call's data and numbers
    assert len(cache.TEMPLATES) <= 2  # copies of templates: one per shape (≤ 64 points or more)


@pytest.mark.parametrize(
    "build", [rope.wavelength_chart, rope.slowdown_chart, rope.score_chart, rope.attention_chart]
)
def test_the_long_context_charts_through_the_seam_are_their_builders_charts(build, fresh_caches):
    for view in _views():
        cfg = view.cfg
        if build in (rope.wavelength_chart, rope.slowdown_chart):
            data = rope.pair_frame(view)
            args = (cfg.original, cfg.extended) if build is rope.wavelength_chart else (cfg.factor,)
        elif build is rope.score_chart:
            data, args = rope.score_frame(view), ("c", cfg.original)
        else:
            factors = torch.logspace(0, 2, 8, dtype=torch.float64)
            from core.positional.long_context import attention_factor_curves

            data = rope.attention_frame(attention_factor_curves(cfg, factors), factors)
            args = (cfg.factor, view.attention_factor)
        kept = cache.chart(build, data, *args, description="said")
        assert drawn(kept) == drawn(build(data, *args, description="said"))


def test_composite_charts_drawn_through_the_seam_are_their_builders_charts(fresh_caches):
    draw = cache.drawing(line_chart)
    sweep = vocab_frame([SweepPoint(257, 900), SweepPoint(5000, 300), SweepPoint(50257, 200)], 16)
    for V in (300, 1000, 50257, 70000):  # 70,000: past the sweep
        for kept, direct in zip(vocab_charts(sweep, V, draw=draw), vocab_charts(sweep, V), strict=True):
            assert drawn(kept) == drawn(direct)
            spec = sent(kept)
            assert spec["layer"][1]["data"]["values"] == [{"vocab size V (log)": V}]
            assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"] == [257, max(V, 50257)]
            assert spec["description"].endswith(f"A dashed line marks V = {V:,}.")
    for ys in ([5.0, 3.0], [4.0, 4.5]):
        losses = loss_frame([0, 10], ys, [y + 0.5 for y in ys], 4.0, 20)
        assert drawn(loss_chart(losses, draw=draw)) == drawn(loss_chart(losses))
    structure = pd.DataFrame({"step": [0, 10, 20], "structure": [0.0, 0.2, 0.5]})
    for step in (0, 10, 20):
        assert drawn(structure_chart(structure, step, draw=draw)) == drawn(structure_chart(structure, step))
    grid = pd.DataFrame(
        {"position j": [0, 1, 0, 1], "position i": [0, 0, 1, 1], "value": [1.0, 0.5, 0.5, 1.0]}
    )
    similar = similarity_heatmap(grid, "s", draw=cache.drawing(heatmap))
    assert drawn(similar) == drawn(similarity_heatmap(grid, "s"))


def test_clear_empties_every_cache_at_the_seam():
    calls = []

    @cache.per_process(max_entries=4)
    def counted(x: int) -> int:
        calls.append(x)
        return x

    counted(1)
    cache.SHARED.put(("test", "clear"), [1, 2, 3])
    cache.chart(bar_chart, frame([1, 2]), "r", "y", "t")
    assert len(cache.SHARED) and len(cache.TEMPLATES)
    cache.clear()
    assert not len(cache.SHARED) and not len(cache.TEMPLATES)
    counted(1)
    assert calls == [1, 1]  # computed again


def test_a_chart_is_kept_while_what_it_draws_lives_and_built_again_for_a_new_object():
    built = []

    def build():
        built.append(1)
        return object(), 100

    values = torch.zeros(3)
    first = cache.kept_chart(("test", "a"), (values,), build)
    assert cache.kept_chart(("test", "a"), (values,), build) is first and len(built) == 1
    assert cache.kept_chart(("test", "b"), (values,), build) is not first and len(built) == 2  # another key
    other = torch.zeros(3)  # equal values, another tensor: a kept chart draws its own object only
    assert cache.kept_chart(("test", "a"), (other,), build) is not first and len(built) == 3
    del values, first
    gc.collect()
    reused = torch.zeros(3)  # may take the freed tensor's id: its dead reference tells them apart
    assert cache.kept_chart(("test", "a"), (reused,), build) is not None and len(built) == 4


def test_per_process_keeps_results_by_the_arguments_values_and_drops_the_oldest():
    from core.config import PipelineConfig

    calls = []

    @cache.per_process(max_entries=2)
    def square(cfg: PipelineConfig, settings: tuple) -> object:
        calls.append((cfg, settings))
        return object()

    a = square(PipelineConfig(), (("heads", 4),))
    assert square(PipelineConfig(), (("heads", 4),)) is a and len(calls) == 1  # equal arguments
    b = square(PipelineConfig(output_dim=64), (("heads", 4),))
    assert b is not a and len(calls) == 2
    square(PipelineConfig(), (("heads", 8),))  # a third: the least recently used (a) is dropped
    assert square(PipelineConfig(output_dim=64), (("heads", 4),)) is b and len(calls) == 3
    assert square(PipelineConfig(), (("heads", 4),)) is not a and len(calls) == 4
    square.clear()
    square(PipelineConfig(output_dim=64), (("heads", 4),))
    assert len(calls) == 5


def test_per_process_computes_a_result_once_while_others_wait_for_it():
    import threading
    import time

    calls = []

    @cache.per_process(max_entries=4)
    def slow(n: int) -> object:
        calls.append(n)
        time.sleep(0.2)  # thirty sessions opening a page together all ask while it computes
        if n < 0:
            raise ValueError("no")
        return object()

    results = []
    threads = [threading.Thread(target=lambda: results.append(slow(1))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [1] and len(results) == 8 and all(r is results[0] for r in results)
    for _ in range(2):  # a failure is not kept: the next call computes again
        try:
            slow(-1)
        except ValueError:
            pass
    assert calls == [1, -1, -1]
