"""Generated sentences, over many settings: one and many, none, equal counts, tokens that differ only
by case or a leading space. Each must pass ``tests.core.prose.prose_problems``: counts that agree with
their nouns and verbs, labels where an internal family key would be, no "0.0e+00" called rounding,
no "1.0× shorter"."""

from __future__ import annotations

import itertools

import pytest
import torch

from core.families import logit_findings, position_logits
from core.order import OrderComparison, shuffle_sentences
from core.pipeline import sample_indices
from core.positional.family import FAMILIES, FamilyConfig
from core.positional.t5 import bucket_layout, last_distinct_distance, t5_relative_bucket
from core.text.tokenizer import encode
from core.text.vocab import SweepPoint, vocab_sweep
from core.views.units import count_of, every, plural, verb
from core.views.vocab_sentence import tradeoff_sentence
from tests.core.prose import prose_problems


def assert_clean(text: str) -> None:
    assert not prose_problems(text), (prose_problems(text), text)


def test_the_checks_catch_what_they_name():
    bad = [
        "exactly the same 1 vectors",
        "only 1 of 6 vectors are still the same",
        "2 of the 6 vectors is",
        "they differ by at most 0.0e+00 (float rounding)",
        "the text goes from 200 to 200 tokens (1.0× shorter)",
        "With rope nothing is added",
        "**learned** adds nothing",
        "all 1 positions",
        "3 token",
    ]
    for text in bad:
        assert prose_problems(text), text
    good = [
        "exactly the same 6 vectors",
        "1 of the 6 vectors is still the same",
        "none of the 6 vectors is the same",
        "2,001 tokens and 1 token, 0 tokens, 11 rows",
        "With RoPE nothing is added; the learned table adds one trained vector per position",
        "a 1-token text",
        "3.4× shorter",
    ]
    for text in good:
        assert not prose_problems(text), (text, prose_problems(text))


def test_counts_agree_with_their_nouns_and_verbs():
    assert [plural(n, "vector") for n in (0, 1, 2, 1000)] == [
        "0 vectors",
        "1 vector",
        "2 vectors",
        "1,000 vectors",
    ]
    assert plural(2, "matrix", "matrices") == "2 matrices" and verb(1) == "is" and verb(0) == "are"
    assert [count_of(k, 6, "vector") for k in (0, 1, 2, 6)] == [
        "none of the 6 vectors is",
        "1 of the 6 vectors is",
        "2 of the 6 vectors are",
        "all 6 vectors are",
    ]
    assert count_of(1, 1, "vector") == "the one vector is" and count_of(0, 1, "vector") == "no vector is"
    assert every(1, 1, "positions") == "the only position" and every(1, 4, "positions") == "all 4 positions"


def comparisons():
    """Shuffle comparisons of 0 to 7 vectors: every count of unchanged ones, means equal, rounded or apart."""
    for n in range(8):
        for same_with, diff in itertools.product(range(n + 1), (0.0, 2e-17, 1e-3)):
            yield OrderComparison(n, same_with, n, 1.0, 1.0 - diff, 0.0, diff)
    yield OrderComparison(4, 1, 6, 0.9, 0.9, 0.1, 0.1)  # not a shuffle: some vectors not among A's


@pytest.mark.parametrize("method", list(FAMILIES))
def test_the_shuffle_sentences_read_for_every_count_and_method(method):
    family = FAMILIES[method]
    for comparison in comparisons():
        sentences = shuffle_sentences(method, family.additive, comparison)
        text = " ".join(sentences)
        assert_clean(text)
        n = comparison.num_vectors
        if n >= 2 and not family.additive:
            assert f"**With {family.label}**" in text
        if n >= 2 and family.additive and 0 < comparison.shared_with < n:
            assert f"only {count_of(comparison.shared_with, n, 'vector')} still the same" in text
        if n >= 2 and family.additive and comparison.mean_diff_with == 0:
            assert "exactly equal" in text and "rounding" not in text


