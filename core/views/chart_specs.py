"""Charts turned into Vega-Lite specs cheaply: no schema validation, and charts that differ only in
their data built once per shape.

Building an Altair chart (``encode``, layering) and converting it are a large share of a rerun, while a
new seed or text changes only the frame. So:

- ``unvalidated(chart)``: converted without Altair's JSON-schema validation;
- ``Templates().chart(build, frame, ...)`` for a plain builder ``build(frame, *args)``: the chart is
  built once per shape (the arguments, the frame's columns and dtypes, and what ``shape`` reads from
  the data), on an empty frame; each call copies that template with its own frame in it. Drawn
  (``core.views.browser_spec``), the copy's spec is its template's, converted once: the browser keeps
  the chart and takes the copy's data. ``live`` arguments (a colour scale's ends) are stand-ins in the
  template that each copy replaces; ``same_data`` makes a template per content, for builders that read
  much from their values. The app keeps its templates, and says how each builder is templated, in
  ``ui.server.cache``.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import threading
from collections import OrderedDict
from collections.abc import Callable

import altair as alt
import pandas as pd

MAX_TEMPLATES = 64  # chart shapes kept (30–60 kB each: the chart on an empty frame and its spec)

_UNVALIDATED: dict[type, type] = {}


def unvalidated(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """``chart``, converted to its spec without Altair's JSON-schema validation.

    Validating the spec against Vega-Lite's schema is most of a conversion's cost. The charts built
    here are validated by the tests (``tests/core/views/test_charts.py``, through ``to_dict()``), so
    drawing skips it.
    """
    cls = type(chart)
    if cls in _UNVALIDATED.values():
        return chart
    if cls not in _UNVALIDATED:

        def to_dict(self, *args, validate: bool = False, **kwargs):
            return cls.to_dict(self, *args, validate=validate, **kwargs)

        _UNVALIDATED[cls] = type(cls.__name__, (cls,), {"to_dict": to_dict})
    object.__setattr__(chart, "__class__", _UNVALIDATED[cls])  # Altair's __setattr__ would store a field
    return chart


_PARTS = ("layer", "hconcat", "vconcat", "concat")  # a compound chart's lists of subcharts


def _subcharts(chart: alt.TopLevelMixin) -> dict[str, list | alt.SchemaBase]:
    """A compound chart's subcharts, by field: its lists of them, and a facet's inner chart ("spec")."""
    found = {part: chart._kwds[part] for part in _PARTS if isinstance(chart._kwds.get(part), list)}
    if isinstance(chart._kwds.get("spec"), alt.SchemaBase):
        found["spec"] = chart._kwds["spec"]
    return found


def _with_frame(chart: alt.TopLevelMixin, old: pd.DataFrame, new: pd.DataFrame) -> alt.TopLevelMixin:
    """A shallow copy of ``chart`` in which every (sub)chart whose data is ``old`` holds ``new``."""
    fields = {"data": new} if chart._kwds.get("data") is old else {}
    for field, sub in _subcharts(chart).items():
        fields[field] = (
            [_with_frame(c, old, new) for c in sub] if isinstance(sub, list) else _with_frame(sub, old, new)
        )
    out = copy.copy(chart)
    object.__setattr__(out, "_kwds", {**chart._kwds, **fields})
    for attribute in (
        "_template",
        "_frame",
        "_stand_ins",
        "_live_names",
        "_holders",
        "_reals",
        "_browser",
        "_sent",
    ):
        out.__dict__.pop(attribute, None)
    return out


def _draws(chart: alt.TopLevelMixin, frame: pd.DataFrame) -> bool:
    """Whether ``chart`` or one of its subcharts has ``frame`` itself as its data."""
    subcharts = [c for sub in _subcharts(chart).values() for c in (sub if isinstance(sub, list) else [sub])]
    return chart._kwds.get("data") is frame or any(_draws(c, frame) for c in subcharts)


class Templates:
    """Chart templates, one per shape of chart, the least recently used dropped past ``max_entries``.

    ``chart(build, frame, args, kwargs, shape, live, fill)`` is ``build(frame, *args, **kwargs)``'s chart,
    as a copy of the template for its shape with its own frame in it. A builder is a plain function
    ``build(frame, ...)``; what it reads from the frame's values and which arguments it writes into the
    chart as they are is said by whoever applies the template:

    - ``shape(frame, **arguments)`` (every argument of ``build`` by name, defaults filled in): what the
      builder reads from the frame's values, e.g. whether it has ≤ 64 rows when that decides the marks
      (``same_data``: the values themselves). Calls with the same arguments and shape, on frames of the
      same columns and dtypes, copy one template (its frame emptied).
    - ``live``: arguments (numbers or strings, or tuples of them) the builder writes into the chart as
      they are, such as a colour scale's ends or a description: one template serves every value of
      them. It is built with stand-ins, which each copy replaces by its own (None is no value: another
      template).
    - ``fill``: for an argument the builder computes from the data when it is None (a description, a
      colour scale's ends), ``fill[name](frame, **arguments)`` gives that value, so the copy is given it
      as a live value.
    """

    def __init__(self, max_entries: int = MAX_TEMPLATES):
        self.max_entries = max_entries
        self._kept: OrderedDict[tuple, alt.TopLevelMixin] = OrderedDict()
        self._signatures: dict[Callable, inspect.Signature] = {}  # a builder's, read once
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        """Drop every template (they are rebuilt on their next use)."""
        with self._lock:
            self._kept.clear()

    def chart(
        self,
        build: Callable[..., alt.TopLevelMixin],
        frame: pd.DataFrame,
        args: tuple = (),
        kwargs: dict | None = None,
        shape: Callable[..., object] | None = None,
        live: tuple[str, ...] = (),
        fill: dict[str, Callable[..., object]] | None = None,
    ) -> alt.TopLevelMixin:
        """``build(frame, *args, **kwargs)``'s chart, a copy of its shape's template (see the class)."""
        signature = self._signatures.get(build)
        if signature is None:
            signature = self._signatures.setdefault(build, inspect.signature(build))
        bound = signature.bind(frame, *args, **(kwargs or {}))
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments[next(iter(arguments))]  # the frame
        for name, compute in (fill or {}).items():
            if arguments[name] is None:
                arguments[name] = compute(frame, **arguments)
        values = [_numbers(arguments[name]) for name in live]
        key = (
            build.__module__,
            build.__qualname__,
            repr({name: value for name, value in arguments.items() if name not in live}),
            repr([None if v is None else len(v) for v in values]),
            repr(list(frame.columns)),
            repr(list(frame.dtypes)),
            shape(frame, **arguments) if shape else (),
        )
        with self._lock:
            template = self._kept.get(key)
            if template is not None:
                self._kept.move_to_end(key)
        if template is None:
            template = _template(build, {**bound.arguments, **arguments}, frame, live)
            with self._lock:
                template = self._kept.setdefault(key, template)
                while len(self._kept) > self.max_entries:
                    self._kept.popitem(last=False)
        reals = [x for v in values if v is not None for x in v]
        stand_ins = dict(zip(template.__dict__["_stand_ins"], reals, strict=True))
        own = _substituted(template, stand_ins, template.__dict__["_holders"]) if stand_ins else template
        chart = _with_frame(own, template.__dict__["_frame"], frame)
        object.__setattr__(chart, "_template", template)
        object.__setattr__(chart, "_frame", frame)
        object.__setattr__(chart, "_reals", stand_ins)  # the browser's spec (core.views.browser_spec)
        return chart


_STAND_IN = 1.2345678901e-200  # stand-in k is _STAND_IN * (1 + k / 1000): no chart holds such a number
_LIVE = (float, str)  # what a live argument holds: numbers (ints are written as floats) and strings


def _stand_in(value, k: int) -> float | str:
    """The k-th stand-in of a template, for a live ``value`` of that type: no chart holds either."""
    return f"\x00live {k}\x00" if isinstance(value, str) else _STAND_IN * (1 + k / 1000)


def _numbers(value) -> tuple | None:
    """A live argument's values, in order (None stays None: the builder may draw something else)."""
    if value is None:
        return None
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _template(build, arguments: dict, frame: pd.DataFrame, live: tuple[str, ...]) -> alt.TopLevelMixin:
    """``build``'s chart for ``arguments`` with stand-ins for the live ones, its frame emptied."""
    stand_ins, names, given = [], [], dict(arguments)
    for name in live:
        value = given[name]
        if value is None:
            continue
        numbers = [_stand_in(v, len(stand_ins) + k) for k, v in enumerate(_numbers(value))]
        stand_ins += numbers
        names += [name] if len(numbers) == 1 else [f"{name} {k + 1}" for k in range(len(numbers))]
        given[name] = type(value)(numbers) if isinstance(value, (tuple, list)) else numbers[0]
    empty = frame.iloc[:0]
    template = _with_frame(build(**given), frame, empty)
    if not _draws(template, empty):
        raise ValueError(f"{build.__qualname__}: the chart does not draw its frame as it was given")
    holders: set[int] = set()
    found = _find_holders(template, set(stand_ins), holders)
    if found != set(stand_ins):
        raise ValueError(f"{build.__qualname__}: a live argument is not written into the chart as it is")
    object.__setattr__(template, "_frame", empty)
    object.__setattr__(template, "_stand_ins", stand_ins)
    object.__setattr__(template, "_live_names", dict(zip(stand_ins, names, strict=True)))
    object.__setattr__(template, "_holders", holders)
    return template


def _find_holders(value, stand_ins: set, holders: set[int]) -> set:
    """The stand-ins ``value`` (a chart, a part of one, a list, …) holds; the ids of the parts that hold
    one go into ``holders``, so that a copy walks only those (``_substituted``). A chart is converted
    with its values as they are, so a stand-in missing here was changed by its builder."""
    if isinstance(value, _LIVE):
        return {value} & stand_ins
    if isinstance(value, alt.SchemaBase):
        parts = [value._args, value._kwds]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    elif isinstance(value, dict):
        parts = list(value.values())
    else:
        return set()
    found = set().union(*(_find_holders(part, stand_ins, holders) for part in parts))
    if found:
        holders.add(id(value))
    return found


def _substituted(value, numbers: dict, holders: set[int]):
    """``value`` (a template, a part of one, a list, …) with each stand-in replaced: copies of
    the parts that hold one (``holders``: their ids), the same objects elsewhere."""
    if isinstance(value, _LIVE):
        return numbers.get(value, value)
    if id(value) not in holders:
        return value
    if isinstance(value, alt.SchemaBase):
        args, kwds = _substituted(value._args, numbers, holders), _substituted(value._kwds, numbers, holders)
        if args is value._args and kwds is value._kwds:
            return value
        out = copy.copy(value)
        object.__setattr__(out, "_args", args)
        object.__setattr__(out, "_kwds", kwds)
        return out
    if isinstance(value, (list, tuple)):
        items = [_substituted(x, numbers, holders) for x in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else type(value)(items)
    if isinstance(value, dict):  # a chart's fields: most hold no stand-in, and are not walked
        items = {
            k: _substituted(x, numbers, holders) if isinstance(x, _LIVE) or id(x) in holders else x
            for k, x in value.items()
        }
        return value if all(items[k] is value[k] for k in value) else items
    return value


def same_data(frame: pd.DataFrame, **_) -> str:
    """A ``shape`` for builders that read much from their frame's values (axis ends, the categories
    present): the values themselves, so a template serves the reruns that draw the same data (those
    where other settings changed) and any other data builds its own."""
    digest = hashlib.blake2b(
        pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes(), digest_size=16
    )
    return digest.hexdigest()
