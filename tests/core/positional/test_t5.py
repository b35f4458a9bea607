import pytest
import torch

from core.positional.t5 import t5_relative_bias, t5_relative_bucket

# Every expected bucket below was produced by transformers==5.23.0 (torch 2.13.0 CPU),
# transformers.models.t5.modeling_t5.T5Attention._relative_position_bucket and compute_bias,
# run once in a scratch environment outside the project, then pasted here.

# offset = key − query; num_buckets=32, max_distance=128 (T5's defaults).
BIDIRECTIONAL = {
    -500: 15, -129: 15, -128: 15, -127: 15, -65: 14, -64: 14, -63: 13, -33: 12, -32: 12, -31: 11,
    -16: 10, -15: 9, -9: 8, -8: 8, -7: 7, -1: 1, 0: 0, 1: 17, 7: 23, 8: 24, 9: 24, 15: 25, 16: 26,
    31: 27, 32: 28, 33: 28, 63: 29, 64: 30, 65: 30, 127: 31, 128: 31, 129: 31, 500: 31,
}  # fmt: skip
CAUSAL = {
    -500: 31, -129: 31, -128: 31, -127: 31, -65: 26, -64: 26, -63: 26, -33: 21, -32: 21, -31: 21,
    -16: 16, -15: 15, -9: 9, -8: 8, -7: 7, -1: 1, 0: 0, 1: 0, 7: 0, 8: 0, 9: 0, 15: 0, 16: 0,
    31: 0, 32: 0, 33: 0, 63: 0, 64: 0, 65: 0, 127: 0, 128: 0, 129: 0, 500: 0,
}  # fmt: skip

# The whole reference table for offsets −200 … 200, as the smallest |offset| of each bucket of one side.
BIDIRECTIONAL_STARTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91]  # buckets 0 … 15
CAUSAL_STARTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                 16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113]  # fmt: skip


def _bucket_from_starts(starts: list[int], distance: torch.Tensor) -> torch.Tensor:
    """Index of the last start ≤ distance: decodes the tables above."""
    return torch.searchsorted(torch.tensor(starts), distance, right=True) - 1


@pytest.mark.parametrize(("bidirectional", "expected"), [(True, BIDIRECTIONAL), (False, CAUSAL)])
def test_edge_offsets_match_hugging_face(bidirectional, expected):
    offsets = torch.tensor(list(expected))
    buckets = t5_relative_bucket(offsets, bidirectional=bidirectional)
    assert buckets.dtype == torch.long
    assert dict(zip(offsets.tolist(), buckets.tolist(), strict=True)) == expected


def test_whole_range_matches_hugging_face():
    offsets = torch.arange(-200, 201)
    past = _bucket_from_starts(BIDIRECTIONAL_STARTS, offsets.abs())
    expected_bidirectional = torch.where(offsets > 0, 16 + past, past)
    assert torch.equal(t5_relative_bucket(offsets, bidirectional=True), expected_bidirectional)
    expected_causal = _bucket_from_starts(CAUSAL_STARTS, (-offsets).clamp(min=0))
    assert torch.equal(t5_relative_bucket(offsets, bidirectional=False), expected_causal)


def test_offsets_where_the_float32_log_lands_on_an_integer():
    # Bidirectionally, |offset| 32 and 64 give log(r/8)/log(16)·8 = 4 and 6 exactly: a float32 result
    # a hair below the integer would truncate one bucket lower (11 / 13). HF's float32 lands on
    # the integer, and so must we.
    offsets = torch.tensor([-64, -32, 32, 64])
    assert t5_relative_bucket(offsets).tolist() == [14, 12, 28, 30]


def test_other_sizes_and_int32_input():
    # HF with num_buckets=8, max_distance=16; int32 offsets as Mesh TF passes them.
    offsets = torch.tensor([-20, -16, -8, -4, -3, -2, -1, 0, 1, 2, 3, 4, 8, 16, 20], dtype=torch.int32)
    assert t5_relative_bucket(offsets, True, 8, 16).tolist() == [3, 3, 3, 2, 2, 2, 1, 0, 5, 6, 6, 6, 7, 7, 7]
    assert t5_relative_bucket(offsets, False, 8, 16).tolist() == [7, 7, 6, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("bidirectional", [True, False])
def test_buckets_stay_in_range_and_grow_with_distance(bidirectional):
    offsets = torch.arange(-5000, 1)
    buckets = t5_relative_bucket(offsets, bidirectional=bidirectional)
    assert int(buckets.min()) >= 0 and int(buckets.max()) < 32
    assert torch.all(buckets.flip(0).diff() >= 0)  # farther into the past never means a smaller bucket


def test_bias_matches_hugging_face_compute_bias():
    # HF T5Attention(num_heads=2, relative_attention_num_buckets=8, relative_attention_max_distance=16)
    # with relative_attention_bias.weight = arange(8)[:, None] * [1, -10]; compute_bias(4, 12)[0, 0].
    table = torch.arange(8.0)[:, None] * torch.tensor([1.0, -10.0])  # [num_buckets, H]
    encoder = torch.tensor(
        [
            [0, 5, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7],
            [1, 0, 5, 6, 6, 6, 6, 7, 7, 7, 7, 7],
            [2, 1, 0, 5, 6, 6, 6, 6, 7, 7, 7, 7],
            [2, 2, 1, 0, 5, 6, 6, 6, 6, 7, 7, 7],
        ],
        dtype=torch.float32,
    )
    decoder = torch.tensor(
        [
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ],
        dtype=torch.float32,
    )
    for bidirectional, expected in [(True, encoder), (False, decoder)]:
        bias = t5_relative_bias(table, 4, 12, bidirectional, num_buckets=8, max_distance=16)
        assert bias.shape == (2, 4, 12)
        torch.testing.assert_close(bias, torch.stack((expected, -10 * expected)), rtol=0, atol=0)


def test_bias_reads_the_table_row_of_each_bucket():
    table = torch.randn(32, 3)  # [num_buckets, H], an nn.Embedding(32, 3).weight
    bias = t5_relative_bias(table, 5, 200)
    assert bias.shape == (3, 5, 200)
    # query 0, key 64: offset +64 → bucket 30; query 4, key 0: offset −4 → bucket 4.
    torch.testing.assert_close(bias[:, 0, 64], table[30])
    torch.testing.assert_close(bias[:, 4, 0], table[4])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_buckets": 1}, "num_buckets ≥ 2"),
        ({"num_buckets": 3, "bidirectional": True}, "num_buckets ≥ 4"),
        ({"num_buckets": 32, "max_distance": 8}, "exact range"),
        ({"num_buckets": 32, "max_distance": 16, "bidirectional": False}, "exact range"),
    ],
)
def test_bad_settings_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        t5_relative_bucket(torch.arange(-3, 4), **kwargs)


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="integer"):
        t5_relative_bucket(torch.tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="bias_table"):
        t5_relative_bias(torch.zeros(16, 2), 3, 3)
    # Two buckets are enough for causal attention: offset 0 and the whole past.
    assert t5_relative_bucket(torch.tensor([-5, 0, 5]), False, 2, 2).tolist() == [1, 0, 0]
