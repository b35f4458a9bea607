"""Tensors as files a student can download: CSV (long form for 3-D) and NumPy ``.npy``."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import torch


def to_npy(tensor: torch.Tensor) -> bytes:
    """The tensor as a ``.npy`` file (``np.load`` gives it back exactly)."""
    buffer = io.BytesIO()
    np.save(buffer, tensor.detach().cpu().numpy(), allow_pickle=False)
    return buffer.getvalue()


def to_csv(
    tensor: torch.Tensor, axes: tuple[str, ...], labels: tuple[list[int], list[int]] | None = None
) -> bytes:
    """The tensor as CSV: a 2-D one as its grid, any other as one row per element with its indices.

    ``labels``: the real row and column indices of a 2-D grid sampled from a larger tensor.
    """
    array = tensor.detach().cpu().numpy()
    if array.ndim == 2:
        rows, cols = labels or (list(range(array.shape[0])), list(range(array.shape[1])))
        frame = pd.DataFrame(array, index=rows, columns=[f"{axes[1]}={c}" for c in cols])
        return frame.to_csv(index_label=axes[0], float_format="%.9g").encode()
    index = np.indices(array.shape).reshape(array.ndim, -1).T  # [N, ndim]
    frame = pd.DataFrame(index, columns=list(axes))
    frame["value"] = array.reshape(-1)
    return frame.to_csv(index=False, float_format="%.9g").encode()
