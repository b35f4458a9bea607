import math

import pytest
import torch
import torch.nn.functional as F

from core.positional.nope import nope
from core.positional.sinusoidal import sinusoidal_at, sinusoidal_inv_freq, sinusoidal_wavelengths

# Position 3, d = 6, from Python's math. Paper frequencies: 1, 10000^(-1/3), 10000^(-2/3);
# fairseq frequencies: 10000^(-i/2) = 1, 1/100, 1/10000.
KNOWN_P3_D6 = {
    "interleaved": [0.1411200080598672, -0.9899924966004454, 0.13879810108005053,
                    0.990320699135675, 0.006463259070189645, 0.9999791129229608],
    "concat": [0.1411200080598672, 0.13879810108005053, 0.006463259070189645,
               -0.9899924966004454, 0.990320699135675, 0.9999791129229608],
    "fairseq": [0.1411200080598672, 0.02999550020249566, 0.00029999999550000005,
                -0.9899924966004454, 0.9995500337489875, 0.9999999550000004],
}  # fmt: skip


@pytest.mark.parametrize("layout", sorted(KNOWN_P3_D6))
def test_known_values(layout):
    pe = sinusoidal_at(torch.tensor([3]), 6, layout=layout)
    assert pe.dtype == torch.float32 and pe.shape == (1, 6)
    torch.testing.assert_close(pe[0], torch.tensor(KNOWN_P3_D6[layout]), rtol=0, atol=1e-7)


@pytest.mark.parametrize("layout", ["interleaved", "concat", "fairseq"])
def test_position_zero_and_table_shape(layout):
    pe = sinusoidal_at(torch.arange(5), 8, layout=layout)
    assert pe.shape == (5, 8) and pe.dtype == torch.float32
    sines = [0, 2, 4, 6] if layout == "interleaved" else [0, 1, 2, 3]
    cosines = [1, 3, 5, 7] if layout == "interleaved" else [4, 5, 6, 7]
    assert torch.equal(pe[0, sines], torch.zeros(4)) and torch.equal(pe[0, cosines], torch.ones(4))


def test_default_is_the_paper_layout():
    assert torch.equal(
        sinusoidal_at(torch.arange(9), 10), sinusoidal_at(torch.arange(9), 10, layout="interleaved")
    )
    assert torch.equal(sinusoidal_at(torch.tensor([7, 2]), 10), sinusoidal_at(torch.arange(9), 10)[[7, 2]])


def test_concat_is_a_column_permutation_of_interleaved():
    # Same frequencies, same float64 values: only the column order differs.
    order = torch.cat((torch.arange(0, 16, 2), torch.arange(1, 16, 2)))  # sin columns, then cos columns
    assert torch.equal(
        sinusoidal_at(torch.arange(50), 16)[:, order], sinusoidal_at(torch.arange(50), 16, layout="concat")
    )


def test_fairseq_frequencies_known_values():
    # fairseq get_embedding: emb = log(10000)/(half_dim − 1); inv_freq = exp(−i·emb).
    torch.testing.assert_close(
        sinusoidal_inv_freq(4, layout="fairseq"), torch.tensor([1.0, 1e-4], dtype=torch.float64)
    )
    torch.testing.assert_close(
        sinusoidal_inv_freq(6, layout="fairseq"), torch.tensor([1.0, 1e-2, 1e-4], dtype=torch.float64)
    )
    # The paper's d = 4 frequencies are 1 and 1/100 instead; concat shares them.
    torch.testing.assert_close(sinusoidal_inv_freq(4), torch.tensor([1.0, 1e-2], dtype=torch.float64))
    assert torch.equal(sinusoidal_inv_freq(12, layout="concat"), sinusoidal_inv_freq(12))
    assert sinusoidal_inv_freq(12).dtype == torch.float64


def test_wavelengths_span_the_papers_range():
    # Paper §3.5: "The wavelengths form a geometric progression from 2π to 10000·2π". fairseq's
    # exponent reaches exactly 10000·2π; the paper's own formula stops at 10000^(1−2/d)·2π.
    d = 512
    paper = sinusoidal_wavelengths(d)
    fairseq = sinusoidal_wavelengths(d, layout="fairseq")
    assert paper.shape == fairseq.shape == (d // 2,)
    assert paper[0].item() == pytest.approx(2 * math.pi) and fairseq[0].item() == pytest.approx(2 * math.pi)
    assert paper[-1].item() == pytest.approx(2 * math.pi * 10000 ** (1 - 2 / d), rel=1e-12)
    assert fairseq[-1].item() == pytest.approx(2 * math.pi * 10000, rel=1e-12)
    assert sinusoidal_wavelengths(4, 100.0).tolist() == pytest.approx([2 * math.pi, 20 * math.pi])


def test_large_position_is_exact_to_float32_in_every_layout():
    last = 1000.0 * 10000 ** (-1 / 255)  # fairseq, d = 512: the second frequency is 10000^(-1/255)
    pe = sinusoidal_at(torch.tensor([1000]), 512, layout="fairseq")
    assert pe[0, 1].item() == torch.tensor(math.sin(last), dtype=torch.float32).item()
    assert pe[0, 257].item() == torch.tensor(math.cos(last), dtype=torch.float32).item()


@pytest.mark.parametrize("layout", ["interleaved", "concat", "fairseq"])
def test_odd_dimension_raises(layout):
    with pytest.raises(ValueError, match="needs an even dimension"):
        sinusoidal_at(torch.arange(4), 7, layout=layout)
    with pytest.raises(ValueError, match="needs an even dimension"):
        sinusoidal_inv_freq(5, layout=layout)


def test_bad_layouts_raise():
    with pytest.raises(ValueError, match="Unknown sinusoidal layout"):
        sinusoidal_at(torch.arange(4), 8, layout="rope")
    with pytest.raises(ValueError, match="at least 4"):
        sinusoidal_at(torch.arange(4), 2, layout="fairseq")
    assert sinusoidal_at(torch.arange(3), 2, layout="concat").shape == (3, 2)


# NoPE lives here with the other absolute tables.
def test_nope_is_zeros():
    table = nope(6, 4)
    assert table.dtype == torch.float32 and torch.equal(table, torch.zeros(6, 4))
    with pytest.raises(ValueError, match="non-negative"):
        nope(-1, 4)


def test_nope_attention_sees_a_set():
    # Without positions and without a mask, shuffling the tokens only shuffles the outputs.
    token_embeddings = torch.randn(6, 8)  # [T, d]
    x = token_embeddings + nope(6, 8)  # [T, d]
    shuffle = torch.randperm(6)
    out = F.scaled_dot_product_attention(x, x, x)
    torch.testing.assert_close(
        F.scaled_dot_product_attention(x[shuffle], x[shuffle], x[shuffle]), out[shuffle]
    )
