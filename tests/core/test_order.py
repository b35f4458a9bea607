import torch

from core.order import compare_orders, count_shared_vectors, permutation, shared_tokens
from core.tokenizer import encode

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
