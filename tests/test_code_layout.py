"""The product's layout, read from its source with ``ast``: short modules, short functions, and imports
that only go down.

The product is ``core/``, ``ui/``, ``pages/``, ``app_script.py`` and ``streamlit_app.py``. Every import
counts, also one inside a function (it closes a circle as surely, only later). Each check is a plain
function of sources or of a graph, so the tests at the end can show that it fails on a small example.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

from tests.ui.test_import_layers import cycles

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60  # from the def line to the last line, docstring included

# Functions a page's script shows to students whole (``core.scripts.common.source``), which may run
# longer than MAX_FUNCTION_LINES so that they read as the papers write them: none so far.
SHOWN_TO_STUDENTS: frozenset[str] = frozenset()

# Modules ("path") and functions ("path:name") that are too long today and are being split now; the
# lead empties this set once that work is merged.
BEING_SPLIT = frozenset(
    {
        "core/attention/facts.py:key_fact",
    }
)

TOPS = ("core", "ui", "pages", "app_script", "streamlit_app")  # the product's top-level names
MAY_IMPORT = {  # each top-level name's layer may import these (never one above it)
    "core": {"core"},
    "ui": {"core", "ui"},
    "pages": {"core", "ui"},
    "app_script": {"core", "ui"},
    "streamlit_app": {"core", "ui"},
}


def product_files() -> list[Path]:
    """Every product module, sorted."""
    files = [*(ROOT / "core").rglob("*.py"), *(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py")]
    return sorted([*files, ROOT / "app_script.py", ROOT / "streamlit_app.py"])


def sources() -> dict[str, str]:
    """Each product module's text by its path from the root ("core/order.py")."""
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in product_files()}


def other_sources() -> dict[str, str]:
    """The tests', benchmarks' and tools' modules, which import the product's names too."""
    files = [p for folder in ("tests", "benchmarks", "tools") for p in (ROOT / folder).rglob("*.py")]
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}


def module_name(path: str) -> str:
    """A module's dotted name: core/text/vocab.py is core.text.vocab; a package's ``__init__.py`` is the
    package."""
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# --- Lengths --------------------------------------------------------------------------------------


def long_modules(texts: dict[str, str]) -> list[str]:
    """Every module over ``MAX_MODULE_LINES``, as "path (n lines)"."""
    counts = {path: len(text.splitlines()) for path, text in texts.items()}
    return [f"{path} ({n} lines)" for path, n in counts.items() if n > MAX_MODULE_LINES]


def functions(tree: ast.AST, prefix: str = "") -> Iterable[tuple[str, ast.AST]]:
    """Every function and method in ``tree``, at any depth, with its dotted name ("Class.method")."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = f"{prefix}{node.name}"
            if not isinstance(node, ast.ClassDef):
                yield name, node
            yield from functions(node, f"{name}.")
        else:
            yield from functions(node, prefix)


def long_functions(texts: dict[str, str]) -> list[str]:
    """Every function over ``MAX_FUNCTION_LINES``, as "path:name (n lines)"."""
    found = []
    for path, text in texts.items():
        for name, node in functions(ast.parse(text)):
            n = node.end_lineno - node.lineno + 1
            if n > MAX_FUNCTION_LINES:
                found.append(f"{path}:{name} ({n} lines)")
    return found


def unexcused(offenders: list[str], excused: frozenset[str]) -> list[str]:
    """The offenders ("what (n lines)") that ``excused`` does not name."""
    return [o for o in offenders if o.rsplit(" (", 1)[0] not in excused]


# --- Imports --------------------------------------------------------------------------------------


def imported(path: str, text: str) -> set[str]:
    """Every dotted name the module imports, anywhere in it: ``from a.b import c`` gives ``a.b`` and
    ``a.b.c`` (c may be a module); a package's ``__init__`` also names the modules it exports lazily
    (a string such as "core.text.tokenizer")."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import (the product imports by full name)"
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif path.endswith("__init__.py") and isinstance(node, ast.Constant) and isinstance(node.value, str):
            if re.fullmatch(r"(core|ui)(\.\w+)+", node.value):
                names.add(node.value)
    return {n for n in names if n.split(".")[0] in TOPS}


