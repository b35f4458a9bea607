"""core.attention against 3-token examples worked by hand (dh = 2), and its heads, comparisons and charts."""

import math

import numpy as np
import pytest
import torch

from core.attention.charts import attention_heatmap, symmetric_domain
from core.attention.compare import (
    DIAGONAL,
    NONE,
    PLACES,
    KeyWeight,
    change_sentences,
    every_family_sentence,
    moved_row,
    moved_token,
    pattern,
    signature,
    top_key,
)
from core.attention.display import chart_bytes, heatmap_frame, shown_note, shown_positions, token_labels
from core.attention.heads import RandomHead, TrainedHead
from core.attention.maps import attention_map, causal_mask, family_maps
from core.order import first_moved, shared_tokens
from core.positional.family import FAMILIES, FamilyConfig
from core.positional.shaw import shaw_key_vectors
from core.positional.t5 import t5_bias_table
from core.training.model import GPTConfig, TinyGPT, first_block_state, init_weights, trainable_methods

FAM = FamilyConfig()  # heads 8: ALiBi's head 1 has slope 1/2
R2 = math.sqrt(2.0)  # √dh
Q0 = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], dtype=torch.float64)  # [3, 2]
K0 = Q0.clone()
# q_i·k_j by hand: [[1, 0, 1], [0, 1, 1], [1, 1, 2]], over √2
DOTS = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]


def softmax(row: list[float]) -> list[float]:
    e = [math.exp(v) for v in row]
    return [v / sum(e) for v in e]


def amap(name: str, **kwargs):
    return attention_map(FAMILIES[name], Q0, K0, head=0, fam=FAM, dim=256, seed=123, **kwargs)


def test_the_causal_mask_lets_a_query_see_itself_and_the_past():
    assert causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]


def test_nope_is_the_content_and_the_mask_alone():
    m = amap("nope")
    torch.testing.assert_close(m.content, torch.tensor(DOTS, dtype=torch.float64) / R2)
    assert m.position.abs().max() == 0
    assert m.weights[0].tolist() == [1.0, 0.0, 0.0]  # the first token sees only itself
    e = math.exp(1 / R2)
    assert m.weights[1].tolist() == pytest.approx([1 / (1 + e), e / (1 + e), 0.0], abs=1e-12)
    assert m.weights[2].tolist() == pytest.approx(softmax([1 / R2, 1 / R2, 2 / R2]), abs=1e-12)
    assert torch.isinf(m.scores[0, 1]) and m.scores[0, 1] < 0


def test_without_the_mask_every_key_is_seen():
    m = amap("nope", causal=False)
    assert m.mask.all()
    assert m.weights[0].tolist() == pytest.approx(softmax([1 / R2, 0.0, 1 / R2]), abs=1e-12)


def test_alibi_subtracts_half_per_token_of_distance_in_head_1():
    m = amap("alibi")
    # −m·(i − j) with m = 1/2, the visible cells row by row: (0,0); (1,0), (1,1); (2,0), (2,1), (2,2)
    assert m.position[m.mask].tolist() == pytest.approx([0.0, -0.5, 0.0, -1.0, -0.5, 0.0])
    assert m.weights[2].tolist() == pytest.approx(softmax([1 / R2 - 1, 1 / R2 - 0.5, 2 / R2]), abs=1e-7)
    other = attention_map(FAMILIES["alibi"], Q0, K0, head=7, fam=FAM, dim=256, seed=123)
    assert float(other.position[2, 0]) == pytest.approx(-2 * 2**-8)  # head 8's slope is 2^−8


def test_t5_adds_its_bucket_bias_causal_and_bidirectional():
    table = t5_bias_table(FAM, 256, 123).double()  # [32 buckets, 8 heads]
    m = amap("t5")  # causal: 32 buckets for the past, offsets 0, 1, 2 are buckets 0, 1, 2
    assert float(m.position[2, 0]) == pytest.approx(float(table[2, 0]))
    assert float(m.position[2, 1]) == pytest.approx(float(table[1, 0]))
    assert float(m.position[1, 1]) == pytest.approx(float(table[0, 0]))
    both = amap("t5", causal=False)  # bidirectional: keys after the query use buckets 16 + offset
    assert float(both.position[0, 2]) == pytest.approx(float(table[16 + 2, 0]))
    assert float(both.position[2, 0]) == pytest.approx(float(table[2, 0]))
    head3 = attention_map(FAMILIES["t5"], Q0, K0, head=2, fam=FAM, dim=256, seed=123)
    assert float(head3.position[2, 0]) == pytest.approx(float(table[2, 2]))


