import math

import pytest
import torch

from core.config import FamilyConfig
from core.embeddings import TableRows
from core.families import position_logits
from core.positional import FAMILIES, sinusoidal_at
from core.positional.family import content_vector
from core.positional.shaw import shaw_key_vectors
from core.positional.t5 import t5_bias_table

FAM = FamilyConfig()
D, SEED = 64, 5
R = torch.arange(0, 300)


def logits(method, **kw):
    return position_logits(method, R, kw.pop("fam", FAM), D, SEED, **kw)


def test_every_method_is_described():
    assert list(FAMILIES) == ["nope", "learned", "sinusoidal", "shaw", "t5", "alibi", "rope"]
    assert {f.injects for f in FAMILIES.values()} >= {"input add", "score bias", "query/key rotation"}


def test_nope_adds_nothing():
    assert torch.equal(logits("nope"), torch.zeros(len(R), dtype=torch.float64))


def test_alibi_is_the_steepest_heads_line():
    # 8 heads: slopes 1/2, 1/4, ... (Press et al.); head 1 gives -r/2.
    torch.testing.assert_close(logits("alibi"), -R.double() / 2)


def test_t5_is_flat_past_the_last_bucket():
    y = logits("t5")
    table = t5_bias_table(FAM, D, SEED)
    assert y[0] == table[0, 0].double()  # offset 0 is bucket 0 when causal
    assert torch.all(y[200:] == y[200])  # every distance past max_distance shares one bucket


def test_shaw_is_flat_past_the_clip():
    y = logits("shaw")
    a_k = shaw_key_vectors(D // FAM.heads, SEED, torch.arange(2 * FAM.clip + 1)).double()
    u = content_vector(D, SEED)[: D // FAM.heads]
    assert y[0] == pytest.approx(float(a_k[FAM.clip] @ u) / math.sqrt(D // FAM.heads))
    assert y[3] == pytest.approx(float(a_k[FAM.clip - 3] @ u) / math.sqrt(D // FAM.heads))  # offset j-i = -3
    assert torch.all(y[FAM.clip :] == y[FAM.clip])
    assert not torch.all(y[: FAM.clip] == y[FAM.clip])


@pytest.mark.parametrize("pairing", ["interleaved", "halves"])
def test_rope_matches_the_rotation_sum(pairing):
    # (R_r u)·(R_0 u) - u·u = Σ_pairs (u_a² + u_b²)(cos(r θ_i) - 1): pairs (2i, 2i+1) or (i, i + dh/2).
    fam = FamilyConfig(pairing=pairing)
    dh = D // fam.heads
    u = content_vector(D, SEED)[:dh]
    a, b = (u[0::2], u[1::2]) if pairing == "interleaved" else (u[: dh // 2], u[dh // 2 :])
    theta = torch.tensor([fam.base ** (-2 * i / dh) for i in range(dh // 2)], dtype=torch.float64)  # RoFormer
    expected = ((a**2 + b**2) * (torch.cos(R.double()[:, None] * theta) - 1)).sum(-1) / math.sqrt(dh)
    torch.testing.assert_close(logits("rope", fam=fam), expected, rtol=1e-6, atol=1e-6)
    assert logits("rope", fam=fam)[0] == pytest.approx(0.0, abs=1e-12)


def test_learned_stops_at_the_context_length():
    table = torch.randn(8, D)
    rows = TableRows(torch.arange(8), table)
    y = logits("learned", additive_rows=rows, context_length=8)[:12]
    u, p0 = content_vector(D, SEED), table[0].double()
    assert y[0] == pytest.approx(float((u + p0) @ (u + p0) - u @ u) / math.sqrt(D))
    assert not torch.isnan(y[:8]).any() and torch.isnan(y[8:]).all()


def test_sinusoidal_continues_past_any_length():
    rows = TableRows(R, sinusoidal_at(torch.arange(len(R)), D))
    y = logits("sinusoidal", additive_rows=rows)
    assert not torch.isnan(y).any()
    assert y[0] > y[1:].max()  # a position is most alike to itself


def test_chart_1_draws_twice_the_farthest_distance_t5_or_shaw_tell_apart():
    from core.families import drawn_span

    assert drawn_span(4, FamilyConfig()) == 256  # 2 × T5's max distance 128
    assert drawn_span(1024, FamilyConfig(extrapolate=2)) == 2048  # the used length
    assert drawn_span(4, FamilyConfig(max_distance=8, clip=40)) == 80  # 2 × Shaw's clip


def test_flat_from_finds_where_a_curve_stops_changing():
    from core.positional.family import flat_from

    r = torch.arange(6)
    assert flat_from(r, torch.tensor([3.0, 2.0, 1.0, 1.0, 1.0, 1.0], dtype=torch.float64)) == 2
    assert flat_from(r, torch.tensor([5.0, 4.0, 3.0, 2.0, 1.0, 0.0], dtype=torch.float64)) is None


def findings(method, fam=None, span=256):
    from core.families import logit_findings
    from core.pipeline import sample_indices

    fam = fam or FamilyConfig()
    r = sample_indices(span, 400)
    return logit_findings(method, r, position_logits(method, r, fam, 256, 123, None, 4), 4, fam)


def test_what_to_look_at_is_computed_from_the_curves():
    assert findings("nope").startswith("NoPE is exactly 0 at every distance")
    # head 1 of 8 has ALiBi's slope 2^-1 (Press et al.'s geometric sequence)
    assert findings("alibi").startswith("ALiBi is a straight line: -0.5 per token of distance")
    # T5's last of 32 buckets starts at 16 · 8^(15/16) = 112.2 (HF _relative_position_bucket), so 113
    assert "flat from distance 113 on (max distance 128)" in findings("t5")
    assert "flat from distance 16 on (clip 16)" in findings("shaw")


def test_what_to_look_at_changes_when_the_curve_does():
    assert "still changes at the last drawn distance (63; max distance 128)" in findings("t5", span=64)
    assert "flat from distance 8 on (clip 8)" in findings("shaw", FamilyConfig(clip=8))


def test_similarity_findings_follow_the_matrix():
    from core.families import similarity_findings
    from core.similarity import cosine_matrix

    positions = torch.arange(16)
    stripes = similarity_findings(
        "sinusoidal", positions, cosine_matrix(sinusoidal_at(torch.arange(16), 64).double())
    )
    assert "depends only on the distance |i − j|" in stripes
    noise = torch.randn(16, 256, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    text = similarity_findings("learned", positions, cosine_matrix(noise))
    assert "only the diagonal is 1" in text and "close to 0" in text  # |cos| ~ 1/sqrt(256)
    alike = torch.ones(16, 4, dtype=torch.float64) + 0.01 * noise[:, :4]  # every row nearly the same
    assert "close to 0" not in similarity_findings("learned", positions, cosine_matrix(alike))
