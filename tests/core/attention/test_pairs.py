"""The pairs a relative method sees: its own term for two tokens in two sentences, against values worked
by hand from each paper's formula, and the sentences that say what they show."""

import math

import pytest
import torch

from core.attention.compare import (
    PairSide,
    PairTerm,
    family_term,
    headline_pairs,
    pair_sentence,
    pair_terms,
    visible_keys,
)
from core.attention.facts import key_fact
from core.attention.heads import RandomHead
from core.attention.maps import family_maps
from core.order import reordering_sentence
from core.positional.family import FAMILIES, FamilyConfig
from core.positional.t5 import last_distinct_distance, t5_bias_table

FAM = FamilyConfig()  # 8 heads: ALiBi's head 1 has slope 2^-1
D = 16
# The lecture's pair, as IDs: The cat sat on the mat / On the mat the cat sat (' the' twice in B)
THE, CAT, SAT, ON, THE_, MAT, ON_ = 383, 3797, 3332, 319, 262, 2603, 1550
IDS_A = [THE, CAT, SAT, ON, THE_, MAT]
IDS_B = [ON_, THE_, MAT, THE_, CAT, SAT]


def maps(name: str, causal: bool = True):
    """Both sentences' maps under ``name``, with seeded token vectors (one per ID) and a random head."""
    g = torch.Generator().manual_seed(0)
    vectors = {t: torch.randn(D, generator=g) for t in dict.fromkeys(IDS_A + IDS_B)}
    head = RandomHead(D, FAM.heads, 0, 123)
    out = []
    for ids in (IDS_A, IDS_B):
        tok = torch.stack([vectors[t] for t in ids])  # [T, d]
        tables = {}
        if FAMILIES[name].additive:
            g2 = torch.Generator().manual_seed(1)
            tables[name] = tok + torch.randn(len(ids), D, generator=g2)  # a table added at the input
        common = {"head": 0, "fam": FAM, "dim": D, "seed": 123, "causal": causal}
        out.append(family_maps(head.project, tok, tables, names=(name,), **common)[name])
    return out


def pairs(name: str, causal: bool = True) -> dict[frozenset, PairTerm]:
    a, b = maps(name, causal)
    return {p.tokens: p for p in pair_terms(FAMILIES[name], a, b, IDS_A, IDS_B)}


def test_only_tokens_found_once_in_each_sentence_make_pairs():
    found = pairs("alibi")
    assert set(found) == {frozenset({CAT, SAT}), frozenset({CAT, MAT}), frozenset({SAT, MAT})}  # not ' the'


def test_the_later_token_is_the_query_in_each_sentence():
    p = pairs("alibi")[frozenset({CAT, MAT})]
    assert (p.query_a, p.key_a, p.a.query, p.a.key) == (MAT, CAT, 5, 1)  # A: ' mat' looks 4 back
    assert (p.query_b, p.key_b, p.b.query, p.b.key) == (CAT, MAT, 4, 2)  # B: ' cat' looks 2 back
    assert not p.kept and not p.swapped


def test_alibi_adds_minus_slope_times_distance():
    found = pairs("alibi")
    kept = found[frozenset({CAT, SAT})]
    assert kept.kept and (kept.a.term, kept.b.term) == (-0.5, -0.5)  # m = 2^-1, one token back in both
    changed = found[frozenset({CAT, MAT})]
    assert (changed.a.term, changed.b.term) == (-2.0, -1.0)  # 4 back in A, 2 back in B
    swapped = found[frozenset({SAT, MAT})]  # A: mat looks 3 back to sat; B: sat looks 3 back to mat
    assert swapped.swapped and swapped.same_term and swapped.a.term == -1.5


def test_t5_gives_one_bucket_one_number():
    table = t5_bias_table(FAM, D, 123)  # [buckets, H], untrained
    kept = pairs("t5")[frozenset({CAT, SAT})]
    assert kept.a.term == kept.b.term == pytest.approx(float(table[1, 0]), abs=0)  # distance 1: bucket 1
    changed = pairs("t5")[frozenset({CAT, MAT})]
    assert (changed.a.term, changed.b.term) == (float(table[4, 0]), float(table[2, 0]))