def test_shaw_adds_q_dot_its_clipped_key_vector():
    fam = FamilyConfig(clip=1)  # rows 0, 1, 2 hold offsets −1, 0, +1; −2 is clipped to −1
    a_k = shaw_key_vectors(2, 123, torch.arange(3)).double()  # [3, 2]
    m = attention_map(FAMILIES["shaw"], Q0, K0, head=0, fam=fam, dim=256, seed=123)
    for i, j, row in [(2, 0, 0), (2, 1, 0), (1, 0, 0), (1, 1, 1), (0, 0, 1)]:
        assert float(m.position[i, j]) == pytest.approx(float(Q0[i] @ a_k[row]) / R2), (i, j)
    unmasked = attention_map(FAMILIES["shaw"], Q0, K0, head=0, fam=fam, dim=256, seed=123, causal=False)
    assert float(unmasked.position[0, 2]) == pytest.approx(float(Q0[0] @ a_k[2]) / R2)  # offset +2 → +1


def test_rope_is_the_rotated_score_minus_the_plain_one():
    m = amap("rope")  # dh = 2: one pair, θ = 1 rad per position
    # q_2 = [1, 1] turned by 2 rad, k_0 = [1, 0] not turned: their dot is cos 2 − sin 2
    assert float(m.position[2, 0]) == pytest.approx((math.cos(2) - math.sin(2) - 1) / R2, abs=1e-12)
    # q_1 = [0, 1] by 1 rad, k_0 = [1, 0]: −sin 1
    assert float(m.position[1, 0]) == pytest.approx(-math.sin(1) / R2, abs=1e-12)
    assert m.position.diagonal().abs().max() < 1e-12  # a token meets itself at angle 0


@pytest.mark.parametrize("name", ["learned", "sinusoidal"])
def test_an_additive_family_scores_the_input_with_its_table_added(name):
    shift = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]], dtype=torch.float64)  # p W for each token
    m = amap(name, q_in=Q0 + shift, k_in=K0 + shift)
    # q_1 = [1, 1] and k_0 = [1, 0] with positions: 1 instead of 0
    assert float(m.position[1, 0]) == pytest.approx(1 / R2)
    # q_2 = k_2 = [1, 3]: 10 instead of 2
    assert float(m.position[2, 2]) == pytest.approx(8 / R2)
    with pytest.raises(ValueError, match="adds its table at the input"):
        amap(name)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_weights_are_a_softmax_over_the_visible_keys(name):
    extra = {"q_in": Q0 * 2, "k_in": K0 * 2} if FAMILIES[name].additive else {}
    m = amap(name, **extra)
    torch.testing.assert_close(m.weights.sum(-1), torch.ones(3, dtype=torch.float64))
    assert m.weights[~m.mask].abs().max() == 0
    torch.testing.assert_close(m.scores[m.mask], (m.content + m.position)[m.mask])


def test_family_maps_project_once_and_match_one_map_at_a_time():
    head = RandomHead(16, 4, 1, 5)
    g = torch.Generator().manual_seed(1)
    tokens, table = torch.randn(3, 16, generator=g), torch.randn(3, 16, generator=g)
    tables = {"learned": tokens + table, "sinusoidal": tokens - table}
    fam = FamilyConfig(heads=4)
    maps = family_maps(head.project, tokens, tables, head=1, fam=fam, dim=16, seed=5)
    assert list(maps) == list(FAMILIES)
    q0, k0 = head.project(tokens)
    q1, k1 = head.project(tokens + table)
    one = attention_map(FAMILIES["learned"], q0, k0, head=1, fam=fam, dim=16, seed=5, q_in=q1, k_in=k1)
    torch.testing.assert_close(maps["learned"].scores, one.scores)
    with pytest.raises(ValueError, match="No input with positions for sinusoidal"):
        family_maps(head.project, tokens, {"learned": tokens}, head=0, fam=FAM, dim=16, seed=5)


# The heads.


def test_a_random_head_is_one_seeded_randn_per_matrix():
    head = RandomHead(dim=256, num_heads=8, head=2, seed=123)
    g = torch.Generator().manual_seed(123 * 1_000_003 + 100 + 2 * 2)
    torch.testing.assert_close(head.matrix("q"), torch.randn(256, 32, generator=g) * 256**-0.5)
    g = torch.Generator().manual_seed(123 * 1_000_003 + 100 + 2 * 2 + 1)
    torch.testing.assert_close(head.matrix("k"), torch.randn(256, 32, generator=g) * 256**-0.5)
    x = torch.randn(5, 256)
    q, k = head.project(x)
    torch.testing.assert_close(q, x.double() @ head.matrix("q").double())
    assert q.shape == k.shape == (5, 32) and not torch.equal(q, k)
    assert not torch.equal(RandomHead(256, 8, 3, 123).matrix("q"), head.matrix("q"))
    assert 0.8 < float(q.std()) < 1.2  # N(0, 1/d) weights keep unit-sized queries


