"""Following the settings through a view: each view's lesson runs in one core function, with what the
server keeps and reserves around it, not between its steps.

``walk`` records, with ``sys.setprofile``, every Python call whose frame's locals hold the settings
passed to the view's entry: the very ``PipelineConfig`` object, or settings made from it (a
``PipelineConfig`` returned by such a frame, as ``dataclasses.replace``'s copy, or handed from one to a
function it calls), directly or in a tuple, list or dict (a cache's arguments and key). From the
project's modules those calls run in, in order, it counts the modules entered and the climbs back up:
a call in a ``ui`` module right after one in a ``core`` module (a ``core`` cache calling a ``ui``
function, or ``core`` asking the seam for a step).
"""

from __future__ import annotations

import dataclasses
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

from core.config import PipelineConfig
from core.positional.family import FamilyConfig
from core.text.samples import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("core", "ui", "pages")  # the project's code (tests and the standard library are not)
MOST_MODULES, MOST_CLIMBS = 6, 2
CAT = (" The cat sat on the mat", " On the mat the cat sat")


def project_module(code: types.CodeType) -> str | None:
    """The project module ``code`` belongs to ("ui.server.cache"), from its file; None outside it."""
    try:
        parts = Path(code.co_filename).resolve().relative_to(ROOT).with_suffix("").parts
    except ValueError:
        return None
    if not parts or parts[0] not in LAYERS:
        return None
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SMALL = 64  # items of a container searched for the settings: arguments and keys, not a vocabulary


def holds(value: object, settings: list[object], depth: int = 2) -> bool:
    """Whether ``value`` is one of ``settings``, or holds one in its small tuples, lists and dicts."""
    if any(value is s for s in settings):
        return True
    if not depth or not isinstance(value, (tuple, list, set, frozenset, dict)) or len(value) > SMALL:
        return False
    return any(holds(v, settings, depth - 1) for v in (value.values() if isinstance(value, dict) else value))


@dataclass(frozen=True)
class Walk:
    """The calls that held the settings, in order: (module, function) of each in the project."""

    calls: list[tuple[str, str]]

    @property
    def modules(self) -> list[str]:
        """The distinct modules entered, in order."""
        return list(dict.fromkeys(module for module, _ in self.calls))

    @property
    def climbs(self) -> int:
        """How often the walk goes from a ``core`` module up into a ``ui`` one."""
        path = [module for module, _ in self.calls]
        pairs = zip(path, path[1:], strict=False)
        return sum(a.startswith("core.") and b.startswith("ui.") for a, b in pairs)

    @property
    def returns(self) -> int:
        """How often the walk comes back to a module it had left."""
        path = [module for module, _ in self.calls]
        seen, back = set(), 0
        for k, module in enumerate(path):
            if k and path[k - 1] != module:
                back += module in seen
            seen.add(module)
        return back


def walk(entry, cfg: PipelineConfig, *args) -> tuple[object, Walk]:
    """``entry(cfg, *args)``'s result, and the walk of ``cfg`` through it."""
    settings: list[object] = [cfg]
    holding: set[int] = set()  # the frames that hold the settings, while they run
    calls: list[tuple[str, str]] = []

    def profile(frame, event, arg):
        if event == "call":
            values = list(frame.f_locals.values())
            if not any(holds(v, settings) for v in values):
                made = [v for v in values if isinstance(v, PipelineConfig)]
                if not made or id(frame.f_back) not in holding:
                    return
                settings.extend(made)  # settings handed down from a frame that holds them
            holding.add(id(frame))
            if (module := project_module(frame.f_code)) is not None:
                calls.append((module, frame.f_code.co_qualname))
        elif event == "return" and id(frame) in holding:
            holding.discard(id(frame))
            if isinstance(arg, PipelineConfig):
                settings.append(arg)  # settings made from them (a copy with a field replaced)

    sys.setprofile(profile)
    try:
        result = entry(cfg, *args)
    finally:
        sys.setprofile(None)
    return result, Walk(calls)


def assert_short(trip: Walk) -> None:
    assert len(trip.modules) <= MOST_MODULES, trip.modules
    assert trip.climbs <= MOST_CLIMBS, trip.calls


