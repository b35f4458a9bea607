"""Charts built once per shape, with only their data swapped: the same charts and specs. The app's own
builders, drawn through ``ui.server.cache.chart``: tests/ui/server/test_cache_helpers.py."""

from __future__ import annotations

import gc
import weakref

import altair as alt
import pandas as pd
import pytest

from core.views.chart_specs import Templates, same_data
from tests.core.views.support import rows_of, sent

BUILDS: list[str] = []
TEMPLATES = Templates()


def templated(shape=None, live: tuple[str, ...] = ()):
    """A builder drawn through ``TEMPLATES`` (``__wrapped__``: the builder itself)."""

    def decorate(build):
        def wrapper(frame, *args, **kwargs):
            return TEMPLATES.chart(build, frame, args, kwargs, shape=shape, live=live)

        wrapper.__wrapped__ = build
        return wrapper

    return decorate


@templated(lambda frame, **_: (len(frame) <= 3,))
def counted(frame: pd.DataFrame, title: str, rule_at: float = 1.0) -> alt.LayerChart:
    """A line with a rule: a layered chart whose marks depend on the frame's length (the shape)."""
    BUILDS.append(title)
    line = alt.Chart(frame, title=title).mark_line(point=len(frame) <= 3).encode(x="r:Q", y="y:Q")
    rule = alt.Chart(pd.DataFrame({"r": [rule_at]})).mark_rule().encode(x="r:Q")
    return line + rule


def frame(values) -> pd.DataFrame:
    return pd.DataFrame({"r": range(len(values)), "y": [float(v) for v in values]})


def drawn(chart) -> tuple[dict, dict]:
    """What the browser draws of ``chart``: its spec and its datasets' rows (``rows_of(sent(chart))``)."""
    return rows_of(sent(chart))


@pytest.fixture(autouse=True)
def no_templates():
    TEMPLATES.clear()
    BUILDS.clear()
    yield
    TEMPLATES.clear()


def test_each_shape_is_built_once_and_its_copies_are_not_converted_again(monkeypatch):
    first, second = counted(frame([0, 1, 4]), "t"), counted(frame([2, 3, 5]), "t")
    assert BUILDS == ["t"]  # one template for both frames
    spec = sent(first)
    converted = []
    monkeypatch.setattr(alt.TopLevelMixin, "to_dict", lambda *a, **k: converted.append(a) or {})
    other = sent(second)  # the template's spec with the second frame's dataset in it
    assert not converted
    monkeypatch.undo()
    assert rows_of(other) == drawn(counted.__wrapped__(frame([2, 3, 5]), "t"))  # the builder itself: a build
    assert other["datasets"] != spec["datasets"] and len(other["datasets"]) == 2  # the line's and the rule's
    BUILDS.clear()
    counted(frame([0, 1, 4, 9]), "t")  # another shape: four rows draw no points
    counted(frame([0, 1, 4]), "u")  # another title
    counted(frame([0, 1, 4]), "t", rule_at=1.0)  # the default, given: the same arguments
    assert BUILDS == ["t", "u"]


def test_a_template_keeps_no_frame_and_templates_can_be_forgotten():
    data = frame([0, 1, 4])
    chart = counted(data, "t")
    drawn(chart)
    gone = weakref.ref(data)
    del data, chart
    gc.collect()
    assert gone() is None  # the template holds an empty frame, not the first caller's
    TEMPLATES.clear()
    counted(frame([0, 1, 4]), "t")
    assert BUILDS == ["t", "t"]


def test_a_copy_changed_later_is_drawn_from_its_own_data():
    chart = counted(frame([0, 1, 4]), "t")
    presenting = chart.configure_axis(labelFontSize=17)  # what ui.presenter.readable does
    assert drawn(presenting) == drawn(
        counted.__wrapped__(frame([0, 1, 4]), "t").configure_axis(labelFontSize=17)
    )


@templated(same_data)
def ranged(frame: pd.DataFrame, title: str) -> alt.Chart:
    """A chart whose y axis ends where its data ends: it reads the frame's values."""
    BUILDS.append(title)
    ends = [float(frame["y"].min()), float(frame["y"].max())]
    return (
        alt.Chart(frame, title=title)
        .mark_line()
        .encode(x="r:Q", y=alt.Y("y:Q", scale=alt.Scale(domain=ends)))
    )


def test_a_builder_that_reads_its_values_gets_a_template_per_data():
    first, again, other = (
        ranged(frame([0, 1, 4]), "t"),
        ranged(frame([0, 1, 4]), "t"),
        ranged(frame([0, 1, 5]), "t"),
    )
    assert BUILDS == ["t", "t"]  # the same values: one build; other values: their own
    assert drawn(again) == drawn(first)
    assert drawn(other) == drawn(ranged.__wrapped__(frame([0, 1, 5]), "t"))
    assert sent(other)["encoding"]["y"]["scale"]["domain"] == [0.0, 5.0]