def sweep_points(small: int, large: int) -> list[SweepPoint]:
    return [SweepPoint(257, small), SweepPoint(1000, (small + large) // 2), SweepPoint(50257, large)]


@pytest.mark.parametrize(
    "small, large, says",
    [
        (200, 200, "stays at 200 tokens"),
        (1, 1, "stays at 1 token from"),
        (0, 0, "has no tokens at any V"),
        (200, 199, "1 token fewer, 0.5% of them"),
        (200_000, 199_999, "1 token fewer, under 0.1% of them"),
        (210, 200, "10 tokens fewer, 4.8% of them"),
        (340, 100, "3.4× shorter"),
        (2, 1, "from 2 to 1 token (2.0× shorter"),
    ],
)
def test_the_vocab_sentence_says_what_the_counts_do(small, large, says):
    for whole_text, V, n, d in itertools.product((True, False), (257, 50257), (0, 1, 7), (1, 256)):
        text = tradeoff_sentence(sweep_points(small, large), V, n, d, whole_text)
        assert says in text, text
        assert_clean(text)
        assert "shorter" not in text or large < small / 1.05


@pytest.mark.parametrize(
    "text",
    [
        "x",  # one token at every V
        "The the THE tHe",  # tokens that differ only by case
        " the the\tthe\nthe",  # ... or by a leading space
        "The cat sat on the mat. On the mat the cat sat.",
        "\x00\x01\x02\x03",  # bytes GPT-2 merges with nothing: the same count at every V
    ],
)
def test_the_vocab_sentence_reads_for_real_texts(text):
    points = vocab_sweep(text)
    for V in (257, 1000, 50257):
        sentence = tradeoff_sentence(points, V, len(encode(text, V)), 64)
        assert_clean(sentence)
        if points[0].num_tokens == points[-1].num_tokens:
            assert "shorter" not in sentence and "stays at" in sentence


FAMILY_SETTINGS = [
    FamilyConfig(),
    FamilyConfig(heads=1, clip=0, buckets=4, max_distance=3),
    FamilyConfig(clip=1, buckets=8, max_distance=20, extrapolate=1),
    FamilyConfig(buckets=64, max_distance=1000, clip=2, extrapolate=8),
]


@pytest.mark.parametrize("method", list(FAMILIES))
@pytest.mark.parametrize("context", [1, 2, 4, 64])
def test_what_to_look_at_reads_for_every_family_and_setting(method, context):
    from core.embeddings import TableRows
    from core.families import drawn_span

    for fam in FAMILY_SETTINGS:
        fam.validate(16, context)  # settings the page accepts
        r = sample_indices(drawn_span(context, fam), 400)
        rows = None
        if FAMILIES[method].additive:  # the table's rows at 0 and every drawn distance
            rows = FAMILIES[method].input_rows(r, context, 16, 3, fam, None)
            assert isinstance(rows, TableRows)
        y = position_logits(method, r, fam, 16, 3, rows, context)
        assert_clean(logit_findings(method, r, y, context, fam))


def test_the_t5_finding_joins_the_flat_tail_to_the_max_distance():
    fam = FamilyConfig()
    r = sample_indices(256, 400)
    text = logit_findings("t5", r, position_logits("t5", r, fam, 256, 123, None, 4), 4, fam)
    # 32 causal buckets: 16 for distances 0 … 15, then 16 log-spaced up to 128; the last from 16·8^(15/16)
    assert "flat from distance 113 on (max distance 128)" in text
    assert "Distances past 128 share the last bucket, and that bucket begins earlier" in text
    assert "all 32 on keys before the query: distances 0 … 15 one each" in text
    assert "16 buckets of growing width up to 128, the last starting at 113" in text


@pytest.mark.parametrize("fam", FAMILY_SETTINGS)
@pytest.mark.parametrize("bidirectional", [False, True])
def test_the_bucket_layout_names_where_the_last_bucket_begins(fam, bidirectional):
    text = bucket_layout(fam, bidirectional)
    assert_clean(text)
    start = last_distinct_distance(fam, bidirectional)
    r = torch.arange(fam.max_distance + 2)
    buckets = t5_relative_bucket(-r, bidirectional, fam.buckets, fam.max_distance)
    assert int(r[buckets == buckets[-1]][0]) == start  # where the max distance's bucket begins
    assert f"{start:,}" in text
    if bidirectional and fam == FamilyConfig():
        assert "16 per side" in text and "the last starting at 91" in text  # 8 · 16^(7/8) = 90.5


@pytest.mark.parametrize("context", [1, 4, 100])
def test_the_learned_finding_says_a_table_is_as_long_as_it_was_built(context):
    fam = FamilyConfig()
    r = sample_indices(256, 400)
    rows = FAMILIES["learned"].input_rows(r, context, 8, 3, fam, None)
    text = logit_findings("learned", r, position_logits("learned", r, fam, 8, 3, rows, context), context, fam)
    assert_clean(text)
    assert f"nn.Embedding({context}, d) has rows 0 … {context - 1}" in text
    assert "a longer table is a different, bigger one" in text
    assert ("has one row" in text) == (context == 1)


def picture_tables(T: int = 16, d: int = 64):
    """A random table, one whose similarity is a band along the diagonal, one of two opposite blocks."""
    g = torch.Generator().manual_seed(0)
    noise = torch.randn(T, d, generator=g)
    t = torch.arange(T, dtype=torch.float64)[:, None]
    w = torch.linspace(0.3, 1.5, d // 2, dtype=torch.float64)[None, :]  # many frequencies: a narrow band
    band = torch.cat(((t * w).sin(), (t * w).cos()), dim=1).float()
    sign = torch.where(torch.arange(T) < T // 2, 1.0, -1.0)[:, None]
    blocks = sign * torch.ones(T, d) + 0.5 * noise  # early rows one way, late rows the other
    return noise, band, blocks


def test_the_learned_tables_picture_is_said_from_its_numbers():
    from core.training.training import similarity_picture

    noise, band, blocks = picture_tables()
    assert similarity_picture(noise).startswith("Only the diagonal stands out")
    assert similarity_picture(band).startswith("A band along the diagonal")
    text = similarity_picture(blocks)
    assert text.startswith("Two blocks: positions 0–7 are alike among themselves") and "8–15" in text
    for table in (noise, band, blocks, noise[:4], noise[:3]):
        assert_clean(similarity_picture(table))


def test_the_training_table_and_chart_say_the_same_of_a_learned_table():
    from core.training.position_loss import extrapolation_sentences, position_loss_frame
    from core.training.training import TrainConfig, TrainResult, comparison_rows

    def run(method, losses):
        r = TrainResult(TrainConfig(method=method, context_length=2), 10, 100, 3.0)
        r.val_loss_inside, r.val_loss_past_inside, r.val_loss_past_outside = 2.0, 2.1, 2.9
        r.loss_by_position = losses
        return r

    results = {
        "learned": run("learned", [3.0, 2.0]),
        "rope": run("rope", [3.0, 2.0, 2.5, 3.5]),
        "alibi": None,
    }
    rows = comparison_rows(results, 2)
    assert [row["method"] for row in rows] == ["Learned absolute", "RoPE", "ALiBi"]
    assert rows[0]["windows of 4: positions < 2"] == "cannot run a window of 4"  # the table
    assert "Learned absolute (windows of 2)" in set(position_loss_frame(results, 2)["method"])  # the chart
    sentences = extrapolation_sentences(results, 2)
    assert "cannot run a window of 4 at all; its line is its loss in windows of 2" in sentences[0]
    for text in [*sentences, *(str(row) for row in rows)]:
        assert_clean(text)
