import math

import pytest
import torch

from core.similarity import (
    CLIMB,
    PEAK_GAP,
    cosine,
    cosine_matrix,
    fade,
    fade_sentence,
    mean_by_distance,
    pair_distances,
)


def test_cosine_of_hand_picked_vectors():
    assert cosine(torch.tensor([1.0, 0.0]), torch.tensor([1.0, 1.0])) == pytest.approx(1 / math.sqrt(2))
    assert cosine(torch.tensor([3.0, 4.0]), torch.tensor([-4.0, 3.0])) == pytest.approx(0.0)


def test_cosine_matrix_of_hand_picked_rows():
    x = torch.tensor([[1.0, 0.0], [0.0, 2.0], [-3.0, 0.0]])
    expected = torch.tensor([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 1.0]], dtype=torch.float64)
    torch.testing.assert_close(cosine_matrix(x), expected)


def test_pair_distances_of_sampled_positions():
    expected = torch.tensor([[0, 2, 5], [2, 0, 3], [5, 3, 0]])
    assert torch.equal(pair_distances(torch.tensor([0, 2, 5])), expected)


def test_mean_by_distance_averages_every_pair_at_a_distance():
    # positions 0, 1, 2: distance 1 holds (0, 1) = 0.8 and (1, 2) = 0.4; distance 2 holds (0, 2) = -0.2
    sim = torch.tensor([[1.0, 0.8, -0.2], [0.8, 1.0, 0.4], [-0.2, 0.4, 1.0]])
    distances, means = mean_by_distance(sim, torch.arange(3))
    assert distances.tolist() == [0, 1, 2]
    assert means.dtype == torch.float64
    torch.testing.assert_close(means, torch.tensor([1.0, 0.6, -0.2], dtype=torch.float64))


def test_mean_by_distance_of_sampled_unsorted_positions():
    # rows at positions 5, 0, 2: the distances 5, 3 and 2 occur once each (twice, mirrored)
    sim = torch.tensor([[1.0, 0.1, 0.3], [0.1, 1.0, 0.5], [0.3, 0.5, 1.0]])
    distances, means = mean_by_distance(sim, torch.tensor([5, 0, 2]))
    assert distances.tolist() == [0, 2, 3, 5]
    torch.testing.assert_close(means, torch.tensor([1.0, 0.5, 0.3, 0.1], dtype=torch.float64))


def test_mean_by_distance_counts_each_ordered_pair_once():
    sim = torch.tensor([[2.0, 1.0], [0.0, 4.0]])  # not symmetric: (0, 1) = 1, (1, 0) = 0
    _, means = mean_by_distance(sim, torch.tensor([0, 1]))
    assert means.tolist() == [3.0, 0.5]


def test_rotating_vectors_have_cos_of_the_angle_at_each_distance():
    theta, T = 0.3, 20
    angles = torch.arange(T, dtype=torch.float64) * theta
    x = torch.stack([angles.cos(), angles.sin()], dim=1)  # [T, 2]: position p turned by p·θ
    distances, means = mean_by_distance(cosine_matrix(x), torch.arange(T))
    expected = torch.tensor([math.cos(theta * r) for r in range(T)], dtype=torch.float64)
    assert distances.tolist() == list(range(T))
    torch.testing.assert_close(means, expected)


def test_a_fade_is_read_from_the_whole_curve():
    # down to -0.5 at 4 (0 first at 3), then two climbs back: +0.6 at 70 and +0.4 at 140, 70 apart
    curve = torch.zeros(150, dtype=torch.float64)
    curve[:5] = torch.tensor([1.0, 0.9, 0.5, 0.0, -0.5])
    curve[5:] = -0.2
    curve[70], curve[140], curve[100] = 0.6, 0.4, 0.55  # 100 is within PEAK_GAP of 70 and 140: not named
    f = fade(curve)
    assert (f.low_at, f.zero_at, f.peaks, f.as_high_at) == (4, 3, (70, 140), 2)
    assert fade_sentence(curve) == (
        "the likeness fades with distance, with ripples, to its lowest, -0.50 at 4 (it first reaches 0 "
        "at 3); farther out it climbs back, to +0.60 at 70 and +0.40 at 140, as high as at distance 2."
    )


def test_a_curve_that_only_falls_has_no_climb():
    curve = torch.linspace(1.0, 0.2, 64, dtype=torch.float64)  # never 0, lowest at the end
    f = fade(curve)
    assert (f.low_at, f.zero_at, f.peaks, f.as_high_at) == (63, None, (), None)
    assert fade_sentence(curve).endswith("to its lowest, +0.20 at 63, and stays low from there on.")
    small = curve.clone()
    small[40] = small[63] + CLIMB / 2  # a ripple under CLIMB past the low is no climb
    small[63] = small.min() - 0.01
    assert fade(small).peaks == ()
    with pytest.raises(ValueError, match="distances 0 and 1"):
        fade(torch.ones(1))


def test_the_trained_tables_far_tail_climbs_back():
    # "fades to about -0.03 at 256" read one point; the curve is lowest at 247, then climbs
    from core.positional.pretrained import load_minilm_positions, similarity_by_distance

    curve = similarity_by_distance(load_minilm_positions()[0])  # [512]
    f = fade(curve)
    assert f.low_at == int(curve[1:].argmin()) + 1 and float(curve[f.low_at]) < -0.3
    assert len(f.peaks) == 2 and all(float(curve[p]) > 0.4 for p in f.peaks)
    assert all(300 < p < 500 for p in f.peaks) and f.peaks[1] - f.peaks[0] >= PEAK_GAP
    top = float(curve[list(f.peaks)].max())
    assert float(curve[f.as_high_at]) <= top < float(curve[1 : f.as_high_at].min())  # the first that low
    assert "climbs back" in fade_sentence(curve) and "256" not in fade_sentence(curve)
