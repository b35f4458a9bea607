"""What a server process keeps between runs is listed in one place, ``ui.server.cache.KEPT``, and each
cache's hits and builds are counted there (``stats()``).

The source of ``core/`` and ``ui/`` is read with ``ast``: every cache (a ``per_process``,
``SHARED.cached``, ``functools.cache`` or ``lru_cache`` decorator or call, a ``kept_chart`` or
``SHARED.kept_or_computed`` call) and every module-level name a function rebinds (``global``) or changes
(``append``, ``x[k] = v``…) must be listed, and every listed name must still be one of them. A state
object changed only through methods of its own (not those) is not found: list it by hand.
"""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path

import pytest

from core.serving.lru import Counts
from ui.server import cache

ROOT = Path(__file__).resolve().parents[3]
CACHING = {"per_process", "cached", "cache", "lru_cache", "cache_data", "cache_resource"}
CHANGING = {"append", "extend", "add", "update", "setdefault", "pop", "popitem", "clear", "remove"}
CHANGING |= {"discard", "insert", "put", "appendleft"}


def called(node: ast.expr) -> str:
    """The last name of a decorator or call: ``per_process`` for ``@cache.per_process(max_entries=2)``."""
    node = node.func if isinstance(node, ast.Call) else node
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


class _Finder(ast.NodeVisitor):
    """Walks one module, naming what it keeps by its qualified name, with how (``kept_in``)."""

    def __init__(self, module: str, top: set[str]):
        self.module, self.top, self.found = module, top, {}
        self.scope: list[tuple[str, bool]] = []  # the classes and functions around a node: (name, a function)

    def keep(self, name: str, how: str) -> None:
        self.found.setdefault(f"{self.module}.{name}", how)

    def inside(self, node: ast.AST, name: str, function: bool) -> None:
        self.scope.append((name, function))
        self.generic_visit(node)
        self.scope.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.inside(node, node.name, False)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for decorator in node.decorator_list:
            if called(decorator) in CACHING:
                self.keep(".".join([*(n for n, _ in self.scope), node.name]), called(decorator))
        self.inside(node, node.name, True)

    visit_AsyncFunctionDef = visit_FunctionDef

    def outer(self) -> str:
        """The outermost function around this node, with its classes: the name ``kept_chart`` counts."""
        first = next(i for i, (_, function) in enumerate(self.scope) if function)
        return ".".join(name for name, _ in self.scope[: first + 1])

    def visit_Call(self, node: ast.Call) -> None:
        shared = isinstance(node.func, ast.Attribute) and called(node.func.value) == "SHARED"
        if self.scope and (called(node) == "kept_chart" or (shared and called(node) == "kept_or_computed")):
            self.keep(self.outer(), "kept chart" if called(node) == "kept_chart" else "cached")
        if self.scope and isinstance(node.func, ast.Attribute) and called(node.func) in CHANGING:
            if isinstance(node.func.value, ast.Name) and node.func.value.id in self.top:
                self.keep(node.func.value.id, "state")
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        for name in node.names:
            self.keep(name, "state")

    def changed(self, targets: list[ast.expr]) -> None:
        for target in targets:
            if isinstance(target, (ast.Subscript, ast.Attribute)) and isinstance(target.value, ast.Name):
                if self.scope and target.value.id in self.top:
                    self.keep(target.value.id, "state")

    def visit_Assign(self, node: ast.Assign) -> None:
        made = node.value
        if not self.scope and isinstance(made, ast.Call):  # ``name = functools.lru_cache(...)(fn)``
            if called(made) in CACHING or (isinstance(made.func, ast.Call) and called(made.func) in CACHING):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.keep(target.id, "call")
        self.changed(node.targets)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.changed([node.target])
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        self.changed(node.targets)
        self.generic_visit(node)


def kept_in(source: str, module: str) -> dict[str, str]:
    """What module ``module`` (its ``source``) keeps between runs: qualified name -> how it was found."""
    tree = ast.parse(source)
    top = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        top |= {t.id for t in targets if isinstance(t, ast.Name)}
    finder = _Finder(module, top)
    finder.visit(tree)
    return finder.found