def upward_imports(texts: dict[str, str]) -> list[str]:
    """Every import of a layer above the module's own (core < ui < pages and the entry points), as
    "path → name"."""
    found = []
    for path, text in texts.items():
        top = module_name(path).split(".")[0]
        found += [
            f"{path} → {n}" for n in sorted(imported(path, text)) if n.split(".")[0] not in MAY_IMPORT[top]
        ]
    return found


def core_unit(name: str) -> str:
    """The package or loose module of core a dotted name belongs to: "core.text.vocab" → "core.text"."""
    return ".".join(name.split(".")[:2])


def core_graph(texts: dict[str, str]) -> dict[str, set[str]]:
    """Each core package or loose module (and the root ``core``) → the others it imports."""
    core = {path: text for path, text in texts.items() if path.startswith("core/")}
    units = {core_unit(module_name(path)) for path in core}
    graph: dict[str, set[str]] = {unit: set() for unit in units}
    for path, text in core.items():
        unit = core_unit(module_name(path))
        targets = {core_unit(n) for n in imported(path, text) if n.split(".")[0] == "core"}
        graph[unit] |= {t if t in units else "core" for t in targets} - {unit}  # else a name of core's own
    return graph


def written_layers(docstring: str) -> dict[str, int]:
    """Each core unit's layer in ``core/__init__.py``'s numbered list ("1. ``serving``: …"); the root
    ``core`` (its helpers) is layer 0."""
    layers = {"core": 0}
    for number, names in re.findall(r"^(\d+)\. ((?:``\w+``(?:, )?)+)", docstring, re.MULTILINE):
        layers.update({f"core.{name}": int(number) for name in re.findall(r"``(\w+)``", names)})
    return layers


def against_the_layers(graph: dict[str, set[str]], layers: dict[str, int]) -> list[str]:
    """Every import of a higher layer, as "a → b", and "a: no layer" for a unit the list leaves out."""
    found = [f"{unit}: no layer" for unit in sorted(graph) if unit not in layers]
    for unit, targets in sorted(graph.items()):
        found += [f"{unit} → {t}" for t in sorted(targets) if layers.get(t, 99) > layers.get(unit, -1)]
    return found


def re_exports(texts: dict[str, str]) -> list[str]:
    """Each name a package's ``__init__.py`` hands out for its submodules, as "path: name": one imported
    from a submodule that the package's own code does not use, or ``lazy_exports``."""
    found = []
    for path, text in texts.items():
        if not path.endswith("__init__.py"):
            continue
        package = module_name(path)
        tree = ast.parse(text)
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module.startswith(f"{package}."):
                found += [f"{path}: {alias.name}" for alias in node.names if alias.name not in used]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_exports":
                found.append(f"{path}: lazy_exports")
    return found


# --- The product ----------------------------------------------------------------------------------


def test_no_module_is_over_500_lines():
    assert unexcused(long_modules(sources()), BEING_SPLIT) == []


def test_no_function_is_over_60_lines():
    assert unexcused(long_functions(sources()), BEING_SPLIT | SHOWN_TO_STUDENTS) == []


def test_no_layer_imports_one_above_it():
    assert upward_imports(sources()) == []


def test_no_core_packages_import_each_other_directly_or_round_a_circle():
    assert cycles(core_graph(sources())) == []


def test_core_imports_follow_the_layers_its_docstring_lists():
    layers = written_layers((ROOT / "core" / "__init__.py").read_text(encoding="utf-8"))
    assert len(layers) > 10, "core/__init__.py lists no layers"
    assert against_the_layers(core_graph(sources()), layers) == []


def test_one_import_path_per_public_name():
    assert re_exports(sources()) == []
    assert borrowed_imports({**sources(), **other_sources()}) == []