def test_a_large_head_is_drawn_in_blocks_and_never_whole():
    head = RandomHead(dim=8192, num_heads=4, head=0, seed=1)  # 8192 × 2048 = 16 M values
    assert not head.exact
    with pytest.raises(ValueError, match="drawn in blocks"):
        head.matrix("q")
    blocks = list(head.blocks("q"))
    assert [start for start, _ in blocks] == list(range(0, 8192, 512))  # 512 rows × 2048 = 2^20 values
    x = torch.zeros(2, 8192)
    x[0, 5], x[1, 8000] = 1.0, 2.0  # picks row 5 of block 0, and row 8000 − 7680 = 320 of the last block
    q, _ = head.project(x)
    torch.testing.assert_close(q[0], blocks[0][1][5].double())
    torch.testing.assert_close(q[1], 2 * blocks[-1][1][320].double())
    assert not torch.equal(blocks[0][1], blocks[1][1])


def test_a_head_must_exist():
    with pytest.raises(ValueError, match="does not split into 3 heads"):
        RandomHead(256, 3, 0, 1)
    with pytest.raises(ValueError, match="Head 9 does not exist: there are 8 heads"):
        RandomHead(256, 8, 8, 1)


@pytest.mark.parametrize("method", trainable_methods())
def test_a_trained_heads_weights_are_the_models_own(method):
    """Our map's weights times the head's values equal what the model's attention outputs (before proj)."""
    cfg = GPTConfig(vocab_size=20, context_length=8, emb_dim=16, n_heads=2, n_layers=1, method=method)
    model = TinyGPT(cfg)
    init_weights(model, torch.Generator().manual_seed(3), std=0.5)  # large: the positions matter
    vocab = tuple(range(100, 120))  # GPT-2 IDs 100 … 119 are the model's 0 … 19
    ids = [105, 117, 105, 100, 111]
    seen = {}
    model.blocks[0].attn.proj.register_forward_hook(lambda mod, args, out: seen.update(y=args[0]))
    with torch.no_grad():
        model(torch.tensor([[i - 100 for i in ids]]))
    state = first_block_state(model)
    assert "blocks.1.ln1.weight" not in state and "tok_emb.weight" in state
    for h in range(2):
        head = TrainedHead(state, vocab, method, "tiny", 8, h)
        tokens, with_positions = head.inputs(ids)
        q0, k0 = head.project(tokens)
        extra = {}
        if FAMILIES[method].additive:
            q1, k1 = head.project(with_positions)
            extra = {"q_in": q1, "k_in": k1}
        m = attention_map(
            FAMILIES[method], q0, k0, head=h, fam=FamilyConfig(heads=2), dim=16, seed=0, **extra
        )
        x = with_positions if with_positions is not None else tokens
        ln = model.blocks[0].ln1(x.float())
        v = model.blocks[0].attn.qkv(ln)[:, 32 + 8 * h : 32 + 8 * (h + 1)].double()  # [T, dh]
        model_out = seen["y"][0, :, 8 * h : 8 * (h + 1)].double()  # [T, dh]
        with torch.no_grad():
            torch.testing.assert_close(m.weights @ v, model_out, atol=1e-5, rtol=0)


def test_a_training_run_keeps_its_first_block_and_vocabulary_but_prints_neither():
    from core.text.samples import SAMPLES
    from core.text.tokenizer import encode
    from core.training.training import TrainConfig, train

    ids = encode(SAMPLES["log"], 50257)
    result = train(ids, TrainConfig(method="rope", context_length=8, size="tiny", steps=2, batch_size=4))
    assert result.vocab == sorted(set(ids))
    assert set(result.first_block) == {
        "tok_emb.weight", "blocks.0.ln1.weight", "blocks.0.ln1.bias", "blocks.0.attn.qkv.weight",
        "blocks.0.attn.qkv.bias",
    }  # fmt: skip
    assert "first_block" not in result.summary() and "vocab" not in result.summary()
    head = TrainedHead(result.first_block, tuple(result.vocab), "rope", "tiny", 8, 1)
    q, k = head.project(head.inputs(ids[:8])[0])
    assert q.shape == k.shape == (8, 16)