def problems(found: set[str], listed: set[str]) -> list[str]:
    """Why the inventory ``listed`` is wrong for what the code keeps (``found``): none when it is right."""
    return [
        f"{name} is kept between runs but not listed in ui.server.cache.KEPT" for name in found - listed
    ] + [f"{name} is listed in ui.server.cache.KEPT but nothing keeps it any more" for name in listed - found]


def resolved(what: str) -> object:
    """The object a qualified name names: the longest importable module, then attributes."""
    parts = what.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        return functools.reduce(getattr, parts[cut:], found)
    raise LookupError(what)


@functools.cache
def found_in_the_code() -> dict[str, str]:
    """What ``core/`` and ``ui/`` keep between runs (``kept_in`` over every module)."""
    found = {}
    for path in sorted([*(ROOT / "core").rglob("*.py"), *(ROOT / "ui").rglob("*.py")]):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found |= kept_in(path.read_text(encoding="utf-8"), module)
    return found


LISTED = {kept.what for kept in cache.KEPT}


def test_everything_core_and_ui_keep_between_runs_is_in_the_inventory_and_nothing_more():
    assert len(LISTED) == len(cache.KEPT), "a name is listed twice"
    assert not problems(set(found_in_the_code()), LISTED)


def test_the_check_fails_on_a_cache_or_state_left_out_and_on_a_name_listed_in_vain():
    source = """
import functools
from functools import lru_cache
from core.serving.lru import Counts
from ui.server import cache

QUEUE = []
CONSTANT = {"a": 1}
_built = None
_rows = functools.lru_cache(maxsize=2)(len)

@cache.per_process(max_entries=2)
def a(): ...

@cache.SHARED.cached
def b(): ...

@lru_cache(maxsize=4)
def c(): ...

class D:
    @functools.cache
    def e(self): ...

def f():
    return cache.kept_chart((), (), lambda: (None, 0))

def g():
    global _built
    _built = 1
    QUEUE.append(1)
    return CONSTANT.get("a")
"""
    found = set(kept_in(source, "ui.new"))
    named = {"QUEUE", "_built", "_rows", "a", "b", "c", "D.e", "f"}
    assert found == {f"ui.new.{name}" for name in named}  # not CONSTANT, which no function changes
    assert len(problems(found | LISTED, LISTED)) == len(found)  # each one left out fails the check
    assert problems(LISTED - {"ui.server.cache.text_size"}, LISTED) == [
        "ui.server.cache.text_size is listed in ui.server.cache.KEPT but nothing keeps it any more"
    ]


def test_every_listed_name_exists_and_its_bound_is_the_caches_own():
    for kept in cache.KEPT:
        found, how = resolved(kept.what), found_in_the_code()[kept.what]
        entries = found.cache_info().maxsize if hasattr(found, "cache_info") else None  # functools'
        entries = found.max_entries if how == "per_process" else entries
        if entries is not None:
            assert kept.bound == ("1 entry" if entries == 1 else f"{entries} entries"), kept.what
        elif how in ("cached", "kept chart"):
            assert kept.bound == cache.IN_SHARED, kept.what
        assert kept.why and kept.bound, kept.what


def test_every_cache_the_modules_make_at_import_is_counted_under_a_listed_name():
    for module in {kept.what.rsplit(".", 1)[0] for kept in cache.KEPT}:
        importlib.import_module(module)
    made = set(cache.stats())
    assert {name for name in made if name.startswith(("core.", "ui."))} <= LISTED
    assert {"ui.families.compare.logit_panel", "core.text.tokenizer._gpt2_encoding"} <= made
    with pytest.raises(KeyError, match="not listed"):
        cache.counts("ui.families.compare.no_such_cache")


def drawn_here(values) -> object:
    def build():
        return object(), 100

    return cache.kept_chart(("test", "counted"), (values,), build)


def test_stats_count_each_caches_hits_and_builds_a_kept_chart_by_the_function_drawing_it():
    import torch

    name = f"{__name__}.drawn_here"
    values = torch.zeros(2)
    before = cache.stats().get(name, Counts())
    drawn_here(values)
    drawn_here(values)
    drawn_here(torch.zeros(2))  # another object: built again
    assert cache.stats()[name] - before == Counts(hits=1, builds=2)

    before = cache.counts("ui.server.cache.text_size")
    cache.text_size("a text no other test sizes")
    cache.text_size("a text no other test sizes")
    assert cache.counts("ui.server.cache.text_size") - before == Counts(hits=1, builds=1)
