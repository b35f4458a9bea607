"""Every view's exported script runs in a fresh, isolated Python and prints what the page shows.

The tests that run a script are ``slow`` (a fresh Python importing torch, each).
"""

import json
import math
import os
import subprocess
import sys

import pytest
import torch

from core.config import FamilyConfig, PipelineConfig
from core.families import CURVE_POINTS, drawn_span, position_logits
from core.pipeline import sample_indices
from core.samples import SAMPLES
from core.script_export import (
    families_code,
    inline_modules,
    training_code,
)
from core.tokenizer import encode
from core.training import TrainConfig, train
from ui.families.compare import method_rows


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


@pytest.mark.slow
@pytest.mark.parametrize(
    "cfg, fam",
    [
        (PipelineConfig(context_length=32), FamilyConfig(extrapolate=2)),
        (
            PipelineConfig(context_length=64, output_dim=128, seed=3),
            FamilyConfig(layout="concat", init="hf"),
        ),
    ],
    ids=["default", "concat-hf-init"],
)
def test_families_script_prints_the_charts_curves(cfg, fam, tmp_path):
    result, _ = run_script(families_code(cfg, fam), tmp_path, "families.py")
    distances = sample_indices(drawn_span(cfg.context_length, fam), CURVE_POINTS)
    assert result["distances"] == distances.tolist()
    for method, curve in result["curves"].items():  # the page's own path: its cached rows, then core
        rows = method_rows(method, cfg, fam, distances)
        page = position_logits(method, distances, fam, cfg.output_dim, cfg.seed, rows, cfg.context_length)
        got = torch.tensor([math.nan if v is None else v for v in curve], dtype=torch.float64)
        assert torch.equal(got.isnan(), page.isnan()), method
        assert torch.equal(got.nan_to_num(), page.nan_to_num()), method
    assert any(v is None for v in result["curves"]["learned"])  # past T a learned table has no row


@pytest.mark.slow
def test_training_script_repeats_the_run(tmp_path):
    tcfg = TrainConfig(method="rope", context_length=8, size="tiny", steps=12, seed=4)
    text = SAMPLES["log"]  # longer than the inline limit: read from text.txt
    (tmp_path / "text.txt").write_text(text, encoding="utf-8")
    result, stdout = run_script(training_code(tcfg, text), tmp_path, "training.py")
    page = train(encode(text), tcfg)  # what the page's queue runs for the Train button
    assert result["steps"] == page.steps
    assert result["train_loss"] == page.train_loss
    assert result["val_loss"] == page.val_loss
    assert "validation loss" in stdout


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
