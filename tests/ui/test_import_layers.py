"""ui/ and core/ are layered: no module imports, directly or through others, a module that imports it.

Every import counts, also those inside functions (a function-level import that closes a circle only
hides it until that function runs). ui/ reads top to bottom as
``ui.app`` → ``ui.navigation`` / ``ui.sidebar`` → the drawing helpers (``ui.page_setup``, ``ui.figures``,
…) → ``ui.presenter``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "ui")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def imported(path: Path) -> set[str]:
    """Every dotted name ``path`` imports, anywhere in the file: ``from a.b import c`` gives ``a.b`` and
    ``a.b.c`` (c may be a module); a package's ``__init__`` also names the modules it exports lazily."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import (the project imports by full name)"
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif path.name == "__init__.py" and isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
    return names


def import_graph() -> dict[str, set[str]]:
    """Module → the project's modules it imports (a name resolves to its longest known module)."""
    known = modules()

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, path in known.items():
        targets = {resolve(x) for x in imported(path)}
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_circle_through_three_modules_and_none_in_a_chain():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_function_level_imports_are_edges():
    graph = import_graph()
    assert "ui.presenter" in graph["ui.charts"]  # imported at the top
    assert "core.training.training" in graph["core.training.train_queue"]


def test_no_module_of_ui_or_core_is_part_of_an_import_circle():
    circles = cycles(import_graph())
    assert circles == [], "import circles: " + "; ".join(" ↔ ".join(c) for c in circles)


HELPERS = ("ui.page_setup", "ui.token_chips", "ui.tables", "ui.figures", "ui.downloads")  # drawing helpers


def test_ui_is_layered_app_over_navigation_and_sidebar_over_drawing_helpers_and_presenter():
    graph = import_graph()
    assert {"ui.navigation", "ui.sidebar", "ui.page_setup", "ui.presenter"} <= graph["ui.app"]
    for lower in ("ui.navigation", "ui.sidebar", *HELPERS, "ui.presenter"):
        assert "ui.app" not in graph[lower], f"{lower} imports ui.app"
    assert not set(HELPERS) & graph["ui.presenter"]