def test_a_trained_head_reads_only_its_vocabulary_and_context():
    model = TinyGPT(GPTConfig(vocab_size=3, context_length=4, emb_dim=32, n_heads=2, n_layers=1))
    head = TrainedHead(first_block_state(model), (7, 8, 9), "learned", "tiny", 4, 0)
    assert head.unknown([7, 50, 9, 50, 51]) == [50, 51]
    with pytest.raises(ValueError, match="only tokens of its vocabulary, at most T"):
        head.inputs([7, 50])
    with pytest.raises(ValueError, match="at most T"):
        head.inputs([7, 8, 9, 7, 8])
    tokens, with_positions = head.inputs([9, 7])
    torch.testing.assert_close(tokens, model.tok_emb.weight[[2, 0]].detach())
    torch.testing.assert_close(with_positions - tokens, model.positions.weight[:2].detach())


# Reading the maps: the moved token's row, and each family's signature.


def test_the_moved_tokens_row_by_key_token_in_a_and_b():
    # A: " dog bites man" (ids 1 2 3), B: " man bites dog" (3 2 1); ' dog' stands at 0 in A, 2 in B
    a = amap("alibi")
    b = amap("nope")
    row = moved_row(a, b, [1, 2, 3], [3, 2, 1], 0, 2)
    assert [k.token_id for k in row] == [1, 2, 3]
    dog, bites, man = row
    assert dog.weight_a == 1.0 and not dog.masked_a  # the first token sees only itself
    assert man.weight_a == 0.0 and man.masked_a  # ' man' comes after ' dog' in A
    assert man.weight_b == pytest.approx(float(b.weights[2, 0]))
    pieces = {1: " dog", 2: " bites", 3: " man"}
    sentences = change_sentences(row, "' dog'", pieces)
    assert sentences[0] == f"' dog' gives ' dog' 1.00 in A, {float(b.weights[2, 2]):.2f} in B."
    hidden = "' dog' cannot see ' man' in A (it comes later: the causal mask) and gives it"
    assert f"{hidden} {man.weight_b:.2f} in B." in sentences


@pytest.mark.parametrize(
    "a, b",
    [
        ([1, 2, 3], [3, 2, 1]),  # dog bites man / man bites dog: ' dog' moved from 0 to 2
        ([5, 1, 2], [5, 2, 1]),  # the first token kept its place: the next one moved
        ([1, 2, 1, 3], [2, 1, 1, 3]),  # a repeated token: its first positions count
        ([1, 2], [1, 2]),  # nothing moved
        ([1, 2], [3, 4]),  # nothing shared
    ],
)
def test_the_moved_token_is_the_one_why_position_names(a, b):
    tok = torch.randn(10, 4)
    expected = first_moved(shared_tokens(a, b, tok[a], tok[b], torch.zeros(4, 4)))
    got = moved_token(a, b)
    assert got == (
        None if expected is None else (expected.token_id, expected.position_a, expected.position_b)
    )


def test_a_token_found_twice_gets_the_sum_of_its_weights():
    m = amap("nope")
    row = moved_row(m, m, [4, 5, 4], [5, 4, 4], 2, 2)
    assert row[0].weight_a == pytest.approx(float(m.weights[2, 0] + m.weights[2, 2]))
    assert row[0].weight_b == pytest.approx(float(m.weights[2, 1] + m.weights[2, 2]))


def test_no_visible_change_is_said_as_such():
    row = [KeyWeight(1, 0.5, 0.503), KeyWeight(2, 0.5, 0.497), KeyWeight(3, None, 0.2)]
    assert change_sentences(row, "'x'", {1: "a", 2: "b", 3: "c"}) == [
        "'x' gives every key token the same weight in A and in B (to 2 decimals)."
    ]


def test_top_key_is_the_largest_weight():
    assert top_key(amap("nope"), 2) == 2 and top_key(amap("alibi"), 1) == 1


def test_each_familys_signature_is_read_from_its_numbers():
    assert signature(FAMILIES["nope"], amap("nope")) == (
        "NoPE changes no score: only the causal mask (3 hidden cells) tells positions apart."
    )
    assert signature(FAMILIES["alibi"], amap("alibi")) == (
        "ALiBi changes the scores by -1.00 to +0.00, the same along every diagonal: it depends only on the "
        "distance i − j."
    )
    assert "the distance i − j is the same but the tokens differ; the same two tokens" in signature(
        FAMILIES["rope"], amap("rope")
    )
    shift = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]], dtype=torch.float64)
    learned = amap("learned", q_in=Q0 + shift, k_in=K0 + shift)
    assert "depends on where each token stands" in signature(FAMILIES["learned"], learned)
    assert "nothing is masked" in signature(FAMILIES["nope"], amap("nope", causal=False))