def test_the_attention_maps_take_the_settings_through_one_core_function(fresh_caches):
    from ui.attention.settings import current_settings
    from ui.server import cache

    chosen = current_settings()
    for text in CAT:  # as the page does first: the sentences' tokens are kept before the maps
        cache.token_ids(text)
    view, trip = walk(lambda cfg: cache.sentence_maps(CAT, cfg, chosen), PipelineConfig())
    assert view.method == "learned" and len(view.maps_a) > 1
    assert "core.attention.sentences" in trip.modules
    assert_short(trip)


@pytest.mark.parametrize("method", ["learned", "sinusoidal", "rope"])
def test_the_pipelines_views_take_the_settings_through_one_core_function(method, fresh_caches):
    from ui.server import cache

    cfg = PipelineConfig(method=method, seed=7)  # a Seed change: nothing kept for it
    batch = cache.batch_of(SAMPLES["lesson"], cfg.batch_size, cfg.context_length, cfg.stride, cfg.vocab_size)
    views, trip = walk(lambda c: cache.pipeline_views(c, batch, 1), cfg)
    assert views.grid.token_embeddings.shape[0] == 1
    assert "core.pipeline" in trip.modules
    assert_short(trip)


@pytest.mark.parametrize("view", ["logit_panel", "similarity_view"])
def test_the_families_views_take_the_settings_through_one_core_function(view, fresh_caches):
    from ui.families import compare

    fam = FamilyConfig()
    read = compare.panel_settings if view == "logit_panel" else compare.similarity_settings
    entry = getattr(compare, view)
    _, trip = walk(lambda cfg: entry("learned", read("learned", cfg), fam.items()), PipelineConfig(seed=5))
    assert "core.families" in trip.modules
    assert_short(trip)


def fake_module(name: str, source: str, **names) -> types.ModuleType:
    """A module whose code the walk places at ``name`` in the project (its file need not exist)."""
    module = types.ModuleType(name)
    module.__dict__.update(names)
    path = ROOT.joinpath(*name.split(".")).with_suffix(".py")
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


def test_a_walk_through_serving_between_the_steps_is_too_long():
    # A view whose core steps each ask ui for the next, the memory and the costs in between: seven
    # modules that hold the settings, three climbs; a frame given only numbers is not followed.
    cost = fake_module("core.fake_cost", "def bytes_of(cfg, n):\n    return n * cfg.output_dim\n")
    plain = fake_module("core.fake_plain", "def rows(n):\n    return list(range(n))\n")
    memory = fake_module("ui.fake_memory", "def reserve(cfg):\n    return cost.bytes_of(cfg, 4)\n", cost=cost)
    steps = fake_module(
        "core.fake_steps",
        "def positions(cfg):\n    return memory.reserve(cfg) + len(plain.rows(cfg.context_length))\n",
        memory=memory,
        plain=plain,
    )
    seam = fake_module(
        "ui.fake_seam", "def position_rows(cfg):\n    return steps.positions(cfg)\n", steps=steps
    )
    tokens = fake_module(
        "core.fake_tokens", "def token_rows(cfg):\n    return seam.position_rows(cfg)\n", seam=seam
    )
    page = fake_module(
        "ui.fake_page",
        "def view(cfg):\n    return tokens.token_rows(replace(cfg, seed=1))\n",
        tokens=tokens,
        replace=dataclasses.replace,
    )
    result, trip = walk(page.view, PipelineConfig())
    assert result == 4 * 256 + 4
    assert trip.modules == [
        "ui.fake_page",
        "core.fake_tokens",
        "ui.fake_seam",
        "core.fake_steps",
        "ui.fake_memory",
        "core.fake_cost",
    ]
    assert trip.climbs == 2 and trip.returns == 0
    assert_short(trip)  # six modules and two climbs still pass

    deeper = fake_module("core.fake_deeper", "def view(cfg):\n    return page.view(cfg)\n", page=page)
    _, trip = walk(deeper.view, PipelineConfig())
    assert len(trip.modules) == 7 and trip.climbs == 3
    with pytest.raises(AssertionError):
        assert_short(trip)
