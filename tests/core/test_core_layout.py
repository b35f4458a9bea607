"""core/ reads like the lesson: packages by the pipeline's step, a few loose modules, no Streamlit.

Every module under core/, in every subpackage, is pure Python + torch: it never imports streamlit,
not even inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
MAX_LOOSE_MODULES = 8  # the joints between the steps (docs/architecture.md)


def top_modules(node: ast.AST) -> set[str]:
    """The top-level package of every import in ``node``, at any depth."""
    tops = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Import):
            tops.update(alias.name.split(".")[0] for alias in sub.names)
        elif isinstance(sub, ast.ImportFrom) and sub.module:
            tops.add(sub.module.split(".")[0])
    return tops


def test_the_import_reader_sees_imports_inside_functions():
    code = "import os\ndef f():\n    from streamlit.runtime import exists\n"
    assert top_modules(ast.parse(code)) == {"os", "streamlit"}


def test_core_never_imports_streamlit_in_any_subpackage():
    files = sorted(CORE.rglob("*.py"))
    assert any(p.parent != CORE for p in files), "the walk reaches no subpackage"
    offenders = [
        str(p.relative_to(CORE.parent))
        for p in files
        if "streamlit" in top_modules(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert offenders == []


def test_core_has_at_most_eight_loose_modules():
    loose = sorted(p.stem for p in CORE.glob("*.py") if p.name != "__init__.py")
    assert len(loose) <= MAX_LOOSE_MODULES, f"{len(loose)} loose modules in core/: {loose}"


def test_every_core_package_says_which_step_it_is():
    packages = sorted(p for p in CORE.iterdir() if p.is_dir() and any(p.glob("*.py")))
    assert len(packages) >= 5
    for package in packages:
        init = package / "__init__.py"
        assert init.exists(), f"{package.name} has no __init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"{init} has no docstring"