def test_rope_scores_the_same_two_tokens_at_the_same_distance_the_same():
    a, b = maps("rope")
    kept = pairs("rope")[frozenset({CAT, SAT})]
    assert kept.kept and kept.same_term
    # By hand: q and k of the two tokens, each pair of dims turned by position·base^(-2i/dh)
    head = RandomHead(D, FAM.heads, 0, 123)
    g = torch.Generator().manual_seed(0)
    vectors = {t: torch.randn(D, generator=g) for t in dict.fromkeys(IDS_A + IDS_B)}
    q, _ = head.project(vectors[SAT][None])
    _, k = head.project(vectors[CAT][None])
    q, k = q[0].double(), k[0].double()  # [dh]
    dh = len(q)

    def turn(x, p):
        out = x.clone()
        for i in range(dh // 2):
            theta = p * 10000.0 ** (-2 * i / dh)
            c, s = math.cos(theta), math.sin(theta)
            out[2 * i], out[2 * i + 1] = x[2 * i] * c - x[2 * i + 1] * s, x[2 * i] * s + x[2 * i + 1] * c
        return out

    by_hand = float(turn(q, 2) @ turn(k, 1)) / math.sqrt(dh)  # A: ' sat' at 2, ' cat' at 1
    assert kept.a.term == pytest.approx(by_hand, abs=1e-12)
    assert float(family_term(FAMILIES["rope"], a)[2, 1]) == kept.a.term


def test_nope_has_no_term_and_the_mask_decides_what_a_token_sees():
    assert all(p.a.term == p.b.term == 0 for p in pairs("nope").values())
    a, b = maps("nope")
    assert (visible_keys(a, 1), visible_keys(b, 4)) == (2, 5)  # ' cat' at 1 in A, at 4 in B
    a, b = maps("nope", causal=False)
    assert (visible_keys(a, 1), visible_keys(b, 4)) == (6, 6)


def test_an_absolute_method_gives_a_kept_pair_another_term():
    kept = pairs("learned")[frozenset({CAT, SAT})]
    assert kept.kept and not kept.same_term  # its term depends on both places


def test_the_headline_prefers_pairs_with_the_moved_token():
    found = list(pairs("alibi").values())
    kept, changed = headline_pairs(found, CAT)
    assert kept.tokens == {CAT, SAT} and changed.tokens == {CAT, MAT}
    kept, changed = headline_pairs(found, MAT)
    assert kept.tokens == {CAT, SAT} and changed.tokens == {CAT, MAT}  # no kept pair with ' mat': any
    assert headline_pairs([], CAT) == (None, None)


PIECES = {CAT: " cat", SAT: " sat", MAT: " mat"}


def side(q, k, term):
    return PairSide(q, k, term)


@pytest.mark.parametrize(
    "pair, relative, expected",
    [
        (
            PairTerm(SAT, CAT, SAT, CAT, side(2, 1, -0.5), side(5, 4, -0.5)),
            True,
            "In A and in B, ' sat' looks 1 token back to ' cat': the ALiBi term is -0.5000 in both: the same "
            "distance, the same term.",
        ),
        (
            PairTerm(MAT, CAT, CAT, MAT, side(5, 1, -2.0), side(4, 2, -1.0)),
            True,
            "In A ' mat' looks 4 tokens back to ' cat'; in B ' cat' looks 2 tokens back to ' mat': the ALiBi "
            "term is -2.0000 in A and -1.0000 in B: another distance (and the other token looks back), "
            "another term.",
        ),
        (
            PairTerm(SAT, CAT, SAT, CAT, side(2, 1, 0.25), side(5, 4, -0.5)),
            False,
            "In A and in B, ' sat' looks 1 token back to ' cat': the ALiBi term is +0.2500 in A and -0.5000 "
            "in B: the same distance, yet another term: it depends on where the two tokens stand.",
        ),
        (
            PairTerm(MAT, SAT, SAT, MAT, side(5, 2, -1.5), side(5, 2, -1.5)),
            True,
            "In A ' mat' looks 3 tokens back to ' sat'; in B ' sat' looks 3 tokens back to ' mat': the ALiBi "
            "term is -1.5000 in both: the two tokens swapped places at the same distance, and the term "
            "stayed.",
        ),
    ],
)
def test_a_pair_in_words(pair, relative, expected):
    assert pair_sentence(pair, "ALiBi", PIECES, relative) == expected


def test_alibis_key_fact_names_its_slope_and_its_values_at_the_pairs_distances():
    fact = key_fact(FAMILIES["alibi"], FAM, 0, [1, 3, 3, 0], causal=True)
    assert "slope m = 0.5" in fact
    assert "-0.5 for a key 1 token back and -1.5 for a key 3 tokens back" in fact
    assert "m = 0.25" in key_fact(FAMILIES["alibi"], FAM, 1, [1], causal=True)  # head 2 of 8: 2^-2


def test_t5s_last_bucket_starts_earlier_in_a_decoder():
    # 32 buckets, all looking back, 16 exact: r ≥ 16·8^(15/16) = 112.4
    assert last_distinct_distance(FAM, bidirectional=False) == 113
    # 16 a side, 8 exact: the last starts where 8·log(r/8)/log(16) ≥ 7, r ≥ 8·16^(7/8) = 90.5
    assert last_distinct_distance(FAM, bidirectional=True) == 91
    assert "from 113 on shares the last one" in key_fact(FAMILIES["t5"], FAM, 0, [1], causal=True)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_has_a_key_fact_without_its_internal_key(name):
    for causal in (True, False):
        fact = key_fact(FAMILIES[name], FAM, 0, [1, 2], causal)
        assert fact.endswith(".") and f" {name} " not in f" {fact} "


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ([1, 2, 3], [3, 1, 2], "B is an exact reordering of A's tokens."),
        (
            [383, 3797, 262],
            [1550, 3797, 262],
            "A and B are not an exact reordering of each other: 1 of B's 3 distinct tokens is not in A "
            "(for example ' On'), so they differ even without positions.",
        ),
        (
            [464, 3797],
            [383, 3797],
            "A and B are not an exact reordering of each other: 1 of B's 2 distinct tokens is not in A "
            "(GPT-2 gives ' The' and 'The' different IDs), so they differ even without positions.",
        ),
        (
            [1, 2, 3],
            [5, 6, 3],
            "A and B are not an exact reordering of each other: 2 of B's 3 distinct tokens are not in A "
            "(for example 'e'), so they differ even without positions.",
        ),
        (
            [1, 2, 2],
            [1, 1, 2],
            "A and B use the same tokens, but not equally often, so they differ even without positions.",
        ),
        (
            [1, 2, 3],
            [1, 2],
            "A and B are not an exact reordering of each other: 1 of A's 3 distinct tokens is not in B "
            "(for example 'c'), so they differ even without positions.",
        ),
    ],
)
def test_reordering_sentence(a, b, expected):
    pieces = {1: "a", 2: "b", 3: "c", 5: "e", 6: "f", 383: " The", 464: "The", 3797: " cat", 262: " the"}
    pieces |= {1550: " On"}
    assert reordering_sentence(a, b, pieces) == expected
