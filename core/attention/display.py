"""What an attention heatmap shows: its positions (downsampled past ``MAX_SHOWN``), labels and data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from core.pipeline import sample_indices

MAX_SHOWN = 64  # positions a heatmap shows on each axis: 64² cells stay readable on a screen
LABEL_CHARS = 10  # characters of a token shown in an axis label


def shown_positions(length: int) -> torch.Tensor:
    """Positions a heatmap of a T-token sentence shows: all to ``MAX_SHOWN``, else evenly spaced: [P]."""
    return sample_indices(length, MAX_SHOWN)


def shown_note(length: int) -> str | None:
    """The sentence that says a heatmap is downsampled (None when it shows every position)."""
    shown = shown_positions(length)
    if len(shown) == length:
        return None
    step = int(shown[1] - shown[0])
    return (
        f"The sentence has {length} tokens: each heatmap shows every {step}th position ({len(shown)} of "
        f"{length}, from 0), so a {len(shown)} × {len(shown)} grid; the numbers below use all of them."
    )


def token_labels(pieces: list[str]) -> list[str]:
    """Axis labels "position:token" (unique even when a token repeats; spaces as ·, newlines as ↵)."""
    out = []
    for k, piece in enumerate(pieces):
        shown = piece.replace("\n", "↵").replace(" ", "·")
        out.append(f"{k}:{shown[:LABEL_CHARS]}{'…' if len(shown) > LABEL_CHARS else ''}")
    return out


def heatmap_frame(values: torch.Tensor, mask: torch.Tensor, shown: torch.Tensor) -> pd.DataFrame:
    """The visible cells of a [T, T] matrix at rows and columns ``shown`` [P]: columns i, j, v.

    Masked cells are left out (the chart draws them as the grey background), which halves a causal
    map's data; values are rounded to 4 decimals, as the tooltips show them.
    """
    at = shown.numpy()  # [P]
    grid = np.ix_(at, at)  # in numpy: torch's indexing costs several times as much on a page's small maps
    rows, cols = np.nonzero(mask.numpy()[grid])  # the visible cells, row by row
    sub = values.double().numpy()[grid]  # [P, P]
    columns = {"i": at[rows], "j": at[cols], "v": sub[rows, cols].round(4)}  # fresh arrays: not copied again
    return pd.DataFrame(columns, copy=False)


def chart_bytes(frame: pd.DataFrame) -> int:
    """Bytes the frame takes as the JSON records a chart sends to the browser."""
    return len(frame.to_json(orient="records"))
