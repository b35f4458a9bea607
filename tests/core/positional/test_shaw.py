import math

import pytest
import torch
import torch.nn.functional as F

from core.positional.shaw import shaw_attention, shaw_relative_indices


def test_indices_by_hand():
    # L = 5, k = 2: clip(j − i, −2, 2) + 2, row i = query, column j = key.
    expected = torch.tensor(
        [
            [2, 3, 4, 4, 4],
            [1, 2, 3, 4, 4],
            [0, 1, 2, 3, 4],
            [0, 0, 1, 2, 3],
            [0, 0, 0, 1, 2],
        ]
    )
    indices = shaw_relative_indices(5, 2)
    assert indices.dtype == torch.long
    assert torch.equal(indices, expected)


def test_clip_zero_is_one_shared_vector():
    assert torch.equal(shaw_relative_indices(4, 0), torch.zeros(4, 4, dtype=torch.long))
    # One shared a^K adds q_i·a^K to a whole row, which softmax ignores; one shared a^V is added
    # to every output, since each row of weights sums to 1.
    q, k, v = torch.randn(3, 2, 6, 8)  # [B, L, d] each
    rel_k, rel_v = torch.randn(2, 1, 8)  # [1, d] each
    z, weights = shaw_attention(q, k, v, rel_k, rel_v, clip=0)
    torch.testing.assert_close(z, F.scaled_dot_product_attention(q, k, v) + rel_v[0])
    torch.testing.assert_close(weights, (q @ k.transpose(-2, -1) / math.sqrt(8)).softmax(-1))


@pytest.mark.parametrize("causal", [False, True])
def test_zero_relative_vectors_give_plain_attention(causal):
    q, k, v = torch.randn(3, 2, 4, 7, 16)  # [B, H, L, d] each
    zeros = torch.zeros(2 * 3 + 1, 16)
    z, weights = shaw_attention(q, k, v, zeros, zeros, clip=3, causal=causal)
    torch.testing.assert_close(z, F.scaled_dot_product_attention(q, k, v, is_causal=causal))
    assert weights.shape == (2, 4, 7, 7)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 4, 7))


def test_hand_computed_l2_d1():
    # q = [1, 2], k = [3, 4], v = [5, 6], k = 1; a^K for offsets −1, 0, +1 = −1, 0, 1; a^V = 10, 20, 30.
    q = torch.tensor([[1.0], [2.0]])
    k = torch.tensor([[3.0], [4.0]])
    v = torch.tensor([[5.0], [6.0]])
    rel_k = torch.tensor([[-1.0], [0.0], [1.0]])
    rel_v = torch.tensor([[10.0], [20.0], [30.0]])
    z, weights = shaw_attention(q, k, v, rel_k, rel_v, clip=1)
    # e_00 = 1·(3 + 0) = 3, e_01 = 1·(4 + 1) = 5, e_10 = 2·(3 − 1) = 4, e_11 = 2·(4 + 0) = 8 (√d = 1).
    a01 = math.exp(5) / (math.exp(3) + math.exp(5))
    a11 = math.exp(8) / (math.exp(4) + math.exp(8))
    expected_weights = torch.tensor([[1 - a01, a01], [1 - a11, a11]])
    # z_0 = α00 (5 + 20) + α01 (6 + 30); z_1 = α10 (5 + 10) + α11 (6 + 20).
    expected_z = torch.tensor([[(1 - a01) * 25 + a01 * 36], [(1 - a11) * 15 + a11 * 26]])
    torch.testing.assert_close(weights, expected_weights)
    torch.testing.assert_close(z, expected_z)


def test_causal_masks_future_keys():
    q, k, v = torch.randn(3, 5, 4)
    rel = torch.randn(2, 5, 4)
    _, weights = shaw_attention(q, k, v, rel[0], rel[1], clip=2, causal=True)
    assert torch.all(weights.triu(1) == 0)
    assert weights[0, 0].item() == 1.0


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="k must be ≥ 0"):
        shaw_relative_indices(4, -1)
    q = torch.randn(3, 4)
    with pytest.raises(ValueError, match=r"\[2k \+ 1, d\] = \[5, 4\]"):
        shaw_attention(q, q, q, torch.zeros(3, 4), torch.zeros(5, 4), clip=2)
