import math

import pytest
import torch

from core.positional.alibi import alibi_bias, alibi_slopes, get_slopes

# Slopes printed by the reference get_slopes (ofirpress/attention_with_linear_biases,
# fairseq/models/transformer.py), run unchanged in a scratch script under Python 3.11.
REFERENCE_SLOPES = {
    1: [0.00390625],
    2: [0.0625, 0.00390625],
    3: [0.0625, 0.00390625, 0.25],
    6: [0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125],
    8: [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625],
    12: [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625,
         0.7071067811865476, 0.35355339059327384, 0.17677669529663692, 0.08838834764831849],
    16: [0.7071067811865476, 0.5000000000000001, 0.35355339059327384, 0.25000000000000006,
         0.17677669529663692, 0.12500000000000006, 0.08838834764831849, 0.06250000000000004,
         0.044194173824159244, 0.03125000000000002, 0.022097086912079626, 0.01562500000000001,
         0.011048543456039816, 0.007812500000000007, 0.005524271728019908, 0.003906250000000004],
}  # fmt: skip


@pytest.mark.parametrize("num_heads", sorted(REFERENCE_SLOPES))
def test_slopes_match_reference_get_slopes(num_heads):
    # Bit-identical in float64, including the reference's last-bit rounding for 16 heads.
    assert get_slopes(num_heads) == REFERENCE_SLOPES[num_heads]
    slopes = alibi_slopes(num_heads)
    assert slopes.dtype == torch.float32 and slopes.shape == (num_heads,)
    torch.testing.assert_close(slopes, torch.tensor(REFERENCE_SLOPES[num_heads]), rtol=0, atol=0)


def test_eight_heads_are_the_papers_halves():
    # Paper §3: for 8 heads the slopes are 1/2, 1/4, …, 1/256.
    torch.testing.assert_close(alibi_slopes(8), torch.tensor([2.0**-k for k in range(1, 9)]), rtol=0, atol=0)
    # 16 heads: the geometric mean of each neighbouring pair is inserted, 2^-0.5, 2^-1, …, 2^-8.
    torch.testing.assert_close(alibi_slopes(16), torch.tensor([2 ** (-k / 2) for k in range(1, 17)]))


def test_bias_known_values():
    # bias[h, i, j] = −m_h·(i − j); head 0 of 2 heads has m = 1/16 (REFERENCE_SLOPES[2]).
    bias = alibi_bias(2, 4)
    assert bias.shape == (2, 4, 4) and bias.dtype == torch.float32
    expected_head0 = (
        torch.tensor(
            [
                [0.0, 1, 2, 3],
                [-1, 0, 1, 2],
                [-2, -1, 0, 1],
                [-3, -2, -1, 0],
            ]
        )
        / 16
    )
    torch.testing.assert_close(bias[0], expected_head0, rtol=0, atol=0)
    torch.testing.assert_close(bias[1], expected_head0 / 16, rtol=0, atol=0)
    assert not torch.signbit(bias.diagonal(dim1=-2, dim2=-1)).any()  # +0 on the diagonal, not −0


def test_entries_above_the_diagonal_are_positive_and_masked_in_practice():
    bias = alibi_bias(4, 6)
    above = torch.ones(6, 6, dtype=torch.bool).triu(1)
    assert torch.all(bias[:, above] > 0)
    assert torch.all(bias[:, ~above] <= 0)


def test_softmax_equals_reference_fairseq_form():
    # The reference adds m_h·j to every row (its comment: "all rows are identical … softmax is
    # invariant to translation"), then the causal mask. Same attention as our −m_h·(i − j).
    num_heads, length = 12, 9
    scores = torch.randn(num_heads, length, length)
    causal = torch.full((length, length), float("-inf")).triu(1)  # [L, L]
    reference_bias = torch.tensor(REFERENCE_SLOPES[num_heads], dtype=torch.float32)[
        :, None, None
    ] * torch.arange(length)  # [H, 1, L], as in fairseq's self.alibi
    reference = (scores + reference_bias + causal).softmax(-1)
    ours = (scores + alibi_bias(num_heads, length) + causal).softmax(-1)
    torch.testing.assert_close(ours, reference)


def test_bad_sizes_raise():
    with pytest.raises(ValueError, match="at least one head"):
        alibi_slopes(0)
    with pytest.raises(ValueError, match="length"):
        alibi_bias(4, -1)
    assert alibi_bias(4, 0).shape == (4, 0, 0)


def test_slopes_are_geometric_for_powers_of_two():
    for n in (2, 4, 32, 64):
        slopes = get_slopes(n)
        ratios = [b / a for a, b in zip(slopes, slopes[1:], strict=False)]
        assert all(math.isclose(r, 2 ** (-8 / n)) for r in ratios)
        assert math.isclose(slopes[-1], 2**-8)
