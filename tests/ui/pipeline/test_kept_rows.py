"""The Pipeline's token rows from the seed's kept stream (ui.server.cache): only the rows a view asks for are
drawn, and every value equals the book's ``manual_seed(seed); nn.Embedding(V, d)``, whatever was
drawn before."""

from __future__ import annotations

import torch

from core.config import PipelineConfig
from core.pipeline import sample_indices
from core.text.samples import SAMPLES
from tests.book import book_tables
from ui.server import cache


def check_view(cfg: PipelineConfig, text: str) -> torch.Tensor:
    """The page's heatmap view for ``cfg`` and ``text`` against the book's tables; its token IDs."""
    batch = cache.batch_of(text, cfg.batch_size, cfg.context_length, cfg.stride, cfg.vocab_size)
    rows = torch.arange(batch.batch_size)
    positions = sample_indices(cfg.context_length, 8)
    dims = sample_indices(cfg.output_dim, 16)
    got = cache.view(cfg, batch, rows, positions, dims)
    token, pos = book_tables(cfg.vocab_size, cfg.output_dim, cfg.context_length, cfg.seed)
    ids = batch.inputs[rows][:, positions]  # [S, P]
    expected_tokens = token[ids][:, :, dims]  # [S, P, D]
    assert torch.equal(got.token_embeddings, expected_tokens)
    assert torch.equal(got.pos_embeddings, pos[positions][:, dims])
    assert torch.equal(got.input_embeddings, expected_tokens + pos[positions][:, dims])
    return ids


def drawn_rows(cfg: PipelineConfig) -> torch.Tensor:
    """The token rows the seed's kept stream holds: [U] sorted."""
    return cache._token_stream(
        cfg.vocab_size, cfg.output_dim, cfg.seed, torch.empty(0, dtype=torch.long)
    ).drawn.index


def test_views_equal_the_books_tables_as_rows_are_added_to_the_kept_stream(fresh_caches):
    cfg = PipelineConfig(seed=1234)  # the book's V, d, T, B; a seed no other test draws
    text = SAMPLES["lesson"]
    first = check_view(cfg, text)
    assert torch.equal(drawn_rows(cfg), torch.unique(first))  # only the view's rows, not the text's
    assert len(torch.unique(torch.tensor(cache.token_ids(text)))) > len(drawn_rows(cfg))

    wider = PipelineConfig(seed=1234, context_length=64, batch_size=4)  # rows no view asked for yet
    more = check_view(wider, text)
    assert torch.equal(drawn_rows(cfg), torch.unique(torch.cat([first.flatten(), more.flatten()])))

    other = SAMPLES["log"]  # another text, the same seed: its rows are drawn from the saved states
    check_view(cfg, other)
    check_view(PipelineConfig(seed=99), text)  # another seed: a stream of its own
    check_view(cfg, text)  # and back: the first seed's rows are still the book's


def test_the_rows_asked_for_are_all_a_sentence_comparison_draws(fresh_caches):
    cfg = PipelineConfig(seed=4321)
    tokens, positions = cache.sentence_embeddings((" dog bites man", " man bites dog"), cfg, 3)
    token, pos = book_tables(cfg.vocab_size, cfg.output_dim, 3, cfg.seed)
    ids = torch.tensor(cache.token_ids(" dog bites man"))
    assert torch.equal(tokens[0], token[ids]) and torch.equal(positions, pos)
    assert torch.equal(drawn_rows(cfg), torch.unique(ids))  # the sentences' three tokens
