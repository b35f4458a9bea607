import pytest
import torch

from core import embeddings
from core.embeddings import (
    draw_normal_rows,
    is_exact,
    learned_position_rows,
    row_seeded_rows,
    same_prefix,
    token_embedding_rows,
    token_stream,
)
from tests.book import book_layers, book_tables


@pytest.mark.parametrize(
    "vocab_size, dim, context_length, seed",
    [(50257, 256, 4, 123), (6, 3, 4, 123), (33, 17, 5, 7), (3, 3, 2, 1), (1000, 7, 9, 0), (2, 1, 1, 5)],
)
def test_exact_rows_equal_nn_embedding(vocab_size, dim, context_length, seed):
    tok_layer, pos_layer = book_layers(vocab_size, dim, context_length, seed)
    ids = torch.tensor([[0, vocab_size - 1], [vocab_size // 2, vocab_size // 2]])
    rows = token_embedding_rows(ids, vocab_size, dim, seed)
    assert rows.exact
    assert torch.equal(rows.lookup(ids), tok_layer(ids))
    pos = learned_position_rows(torch.arange(context_length), context_length, dim, seed, rows.state_after)
    assert torch.equal(pos, pos_layer(torch.arange(context_length)))


def test_exact_across_chunk_boundaries(monkeypatch):
    # A small buffer forces rows to straddle chunks and the last chunk to absorb the tail.
    monkeypatch.setattr(embeddings, "STREAM_CHUNK_ELEMENTS", 48)
    tok_layer, _ = book_layers(37, 5, 1, 11)
    keep = torch.tensor([0, 9, 10, 19, 36])
    got = draw_normal_rows(torch.Generator().manual_seed(11), 37, 5, keep)
    assert torch.equal(got, tok_layer.weight.detach()[keep])


@pytest.mark.parametrize("keep", [[], [0], [19], [0, 1, 2, 7, 8, 19], [3, 5, 6, 7, 12], list(range(20))])
@pytest.mark.parametrize("dim, every", [(16, 48), (32, 48), (48, 32), (256, 1 << 20)])
def test_whole_block_rows_skip_the_values_between_and_keep_the_stream_in_step(keep, dim, every):
    # dim a multiple of 16: runs of kept rows are drawn alone, the values between skipped.
    bulk = torch.empty(20, dim).normal_(generator=torch.Generator().manual_seed(3))
    g = torch.Generator().manual_seed(3)
    torch.empty(20, dim).normal_(generator=g)
    after = torch.empty(5, dim).normal_(generator=g)  # what the next table draws
    g, states = torch.Generator().manual_seed(3), []
    got = draw_normal_rows(g, 20, dim, torch.tensor(keep, dtype=torch.long), every, states)
    assert torch.equal(got, bulk[keep])
    assert torch.equal(torch.empty(5, dim).normal_(generator=g), after)
    assert len(states) == -(-20 * dim // every)  # one before each chunk
    flat = bulk.flatten()
    for c, state in enumerate(states):  # each saved state draws its chunk of the bulk table
        part = torch.empty(min(every, flat.numel() - c * every))
        assert torch.equal(
            part.normal_(generator=torch.Generator().set_state(state)), flat[c * every :][: len(part)]
        )


def test_large_tables_are_row_seeded_and_never_allocated():
    assert is_exact(50257, 256)
    assert not is_exact(50257, 12288)
    ids = torch.tensor([5, 50256, 5])
    a = token_embedding_rows(ids, 50257, 12288, 123)
    assert not a.exact and a.state_after is None
    assert a.rows.shape == (2, 12288)  # only the unique rows
    # A row does not depend on which other rows were asked for.
    b = token_embedding_rows(torch.tensor([50256]), 50257, 12288, 123)
    assert torch.equal(a.lookup(torch.tensor([50256])), b.rows)
    # Different seeds, different rows; N(0, 1) statistics.
    c = token_embedding_rows(torch.tensor([5]), 50257, 12288, 124)
    assert not torch.equal(a.rows[0], c.rows[0])
    assert abs(float(a.rows.mean())) < 0.03 and abs(float(a.rows.std()) - 1) < 0.03


def test_row_seeded_rows_are_deterministic():
    rows = torch.tensor([0, 1, 99])
    assert torch.equal(row_seeded_rows(rows, 16, 1), row_seeded_rows(rows, 16, 1))
    assert not torch.equal(row_seeded_rows(rows, 16, 1)[0], row_seeded_rows(rows, 16, 1)[1])


def test_id_outside_the_table_is_refused():
    with pytest.raises(ValueError, match="not a row"):
        token_embedding_rows(torch.tensor([10]), 10, 4, 0)


@pytest.mark.parametrize(
    "short, long, dim", [(4, 6, 256), (4, 6, 10), (4, 7, 3), (2, 9, 8), (8, 9, 8), (1, 2, 8), (2, 3, 24)]
)
def test_same_prefix_says_when_a_longer_table_starts_like_a_shorter_one(short, long, dim):
    g = torch.Generator()
    a = torch.empty(short, dim).normal_(generator=g.manual_seed(1))
    b = torch.empty(long, dim).normal_(generator=g.manual_seed(1))
    assert same_prefix(short, long, dim) == torch.equal(a, b[:short])


@pytest.mark.parametrize(
    "vocab_size, dim, seed", [(37, 5, 11), (101, 3, 2), (50, 16, 7), (40, 1, 3), (60, 32, 5), (9, 48, 1)]
)
def test_a_kept_stream_draws_new_rows_bit_identical(monkeypatch, vocab_size, dim, seed):
    # Checkpoints every 16–48 values: rows straddle them, and a tail shorter than 16 joins the chunk before.
    monkeypatch.setattr(embeddings, "MIN_CHECKPOINT_ELEMENTS", 16)
    monkeypatch.setattr(embeddings, "CHECKPOINTS", 10)
    table, pos_table = book_tables(vocab_size, dim, 3, seed)
    first = token_stream(torch.tensor([1, 1, vocab_size - 1]), vocab_size, dim, seed)
    assert len(first.states) > 1
    assert torch.equal(first.drawn.rows, table[[1, vocab_size - 1]])
    g = torch.Generator()
    g.set_state(first.state_after)
    assert torch.equal(torch.empty(3, dim).normal_(generator=g), pos_table)
    ids = torch.randperm(vocab_size)[: vocab_size // 2]
    assert len(first.missing(ids)) == len(set(ids.tolist()) - {1, vocab_size - 1})
    more = first.with_rows(ids)
    assert torch.equal(more.drawn.lookup(ids), table[ids])
    assert torch.equal(more.drawn.lookup(torch.tensor([1])), table[[1]])  # the rows drawn before stay
    assert more.with_rows(ids) is more  # nothing new: nothing drawn
    bounded = first.with_rows(ids, max_elements=0)  # past the bound: the rows of these IDs only
    assert torch.equal(bounded.drawn.index, torch.unique(ids))


def test_a_kept_stream_matches_the_book_table_at_the_book_setting():
    table, pos_table = book_tables(50257, 256, 4)
    stream = token_stream(torch.tensor([40, 50256]), 50257, 256, 123)
    ids = torch.tensor([0, 201040 // 256, 201040 // 256 + 1, 25000, 50255])  # around a saved state
    assert torch.equal(stream.with_rows(ids).drawn.lookup(ids), table[ids])
    got = learned_position_rows(torch.arange(4), 4, 256, 123, stream.state_after)
    assert torch.equal(got, pos_table)


@pytest.mark.parametrize("kept", [[], [0], [2, 3], [7]])
def test_a_stream_ends_at_its_last_kept_row_and_later_rows_draw_the_states_they_need(monkeypatch, kept):
    # Whole 16-value blocks: the generator jumps over the rest of the table to where nn.Embedding leaves it.
    monkeypatch.setattr(embeddings, "MIN_CHECKPOINT_ELEMENTS", 16)
    monkeypatch.setattr(embeddings, "CHECKPOINTS", 10)
    vocab_size, dim, seed = 40, 32, 4
    table, pos_table = book_tables(vocab_size, dim, 3, seed)
    stream = token_stream(torch.tensor(kept, dtype=torch.long), vocab_size, dim, seed)
    every = stream.every
    reached = (max(kept) + 1) * dim if kept else 1
    assert len(stream.states) == -(-reached // every)  # states only as far as the kept rows
    g = torch.Generator()
    g.set_state(stream.state_after)
    assert torch.equal(torch.empty(3, dim).normal_(generator=g), pos_table)
    later = torch.tensor([vocab_size - 1, 20, 1])
    more = stream.with_rows(later)
    assert torch.equal(more.drawn.lookup(later), table[later])
    assert len(more.states) == (vocab_size - 1) * dim // every + 1  # through the last row's chunk
    for c, state in enumerate(more.states):  # each one where the bulk draws stand at c · every
        g.set_state(state)
        assert torch.equal(
            torch.empty(every).normal_(generator=g)[:dim], table.flatten()[c * every : c * every + dim]
        )
