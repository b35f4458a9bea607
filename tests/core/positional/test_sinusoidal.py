import math

import pytest
import torch

from core.positional.sinusoidal import sinusoidal_at


def test_known_values_d4():
    # PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(...); for d = 4 the frequencies are 1 and 1/100.
    pe = sinusoidal_at(torch.arange(3), 4)
    expected = torch.tensor(
        [
            [0.0, 1.0, 0.0, 1.0],
            [0.8414709848, 0.5403023059, 0.0099998333, 0.9999500004],
            [0.9092974268, -0.4161468365, 0.0199986667, 0.9998000067],
        ]
    )
    torch.testing.assert_close(pe, expected, rtol=0, atol=1e-7)


def test_large_position_is_exact_to_float32():
    # sin(1000) and cos(1000) from Python's math module, rounded once to float32.
    pe = sinusoidal_at(torch.tensor([1000]), 512)
    assert pe[0, 0].item() == torch.tensor(math.sin(1000.0), dtype=torch.float32).item()
    assert pe[0, 1].item() == torch.tensor(math.cos(1000.0), dtype=torch.float32).item()
    last = 1000.0 / 10000 ** (510 / 512)
    assert pe[0, 510].item() == torch.tensor(math.sin(last), dtype=torch.float32).item()


def test_shape_dtype_and_odd_dim():
    pe = sinusoidal_at(torch.arange(7), 6)
    assert pe.shape == (7, 6) and pe.dtype == torch.float32
    with pytest.raises(ValueError, match="even"):
        sinusoidal_at(torch.arange(4), 5)


def test_rows_do_not_depend_on_table_size():
    assert torch.equal(sinusoidal_at(torch.arange(10), 8)[:4], sinusoidal_at(torch.arange(4), 8))
