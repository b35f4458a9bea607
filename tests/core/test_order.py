import pytest
import torch

from core.config import MAX_DIM
from core.order import (
    check_sentence_tokens,
    compare_orders,
    count_shared_vectors,
    max_sentence_tokens,
    permutation,
    shared_tokens,
)
from core.serving.budget import REQUEST_BYTES
from core.text.tokenizer import encode

A, B = encode("The cat sat on the mat"), encode("On the mat the cat sat")


def tables(d=16, n=6):
    g = torch.Generator().manual_seed(3)
    vocab = {i: torch.randn(d, generator=g) for i in set(A + B)}
    tok_a = torch.stack([vocab[i] for i in A])
    tok_b = torch.stack([vocab[i] for i in B])
    pos = torch.randn(n, d, generator=g)
    return tok_a, tok_b, pos


def test_cat_is_the_same_vector_without_positions_only():
    tok_a, tok_b, pos = tables()
    cat = next(s for s in shared_tokens(A, B, tok_a, tok_b, pos) if s.token_id == 3797)
    assert (cat.position_a, cat.position_b) == (1, 4)
    assert cat.cosine_without == 1.0
    assert cat.cosine_with < 0.99
    assert cat.norm_with_a != cat.norm_with_b


def test_shuffle_gives_the_same_set_of_vectors_without_positions():
    tok_a, _, pos = tables()
    order = permutation(len(A), seed=1)
    assert sorted(order) == list(range(len(A))) and order != list(range(len(A)))
    c = compare_orders(tok_a, tok_a[order], pos)
    assert c.shared_without == len(A)
    fixed_points = sum(k == o for k, o in enumerate(order))
    assert c.shared_with == fixed_points
    # The mean is blind to order even with positions: mean(tok + pos) = mean(tok) + mean(pos).
    assert c.mean_diff_without == 0.0
    assert c.mean_diff_with < 1e-12


def test_count_shared_vectors():
    x = torch.eye(3)
    assert count_shared_vectors(x, x[[2, 0]]) == 2
    assert count_shared_vectors(x, x + 1e-6) == 0


def test_mid_sentence_adds_one_leading_space():
    from core.order import mid_sentence

    assert mid_sentence("dog bites man") == " dog bites man"
    assert mid_sentence(" dog") == " dog"


def test_the_headline_token_is_the_first_that_moved():
    from core.order import SharedToken, first_moved

    def tok(i, pa, pb):
        return SharedToken(i, pa, pb, 1.0, 1.0, 1.0, 1.0, 1.0)

    assert first_moved([tok(1, 0, 0), tok(2, 1, 3), tok(3, 2, 1)]).token_id == 2
    assert first_moved([tok(1, 0, 0)]) is None


def comparison(shared_with, n=6, diff=2e-17, shared_without=None):
    from core.order import OrderComparison

    without = n if shared_without is None else shared_without
    return OrderComparison(without, shared_with, n, 1.0, 1.0, 0.0, diff)


@pytest.mark.parametrize(
    "shared_with, says",
    [
        (0, "none of the 6 vectors is the same"),
        (1, "only 1 of the 6 vectors is still the same"),
        (2, "only 2 of the 6 vectors are still the same"),
        (6, "all 6 vectors are still the same"),
    ],
)
def test_the_shuffle_sentences_follow_the_numbers(shared_with, says):
    from core.order import shuffle_sentences

    text = " ".join(shuffle_sentences("learned", True, comparison(shared_with)))
    assert says in text
    assert "exactly the same 6 vectors" in text and "rounding in the last digits" in text
    assert "e-17" not in text  # a student reads words, not 2.0e-17


def test_means_that_are_exactly_equal_are_not_said_to_differ_by_rounding():
    from core.order import shuffle_sentences

    text = " ".join(shuffle_sentences("sinusoidal", True, comparison(2, diff=0.0)))
    assert "the two averages are exactly equal" in text
    assert "0.0e+00" not in text and "rounding" not in text


@pytest.mark.parametrize(
    "method, says",
    [
        ("rope", "RoPE turns the vectors that attention compares"),
        ("alibi", "penalty that grows with their distance"),
        ("nope", "Nothing but a causal mask depends on position here"),
    ],
)
def test_methods_that_add_nothing_say_so(method, says):
    from core.order import shuffle_sentences
    from core.positional.family import FAMILIES

    text = " ".join(shuffle_sentences(method, False, comparison(6)))
    assert says in text and "all 6 vectors are unchanged" in text
    assert f"**With {FAMILIES[method].label}**" in text
    assert "none of the" not in text and "the order is now in the numbers" not in text


@pytest.mark.parametrize("n", [0, 1])
def test_a_sentence_with_one_order_says_there_is_nothing_to_shuffle(n):
    from core.order import shuffle_sentences

    for method, additive in (("learned", True), ("rope", False)):
        (sentence,) = shuffle_sentences(method, additive, comparison(n, n=n))
        assert "has only one order" in sentence and "vectors" not in sentence


@pytest.mark.parametrize("dim, most", [(1, 64), (256, 64), (4096, 64), (12288, 63), (16384, 47)])
def test_max_sentence_tokens_by_dim(dim, most):
    # REQUEST_BYTES is 100 MB: 100e6 // (16 copies · 8 bytes · 16,384) = 47
    assert REQUEST_BYTES == 100_000_000
    assert max_sentence_tokens(dim) == most


def test_sixteen_float64_copies_of_a_longest_sentence_fit_the_request_budget():
    for dim in range(1, MAX_DIM + 1):
        assert 8 <= max_sentence_tokens(dim) <= 64
        assert max_sentence_tokens(dim) * dim * 8 * 16 <= REQUEST_BYTES


def test_a_sentence_over_the_bound_is_refused_with_both_lengths():
    check_sentence_tokens(47, 47, 16384)  # at the bound: accepted
    with pytest.raises(ValueError, match="at most 47 tokens at d = 16,384 .* A has 48 and B has 3"):
        check_sentence_tokens(48, 3, 16384)
    with pytest.raises(ValueError, match="B has 600"):
        check_sentence_tokens(3, 600, 16384)  # 300 × U+1F600 are 600 GPT-2 tokens
