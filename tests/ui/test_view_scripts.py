"""Every view's exported script runs in a fresh, isolated Python and prints what the page shows.

The tests that run a script are ``slow`` (a fresh Python importing torch, each).
"""

import json
import os
import subprocess
import sys

import pytest

from core.script_export import (
    inline_modules,
)


def run_script(code: str, tmp_path, name: str) -> tuple[dict, str]:
    """Run ``code`` with ``python -I`` (no PYTHONPATH, no project on the path) in ``tmp_path``."""
    script = tmp_path / name
    script.write_text(code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and k != "PYTHONPATH"}
    out = subprocess.run(
        [sys.executable, "-I", str(script)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stdout


def test_inlined_code_has_no_project_imports_and_no_duplicate_names():
    import ast

    source = inline_modules(("core.families", "core.training", "core.order", "core.pretrained"))
    tree = ast.parse("from __future__ import annotations\n" + source)
    imports = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [m for m in imports if m and m.startswith("core")]
    names = [
        n.name if not isinstance(n, ast.Assign) else n.targets[0].id
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.ClassDef))
        or (isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name))
    ]
    duplicated = {n for n in names if names.count(n) > 1}
    assert not duplicated, f"two inlined modules define {duplicated}"


@pytest.mark.parametrize(
    "page",
    [
        "pages/Pipeline.py",
        "pages/Why_position.py",
        "pages/Families.py",
        "pages/Training.py",
        "pages/Trained_positions.py",
    ],
)
def test_every_view_offers_its_code(page, open_page):
    at = open_page(page)
    assert "PyTorch code for this view" in [e.label for e in at.expander]
    code = "\n".join(c.value for c in at.code)
    assert "import torch" in code and "print(json.dumps(" in code
