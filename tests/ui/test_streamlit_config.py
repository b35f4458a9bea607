"""The server's settings in ``.streamlit/config.toml`` that the app's code relies on."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [ROOT / "app_script.py", *sorted((ROOT / "pages").glob("*.py"))]


def test_magic_is_off_and_no_script_needs_it():
    # Magic draws a script's bare expressions; with it off, such a line would silently show nothing.
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["magicEnabled"] is False
    for script in SCRIPTS:
        tree = ast.parse(script.read_text())
        docstrings = {
            id(node.body[0])
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        bare = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr)
            and not isinstance(node.value, (ast.Call, ast.Await))
            and id(node) not in docstrings
        ]
        assert not bare, f"{script.name}: bare expressions on lines {bare} (magic would have drawn them)"
