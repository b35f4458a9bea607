"""Partial rotary on the student's sentence (core/attention/partial.py): a worked case by hand, the whole
head's part equal to the Attention page's RoPE map, and a share that stays within 0 … 1 and grows with
the numbers turned."""

import math

import pytest
import torch

from core.attention.heads import RandomHead
from core.attention.maps import family_maps
from core.attention.partial import kept_share, position_part, sentence_shares
from core.config import PipelineConfig
from core.positional.family import FamilyConfig


def test_two_tokens_of_ones_worked_by_hand():
    # dh 4, pairs (0, 1) and (2, 3) turning 1 and 10,000^(-1/2) = 0.01 radians a position. q = k = ones:
    # a pair turned by θ scores 2 cos θ instead of 2, so query 1 on key 0 gets 2 cos θ − 2 from each pair.
    ones = torch.ones(2, 4, dtype=torch.float64)
    part = position_part(ones, ones, 10_000.0, 4)
    assert part[1, 0].item() == pytest.approx((2 * math.cos(1) - 2 + 2 * math.cos(0.01) - 2) / 2, abs=1e-12)
    assert part[0, 0].item() == part[1, 1].item() == 0.0  # a token with itself: distance 0
    # the first pair alone: (1 − cos 1) / ((1 − cos 1) + (1 − cos 0.01)) = 0.459698 / 0.459748
    assert kept_share(ones, ones, 10_000.0, 2) == pytest.approx(0.999891, abs=1e-6)
    assert kept_share(ones, ones, 10_000.0, 4) == 1.0
    assert kept_share(ones[:1], ones[:1], 10_000.0, 2) is None  # one token: nothing to turn against


@pytest.mark.parametrize(("dim", "heads", "head"), [(256, 8, 0), (64, 4, 3), (16, 8, 1)])
def test_all_numbers_turned_is_the_attention_pages_rope_part(dim, heads, head):
    tokens = torch.randn(7, dim, generator=torch.Generator().manual_seed(dim), dtype=torch.float64)
    fam = FamilyConfig(heads=heads)
    projection = RandomHead(dim, heads, head, 123)
    rope = family_maps(
        projection.project, tokens, {}, names=("rope",), head=head, fam=fam, dim=dim, seed=123, causal=True
    )["rope"]
    q0, k0 = projection.project(tokens)
    torch.testing.assert_close(
        position_part(q0, k0, fam.base, dim // heads), rope.position, rtol=0, atol=1e-12
    )


def test_the_share_grows_with_the_numbers_turned_on_a_sentence():
    cfg = PipelineConfig()  # d 256, seed 123
    tokens = torch.randn(9, cfg.output_dim, generator=torch.Generator().manual_seed(5), dtype=torch.float64)
    shares = sentence_shares(tokens, cfg, FamilyConfig(), 0, (0.25, 0.5, 1.0))
    assert [r for r, _ in shares.values()] == [8, 16, 32]  # of head 1's 256 / 8 = 32 numbers
    kept = [s for _, s in shares.values()]
    assert kept[-1] == 1.0 and all(0 < s < 1 for s in kept[:-1])
    # a head of 4 numbers: a quarter is 1 number, less than a pair, so one pair (2 numbers) turns
    small = sentence_shares(tokens[:, :16], PipelineConfig(output_dim=16), FamilyConfig(heads=4), 0, (0.25,))
    assert small[0.25][0] == 2
