import math

import pytest
import torch

from core.embeddings import TableRows
from core.families import position_logits
from core.positional.family import FAMILIES, FamilyConfig, content_vector
from core.positional.shaw import shaw_key_vectors
from core.positional.sinusoidal import sinusoidal_at
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


def test_the_matrices_sentence_says_which_keep_one_colour_along_a_diagonal():
    from core.families import distance_only, matrices_sentence
    from core.similarity import cosine_matrix

    positions = torch.arange(16)
    assert distance_only(positions, cosine_matrix(sinusoidal_at(positions, 64).double()))
    noise = torch.randn(16, 256, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    assert not distance_only(positions, cosine_matrix(noise))
    lead = "Read each square along its diagonals (there the distance |i − j| is the same): "
    assert matrices_sentence({"Learned absolute": False, "Sinusoidal": True, "RoPE": True}) == (
        f"{lead}Sinusoidal and RoPE keep one colour along each, so their similarity depends only on the "
        "distance; Learned absolute is 1 only on the main diagonal."
    )
    assert matrices_sentence({"Sinusoidal": True}) == (
        f"{lead}Sinusoidal keeps one colour along each, so its similarity depends only on the distance."
    )
    assert matrices_sentence({"A": False, "B": False}) == f"{lead}A and B are 1 only on the main diagonal."
    assert matrices_sentence({}) == "There is no matrix to read."


# Settings the Families page accepts, odd ones among them: one head, clip 0, few buckets, d 2 and 4,
# context 1; and every preset's (its method, d, T, heads, base, buckets).
def preset_settings():
    from core.presets import PRESETS

    for p in PRESETS.values():
        given = {"heads": p.heads, "base": p.rope_base, "buckets": p.buckets, "max_distance": p.max_distance}
        yield p.method, p.context_length, p.dim, FamilyConfig(**{k: v for k, v in given.items() if v})


ODD_SETTINGS = [
    (4, 256, FamilyConfig()),
    (1, 8, FamilyConfig(heads=1, clip=0, buckets=4, max_distance=3)),
    (2, 4, FamilyConfig(heads=2, clip=1, buckets=4, max_distance=3, extrapolate=1)),
    (1, 2, FamilyConfig(heads=1, clip=0, buckets=5, max_distance=3)),
    (64, 4, FamilyConfig(heads=2, base=2.0)),
    (8, 2, FamilyConfig(heads=1, base=2.0, clip=8_192)),
    (8192, 16384, FamilyConfig(heads=1, clip=8192, max_distance=65536, extrapolate=8)),
]
EVERY_SETTING = [(m, T, d, fam) for m in FAMILIES for T, d, fam in ODD_SETTINGS] + list(preset_settings())


def sentences(text: str) -> int:
    """How many sentences ``text`` has: a full stop (or ? or !) before a capital, and its last."""
    import re

    from core.views.glossary import plain

    return len(re.findall(r"[.?!] (?=\*?\*?[A-Z])", plain(text))) + 1


@pytest.mark.parametrize("method, T, d, fam", EVERY_SETTING)
def test_the_answer_reads_and_defines_its_words_at_every_setting(method, T, d, fam):
    from core.families import families_answer
    from core.views.glossary import first_undefined
    from tests.core.prose import prose_problems

    fam.validate(d, T)
    said = families_answer(method, T, d, fam)
    count = FAMILIES[method].parameter_count(T, d, fam)
    assert said.number == f"{count:,}" and said.label == f"{FAMILIES[method].label}: numbers to train"
    assert f"has {said.number} number{'' if count == 1 else 's'} to train" in said.words  # its number
    assert 2 <= sentences(said.words) <= 4, said.words
    assert not prose_problems(said.words), (prose_problems(said.words), said.words)
    assert first_undefined(said.words) == []  # attention and score defined where it uses them
    assert said.others == tuple(name for name in FAMILIES if name != method)  # a button each


def test_the_answer_says_what_each_kind_gives_and_which_train():
    from core.families import families_answer
    from core.views.glossary import define

    said = families_answer("learned", 4, 256, FamilyConfig())
    assert said.label == "Learned absolute: numbers to train" and said.number == "1,024"  # 4 × 256
    assert said.words.startswith(
        "Absolute methods (Learned absolute and Sinusoidal) give each position its own vector of 256 "
        "numbers, added to its token's embedding. Relative methods give a position no vector: inside "
        f"{define('attention')}, they change the {define('score')} of two tokens according to how far "
        "apart the two are, not where they stand: **Shaw relative** ("
    )
    assert "**ALiBi** (" in said.words and "and **RoPE** (rotary position embedding" in said.words
    assert (
        "Learned absolute, Shaw relative and T5 bias learn their numbers in training; Sinusoidal, ALiBi "
        "and RoPE compute theirs by a fixed rule; **NoPE** (" in said.words
    )
    assert (
        "**Learned absolute**, has 1,024 numbers to train: it gives each position its own row" in said.words
    )


def test_the_answer_changes_with_the_settings():
    from core.families import families_answer

    assert families_answer("learned", 8, 64, FamilyConfig()).number == "512"  # 8 × 64
    assert "vector of 64 numbers" in families_answer("rope", 8, 64, FamilyConfig()).words
    shaw = families_answer("shaw", 4, 64, FamilyConfig(clip=2, heads=4))
    assert shaw.number == f"{2 * 5 * 16:,}"  # a^K and a^V: 2k + 1 rows of d/H each
    rope = families_answer("rope", 4, 256, FamilyConfig())
    assert rope.number == "0" and "it turns the two vectors a score compares" in rope.words


@pytest.mark.parametrize("method, T, d, fam", EVERY_SETTING)
def test_the_table_reads_at_every_setting(method, T, d, fam):
    from core.families import overview_rows, past_trained_note
    from tests.core.prose import prose_problems

    fam.validate(d, T)
    cells = [str(v) for row in overview_rows(T, d, fam) for v in row.values()]
    text = "\n".join([*cells, past_trained_note(T)])
    assert not prose_problems(text), prose_problems(text)
    assert "IndexError" not in text and "extrapolate" not in "\n".join(cells)  # words taught later


@pytest.mark.parametrize("T, d, fam", ODD_SETTINGS)
def test_t5s_table_and_finding_name_the_same_last_bucket(T, d, fam):
    # The table's "past the trained length" and chart 1's finding both say where the last bucket begins
    from core.families import drawn_span, logit_findings, overview_rows
    from core.positional.t5 import last_distinct_distance

    start = last_distinct_distance(fam)
    row = next(r for r in overview_rows(T, d, fam) if r["family"] == "T5 bias")
    cell = row[f"past the trained length (T = {T:,})"]
    assert f"from distance {start:,} on, the last bucket" in cell
    assert ("begins before the max distance" in cell) == (start < fam.max_distance)
    r = torch.arange(drawn_span(T, fam))  # every distance: the flat tail starts where the bucket does
    finding = logit_findings("t5", r, position_logits("t5", r, fam, d, SEED, None, T), T, fam)
    if "flat from" in finding:
        assert f"flat from distance {start:,} on" in finding


def test_t5s_finding_says_why_the_last_bucket_begins_before_the_max_distance():
    text = findings("t5")
    # 16 log-spaced buckets from 16 to 128: each 8^(1/16) = 1.139 times as wide as the one before
    assert text.endswith(
        "Distances past 128 share the last bucket, and that bucket begins earlier: with the causal mask, T5 "
        "spends all 32 on keys before the query: distances 0 … 15 one each, then 16 buckets of growing "
        "width up to 128, the last starting at 113, each about 1.14 times as wide as the one before."
    )
    assert "decoder" not in text
    one_wide = findings("t5", FamilyConfig(buckets=4, max_distance=3), span=64)  # no ratio for one bucket
    assert "times as wide" not in one_wide


@pytest.mark.parametrize("T, fits", [(4, 0), (64, 5), (65_536, 16)])
def test_ropes_table_counts_the_speeds_that_turn_once_within_the_trained_length(T, fits):
    from core.positional.rope import rope_inv_freq

    wavelengths = 2 * math.pi / rope_inv_freq(32, 10000.0, torch.float64)  # head dim 256 / 8
    assert int((wavelengths <= T).sum()) == fits
    cell = FAMILIES["rope"].past_trained(T, 256, FamilyConfig())
    if fits == 16:
        assert (
            cell
            == f"the same rotation; each of its 16 turning speeds goes fully round within {T:,} positions: "
            "no angle is new"
        )
    else:
        slow = "all 16 turning speeds are" if fits == 0 else f"{16 - fits} of the 16 turning speeds are"
        too_slow = f"{slow} too slow to go once round in {T:,} positions"
        assert cell == f"the same rotation; {too_slow}: past it, they reach new angles"


@pytest.mark.parametrize("T", [1, 4, 1024])
def test_past_the_trained_length_says_what_the_lectures_claim_means_and_where_it_stops(T):
    from core.families import past_trained_note
    from core.views.glossary import define

    note = past_trained_note(T)
    assert "“generalize better to sequences of varying lengths, even if it has not seen such lengths" in note
    assert f"fixed sinusoid can {define('extrapolate')}" in note  # the notebook's word, defined
    shows = "distance 0 only" if T == 1 else f"distances 0 … {T - 1:,} only"
    assert f"training on {T:,} token{'' if T == 1 else 's'} shows {shows}" in note
    assert "even the sinusoid's vectors there are new to the model" in note
    sinusoid = FAMILIES["sinusoidal"].past_trained(T, 256, FamilyConfig())
    seen = "position 0" if T == 1 else f"positions 0 … {T - 1:,}"
    assert sinusoid == f"a vector by the same formula, but one training never saw (it saw {seen})"


def test_the_sinusoids_similarity_finding_joins_the_attention_pages():
    from core.families import similarity_findings
    from core.similarity import cosine_matrix

    positions = torch.arange(16)
    waves = cosine_matrix(sinusoidal_at(positions, 64).double())
    text = similarity_findings("sinusoidal", positions, waves)
    assert "depends only on the distance |i − j|" in text
    assert (
        "On the Attention page, Sinusoidal's part of a score depends on where each token stands, not only on "
        "i − j, and both are true: here the position vectors are compared alone" in text
    )
    turned = FAMILIES["rope"].vectors(positions, 64, FamilyConfig())
    assert "Attention page" not in similarity_findings("rope", positions, cosine_matrix(turned))  # agrees