def defined_names(text: str) -> set[str]:
    """The names a module defines itself (functions, classes, assignments), at any depth of its top level's
    ``if``/``try``/``with`` blocks, not the ones it imports."""
    names = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def borrowed_imports(texts: dict[str, str]) -> list[str]:
    """Each ``from M import name`` (M a product module) where M does not define ``name`` itself but imports
    it: the name has one import path, the module that defines it."""
    modules = {module_name(path): text for path, text in texts.items()}
    found = []
    for path, text in texts.items():
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules):
                continue
            defined = defined_names(modules[node.module])
            found += [
                f"{path}: {alias.name} from {node.module}"
                for alias in node.names
                if f"{node.module}.{alias.name}" not in modules and alias.name not in defined
            ]
    return found


# --- Each check fails where it should -------------------------------------------------------------


def test_the_length_checks_catch_a_long_module_and_function_and_spare_the_excused():
    fits = "def fits():\n" + "    pass\n" * 59  # 60 lines
    long = "class C:\n    def long(self):\n" + "        pass\n" * 60  # 61 lines
    texts = {"core/a.py": fits, "core/b.py": long, "core/c.py": "x = 1\n" * 501}
    assert long_modules(texts) == ["core/c.py (501 lines)"]
    assert long_functions(texts) == ["core/b.py:C.long (61 lines)"]
    assert unexcused(long_functions(texts), frozenset({"core/b.py:C.long"})) == []


def test_the_layer_check_catches_core_importing_ui_even_inside_a_function():
    texts = {
        "core/a.py": "def f():\n    from ui.widgets import slider\n",
        "ui/b.py": "from core.a import f\n",
        "pages/P.py": "import ui.b\nfrom core import a\n",
        "ui/c.py": "from pages import P\n",
    }
    assert upward_imports(texts) == [
        "core/a.py → ui.widgets",
        "core/a.py → ui.widgets.slider",
        "ui/c.py → pages",
        "ui/c.py → pages.P",
    ]


def test_the_cycle_check_catches_two_packages_and_a_longer_circle():
    texts = {
        "core/text/vocab.py": "def f():\n    from core.views.units import plural\n",
        "core/views/charts.py": "from core.text.vocab import f\n",
        "core/config.py": "import core.pipeline\n",
        "core/pipeline.py": "from core.order import x\n",
        "core/order.py": "from core.config import y\n",
        "core/similarity.py": "from core.text import vocab\n",
    }
    graph = core_graph(texts)
    assert graph["core.similarity"] == {"core.text"}
    assert cycles(graph) == [["core.config", "core.order", "core.pipeline"], ["core.text", "core.views"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_layer_order_check_catches_an_import_up_and_an_unlisted_package():
    layers = written_layers("Layers:\n\n1. ``text``: first;\n2. ``views``, ``order``: then.\n")
    assert layers == {"core": 0, "core.text": 1, "core.views": 2, "core.order": 2}
    graph = {"core.text": {"core.views"}, "core.views": {"core.text", "core.order"}, "core.new": set()}
    assert against_the_layers(graph, layers) == ["core.new: no layer", "core.text → core.views"]


def test_the_re_export_check_catches_imports_from_submodules_and_lazy_exports():
    texts = {
        "core/text/__init__.py": "from core import lazy_exports\n__getattr__, _ = lazy_exports('x', {})\n",
        "core/attention/__init__.py": "from core.attention.heads import RandomHead\n",
        # a class of its own, and a name from outside the package: one import path each
        "core/scripts/__init__.py": "from dataclasses import dataclass\n\n\nclass Cell:\n    code: str\n",
    }
    assert re_exports(texts) == [
        "core/text/__init__.py: lazy_exports",
        "core/attention/__init__.py: RandomHead",
    ]


def test_the_one_path_check_catches_a_name_taken_from_a_module_that_only_imports_it():
    texts = {
        "core/a.py": "X = 1\n",
        "core/b.py": "from core.a import X\n",
        "ui/c.py": "from core.b import X\n",
        "ui/d.py": "from core.a import X\nfrom core import a\n",
    }
    assert borrowed_imports(texts) == ["ui/c.py: X from core.b"]
