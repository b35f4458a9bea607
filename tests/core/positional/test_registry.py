"""The family registry: every family's record, its parameter count and the RoPE shift table."""

import math

import pytest
import torch

from core.config import PipelineConfig
from core.positional.family import FAMILIES, FamilyConfig, all_params
from core.positional.rope import rope_shift_table
from core.training.model import trainable_methods


def test_the_registry_lists_the_seven_families_in_the_apps_order():
    assert list(FAMILIES) == ["nope", "learned", "sinusoidal", "shaw", "t5", "alibi", "rope"]
    assert [n for n, f in FAMILIES.items() if f.additive] == ["learned", "sinusoidal"]
    assert trainable_methods() == ("nope", "learned", "sinusoidal", "alibi", "rope")
    assert len({f.color for f in FAMILIES.values()}) == len(FAMILIES)  # one colour each


def test_every_setting_has_one_key_and_a_default_inside_its_limits():
    params = all_params()
    assert list(params) == [
        "heads", "init", "base", "layout", "clip", "buckets", "max_distance", "pairing", "extrapolate",
    ]  # fmt: skip
    for p in params.values():
        p.check(p.default)
    FamilyConfig().validate(256, 4)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("nope", 0),
        ("learned", 1024 * 768),  # GPT-2 small: nn.Embedding(1024, 768)
        ("sinusoidal", 0),
        ("shaw", 2 * (2 * 16 + 1) * 64),  # a^K and a^V: 2k + 1 rows of d/H = 768/12 (Shaw et al. §3.3)
        ("t5", 32 * 12),  # one scalar per bucket and head (Raffel et al.)
        ("alibi", 0),
        ("rope", 0),
    ],
)
def test_parameter_counts_are_the_papers(name, expected):
    fam = FamilyConfig(heads=12, clip=16, buckets=32)
    assert FAMILIES[name].parameter_count(1024, 768, fam) == expected


def test_a_pipeline_with_a_relative_method_adds_nothing_at_the_input():
    from core.pipeline import pipeline_steps

    steps = {s.name: s for s in pipeline_steps(PipelineConfig(method="rope"), 100)}
    assert steps["pos_embeddings"].params == 0 and steps["pos_embeddings"].nbytes == 0
    learned = {s.name: s for s in pipeline_steps(PipelineConfig(), 100)}
    assert learned["pos_embeddings"].params == 4 * 256  # nn.Embedding(context_length 4, output_dim 256)


@pytest.mark.parametrize("interleaved", [True, False])
def test_rope_shift_table_depends_only_on_the_offset(interleaved):
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(8, generator=g, dtype=torch.float64), torch.randn(8, generator=g, dtype=torch.float64)
    logits = rope_shift_table(q, k, 7, 3, [0, 1, 10, 100, 1000], 10000.0, interleaved)
    # q·R(m − n)k with complex numbers (RoFormer eq. 12): pairs (2i, 2i+1) or (i, i + 4), angle 4·θ_i.
    theta = torch.tensor([10000.0 ** (-2 * i / 8) for i in range(4)], dtype=torch.float64)
    if interleaved:
        qc, kc = torch.complex(q[0::2], q[1::2]), torch.complex(k[0::2], k[1::2])
    else:
        qc, kc = torch.complex(q[:4], q[4:]), torch.complex(k[:4], k[4:])
    expected = float((qc * kc.conj() * torch.polar(torch.ones(4, dtype=torch.float64), 4 * theta)).real.sum())
    for value in logits.tolist():
        assert math.isclose(value, expected, rel_tol=1e-12, abs_tol=1e-12)
