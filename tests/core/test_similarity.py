import math

import pytest
import torch

from core.similarity import cosine, cosine_matrix, mean_by_distance, pair_distances


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
