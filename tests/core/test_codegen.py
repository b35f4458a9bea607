"""The exported code runs in a fresh Python, with no network, and prints exactly what the app computes."""

import json
import os
import subprocess
import sys

import pytest
import torch

from core.codegen import pipeline_code
from core.config import PipelineConfig
from core.data import first_batch
from core.embeddings import token_embedding_rows
from core.pipeline import TABLE_DIMS, TABLE_POSITIONS, embedding_view, position_rows
from core.samples import SAMPLES
from core.tokenizer import encode


def app_corner(cfg: PipelineConfig, text: str) -> torch.Tensor:
    """What the pipeline page computes for its corner table, through core."""
    batch = first_batch(encode(text, cfg.vocab_size), cfg.batch_size, cfg.context_length, cfg.stride)
    rows = token_embedding_rows(batch.inputs, cfg.vocab_size, cfg.output_dim, cfg.seed)
    positions = torch.arange(min(cfg.context_length, TABLE_POSITIONS))
    pos = position_rows(cfg, positions, rows.state_after)
    view = embedding_view(
        batch,
        rows,
        pos,
        torch.arange(min(cfg.batch_size, 2)),
        positions,
        torch.arange(min(cfg.output_dim, TABLE_DIMS)),
    )
    return view.input_embeddings


@pytest.mark.slow  # runs the exported script in a fresh Python
@pytest.mark.parametrize(
    "cfg",
    [
        PipelineConfig(),  # the book's setting: bit-identical to nn.Embedding
        PipelineConfig(method="sinusoidal", output_dim=64, context_length=16, stride=3, seed=7),
        PipelineConfig(output_dim=4096, context_length=16, batch_size=2),  # row-seeded table
        PipelineConfig(method="rope", context_length=6, batch_size=3),
        PipelineConfig(vocab_size=1000, context_length=8),  # GPT-2's BPE cut to 1,000 tokens
    ],
    ids=["book", "sinusoidal", "row-seeded", "rope", "vocab-1000"],
)
def test_exported_code_prints_the_apps_values(cfg, tmp_path):
    text = SAMPLES["lesson"]
    script = tmp_path / "pipeline.py"
    script.write_text(pipeline_code(cfg, text), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper()}
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["shape"] == [cfg.batch_size, cfg.context_length, cfg.output_dim]
    assert f"inputs: torch.Size([{cfg.batch_size}, {cfg.context_length}])" in out.stdout
    assert torch.equal(torch.tensor(result["corner"], dtype=torch.float32), app_corner(cfg, text))
