import io

import numpy as np
import pandas as pd
import torch

from core.views.export import to_csv, to_npy


def test_npy_round_trip_is_exact():
    x = torch.randn(3, 4, 5)
    assert np.array_equal(np.load(io.BytesIO(to_npy(x))), x.numpy())


def test_csv_grid_with_real_labels():
    grid = torch.tensor([[1.5, -2.0], [0.25, 3.0]])
    frame = pd.read_csv(io.BytesIO(to_csv(grid, ("t", "j"), ([0, 32], [0, 96]))), index_col="t")
    assert list(frame.index) == [0, 32] and list(frame.columns) == ["j=0", "j=96"]
    assert frame.loc[32, "j=96"] == 3.0


def test_csv_long_form_for_3d():
    x = torch.arange(8, dtype=torch.float32).reshape(2, 2, 2)
    frame = pd.read_csv(io.BytesIO(to_csv(x, ("b", "t", "j"))))
    assert list(frame.columns) == ["b", "t", "j", "value"] and len(frame) == 8
    assert frame.query("b == 1 and t == 0 and j == 1")["value"].item() == 5.0
