"""How ``ui.server.cache.chart`` templates each chart builder (``core.views.chart_specs.Templates``):
what a builder reads from its data, the arguments it writes in as they are, and what it computes from
the data by default, computed here by the same functions."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from core.attention.charts import attention_heatmap, query_scores_chart, query_weights_chart
from core.positional import rope_scaling_charts as rope
from core.views import charts
from core.views.chart_specs import same_data
from core.views.describe import bars_description, grid_description


def _lines_shape(frame, color, **_) -> tuple:
    """What ``line_chart`` reads from its data: points or not, the legend's rows."""
    return len(frame) <= 64, frame[color].nunique() if color else 0


def _at_most_64(frame, **_) -> tuple:
    return (len(frame) <= 64,)


@dataclasses.dataclass(frozen=True)
class Templated:
    """How ``chart`` templates a builder (``core.views.chart_specs.Templates.chart``): what it reads from
    its data (``shape``), the arguments it writes in as they are (``live``), and for those it computes
    from the data when given None, the same computation (``fill``)."""

    shape: Callable[..., object] | None = None
    live: tuple[str, ...] = ()
    fill: dict[str, Callable[..., object]] = dataclasses.field(default_factory=dict)


def _log_ends(frame, x, log_x, **_):
    return tuple(charts.log_domain(frame[x])) if log_x else None


def _line_said(frame, x, y, title, color, rule_at, rule_label, rule_format, **_):
    return charts.line_description(frame, x, y, title, color, rule_at, rule_label, rule_format)


_PER_DATA = Templated(same_data, ("description",))  # builders that read much from their values
# Every builder drawn through ``chart`` with a template; what they compute by default from the data is
# computed here by the same functions (tests/ui/server/test_cache_helpers.py draws each against its builder).
TEMPLATED: dict[Callable, Templated] = {
    charts.heatmap: Templated(
        live=("domain", "description"),
        fill={
            "domain": lambda frame, **_: charts.centred_domain(frame),
            "description": lambda frame, x, y, title, **_: grid_description(title, frame, x, y),
        },
    ),
    charts.line_chart: Templated(
        _lines_shape,
        ("rule_at", "x_domain", "description"),
        {"x_domain": _log_ends, "description": _line_said},
    ),
    charts.bar_chart: Templated(
        live=("description",),
        fill={"description": lambda frame, x, y, title, **_: bars_description(title, frame, x, y)},
    ),
    charts.path_chart: Templated(
        live=("description",),
        fill={
            "description": lambda frame, x, y, order, title, **_: charts.path_description(
                frame, x, y, order, title
            )
        },
    ),
    charts.method_panel: Templated(_at_most_64, ("rule_at", "x_domain", "note", "y_domain", "description")),
    attention_heatmap: Templated(live=("domain", "symlog", "description")),
    query_scores_chart: Templated(live=("description",)),
    query_weights_chart: Templated(live=("description",)),
    rope.wavelength_chart: _PER_DATA,
    rope.slowdown_chart: _PER_DATA,
    rope.score_chart: _PER_DATA,
    rope.attention_chart: _PER_DATA,
}