def test_each_maps_pattern_is_read_from_its_numbers():
    assert pattern(amap("nope")) == NONE and pattern(amap("alibi")) == DIAGONAL
    shift = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]], dtype=torch.float64)
    assert pattern(amap("learned", q_in=Q0 + shift, k_in=K0 + shift)) == PLACES


def test_every_familys_sentence_says_what_to_see_for_one_many_and_none():
    maps = {"ALiBi": DIAGONAL, "T5 bias": DIAGONAL, "RoPE": PLACES, "NoPE": NONE}
    assert every_family_sentence(maps) == (
        "Read each map along its diagonals (there the distance i − j is the same): ALiBi and T5 bias are "
        "the same along every diagonal; RoPE changes along a diagonal; NoPE changes no score."
    )
    assert every_family_sentence({"ALiBi": DIAGONAL}) == (
        "Read each map along its diagonals (there the distance i − j is the same): ALiBi is the same along "
        "every diagonal."
    )
    assert every_family_sentence({"NoPE": NONE, "a": NONE}) == (
        "Read each map along its diagonals: NoPE and a change no score."
    )
    assert every_family_sentence({}) == "There is no map to read."


# What a heatmap shows.


def test_up_to_64_tokens_every_position_is_shown_and_past_it_every_other():
    assert shown_positions(64).tolist() == list(range(64)) and shown_note(64) is None
    assert shown_positions(100).tolist() == list(range(0, 100, 2))
    assert shown_note(100) == (
        "The sentence has 100 tokens: each heatmap shows every 2th position (50 of 100, from 0), so a "
        "50 × 50 grid; the numbers below use all of them."
    )


def test_labels_are_unique_and_show_spaces():
    assert token_labels([" the", "\n", " the", "x" * 20]) == ["0:·the", "1:↵", "2:·the", "3:xxxxxxxxxx…"]


def test_a_heatmap_sends_only_its_visible_cells():
    m = amap("alibi")
    frame = heatmap_frame(m.weights, m.mask, torch.arange(3))
    assert list(frame.columns) == ["i", "j", "v"] and len(frame) == 6  # 3 · 4 / 2
    assert frame[(frame.i == 2) & (frame.j == 0)].v.item() == round(float(m.weights[2, 0]), 4)
    assert chart_bytes(frame) == len(frame.to_json(orient="records"))
    # 64 tokens: a causal map's 2,080 cells in about 60 kB
    big = heatmap_frame(torch.randn(64, 64), causal_mask(64), torch.arange(64))
    assert len(big) == 2080 and chart_bytes(big) < 70_000


def test_a_heatmap_frame_holds_each_visible_cell_of_the_shown_rows_and_columns_row_by_row():
    g = torch.Generator().manual_seed(0)
    values, mask = torch.randn(9, 9, generator=g), torch.rand(9, 9, generator=g) > 0.4  # any mask
    shown = [0, 2, 5, 8]
    cells = [(i, j, float(np.round(float(values[i, j]), 4))) for i in shown for j in shown if mask[i, j]]
    shown = torch.tensor(shown)
    frame = heatmap_frame(values, mask, shown)
    assert list(frame.itertuples(index=False, name=None)) == cells
    assert [str(t) for t in frame.dtypes] == ["int64", "int64", "float64"]


def test_the_heatmap_labels_its_axes_with_the_tokens_and_outlines_the_moved_row():
    m = amap("alibi")
    frame = heatmap_frame(m.position, m.mask, torch.arange(3))
    labels = token_labels([" dog", " bites", ' "man"'])
    domain = symmetric_domain([m.position[m.mask]])
    chart = attention_heatmap(frame, labels, "ALiBi", domain=domain, legend="score", highlight=2, symlog=0.01)
    spec = chart.to_dict(validate=True)
    assert len(spec["layer"]) == 2
    cells = spec["layer"][0]["encoding"]
    assert (
        cells["x"]["axis"]["labelExpr"]
        == '["0:\\u00b7dog", "1:\\u00b7bites", "2:\\u00b7\\"man\\""][datum.value]'
    )
    assert cells["color"]["scale"]["type"] == "symlog" and cells["color"]["scale"]["domain"] == [-1.0, 1.0]
    assert spec["config"]["view"]["fill"] == "#d1d5db"  # masked cells show the grey background
    assert symmetric_domain([m.position[:0]]) == (-1e-6, 1e-6)
    assert symmetric_domain([torch.tensor([0.5, -2.0]), torch.tensor([1.5]), torch.tensor([])]) == (-2.0, 2.0)