@templated(live=("domain", "constant"))
def scaled(frame: pd.DataFrame, title: str, domain: tuple, constant: float | None = None) -> alt.Chart:
    """A heatmap-like chart whose colour scale's ends and symlog constant are written in as given."""
    BUILDS.append(title)
    symlog = {} if constant is None else {"type": "symlog", "constant": constant}
    scale = alt.Scale(domain=list(domain), **symlog)
    return alt.Chart(frame, title=title).mark_rect().encode(x="r:O", color=alt.Color("y:Q", scale=scale))


def test_live_arguments_share_one_template_and_each_copy_has_its_own():
    charts = [scaled(frame([0, 1, 4]), "t", (-lim, lim)) for lim in (1.5, 2.5, 3)]
    assert BUILDS == ["t"]
    for lim, chart in zip((1.5, 2.5, 3), charts, strict=True):
        direct = scaled.__wrapped__(frame([0, 1, 4]), "t", (-lim, lim))
        assert chart.to_dict() == direct.to_dict()  # the Altair chart itself holds the numbers
        assert drawn(chart) == drawn(direct)  # and so does the spec from the template
        assert sent(chart)["encoding"]["color"]["scale"]["domain"] == [-lim, lim]
    BUILDS.clear()
    scaled(frame([0, 1, 4]), "t", (-9.0, 9.0))
    symlog = scaled(frame([0, 1, 4]), "t", (-2.0, 2.0), constant=0.02)  # None → a number: another shape
    assert BUILDS == ["t"]
    assert drawn(symlog) == drawn(scaled.__wrapped__(frame([0, 1, 4]), "t", (-2.0, 2.0), constant=0.02))


@templated(live=("note",))
def noted(frame: pd.DataFrame, title: str, note: str | None = None) -> alt.Chart:
    """A chart whose subtitle is written in as given."""
    BUILDS.append(title)
    heading = alt.Title(title, subtitle=note) if note is not None else alt.Title(title)
    return alt.Chart(frame, title=heading).mark_line().encode(x="r:Q", y="y:Q")


def test_a_live_string_is_written_into_each_copy_as_it_is():
    notes = ["rows 0…3 only", 'a "quoted" ≥ note', ""]
    charts = [noted(frame([0, 1, 4]), "t", note) for note in notes]
    assert BUILDS == ["t"]  # one template for every note
    for note, chart in zip(notes, charts, strict=True):
        direct = noted.__wrapped__(frame([0, 1, 4]), "t", note)
        assert chart.to_dict() == direct.to_dict()
        assert drawn(chart) == drawn(direct)
        assert sent(chart)["title"]["subtitle"] == note
    BUILDS.clear()
    plain = noted(frame([0, 1, 4]), "t")  # no note: another shape
    assert BUILDS == ["t"] and "subtitle" not in sent(plain)["title"]


def test_a_live_argument_the_builder_changes_is_refused():
    @templated(live=("limit",))
    def doubled(frame: pd.DataFrame, limit: float) -> alt.Chart:
        return (
            alt.Chart(frame)
            .mark_rect()
            .encode(color=alt.Color("y:Q", scale=alt.Scale(domain=[0, 2 * limit])))
        )

    with pytest.raises(ValueError, match="not written into the chart as it is"):
        doubled(frame([0, 1]), 1.0)

    @templated(live=("note",))
    def suffixed(frame: pd.DataFrame, note: str) -> alt.Chart:
        return alt.Chart(frame, title=alt.Title("t", subtitle=note + "!")).mark_line().encode(x="r:Q")

    with pytest.raises(ValueError, match="not written into the chart as it is"):
        suffixed(frame([0, 1]), "a note")


def test_a_builder_that_draws_another_frame_is_refused():
    # a copy swaps the frame it was given: a chart of a frame made from it would keep the first call's
    @templated()
    def filtered(frame: pd.DataFrame) -> alt.Chart:
        return alt.Chart(frame[frame["y"] > 0]).mark_line().encode(x="r:Q", y="y:Q")

    with pytest.raises(ValueError, match="does not draw its frame as it was given"):
        filtered(frame([0, 1]))


def _said(frame: pd.DataFrame, **_) -> str:
    return f"from {frame['y'].min():g} to {frame['y'].max():g}"


def test_a_live_value_the_builder_computes_from_its_data_is_filled_for_each_copy():
    def described_line(frame: pd.DataFrame, title: str, description: str | None = None) -> alt.Chart:
        BUILDS.append(title)
        said = _said(frame) if description is None else description
        return alt.Chart(frame, title=title, description=said).mark_line().encode(x="r:Q", y="y:Q")

    charts = [
        TEMPLATES.chart(
            described_line, frame(values), ("t",), live=("description",), fill={"description": _said}
        )
        for values in ([0, 1, 4], [2, -3, 5])
    ]
    assert BUILDS == ["t"]  # one template for both
    for values, chart in zip(([0, 1, 4], [2, -3, 5]), charts, strict=True):
        BUILDS.clear()
        assert drawn(chart) == drawn(described_line(frame(values), "t"))
        assert sent(chart)["description"] == _said(frame(values))
