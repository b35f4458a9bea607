import math

import pytest
import torch

from core.config import PipelineConfig
from core.embeddings import token_embedding_rows
from core.pipeline import (
    DrawnRows,
    embedding_view,
    pipeline_steps,
    position_rows,
    sample_indices,
    shown_positions,
)
from core.text.data import first_batch
from core.text.tokenizer import encode
from tests.book import book_layers

TEXT = "The cat sat on the mat. On the mat the cat sat. " * 8


def test_book_steps():
    steps = pipeline_steps(PipelineConfig(), num_tokens=5145)
    shapes = [s.shape for s in steps]
    assert shapes == [(5145,), (8, 4), (8, 4, 256), (4, 256), (8, 4, 256), (8, 4, 256)]
    assert steps[2].params == 50257 * 256 == 12_865_792
    assert steps[3].params == 4 * 256
    assert steps[5].nbytes == 8 * 4 * 256 * 4 == 32_768


def test_gpt3_input_embeddings_need_805_mb():
    cfg = PipelineConfig(output_dim=12288, context_length=2048)
    steps = pipeline_steps(cfg, num_tokens=10_000)
    assert steps[5].nbytes == 805_306_368
    assert steps[2].params == 617_558_016  # the table the app never allocates


def test_sinusoidal_has_no_parameters():
    steps = pipeline_steps(PipelineConfig(method="sinusoidal"), num_tokens=100)
    assert steps[3].params == 0 and steps[3].shape == (4, 256)


@pytest.mark.parametrize("method", ["learned", "sinusoidal"])
def test_view_equals_the_lessons_full_computation(method):
    cfg = PipelineConfig(
        vocab_size=50257, output_dim=32, context_length=6, batch_size=3, stride=2, seed=9, method=method
    )
    batch = first_batch(encode(TEXT), cfg.batch_size, cfg.context_length, cfg.stride)
    # The lesson's code, whole tables and all.
    token_embedding_layer, pos_embedding_layer = book_layers(
        cfg.vocab_size, cfg.output_dim, cfg.context_length, cfg.seed
    )
    token_embeddings = token_embedding_layer(batch.inputs)
    if method == "learned":
        pos_embeddings = pos_embedding_layer(torch.arange(cfg.context_length))
    else:  # Vaswani et al. 2017, §3.5: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(…)
        d = cfg.output_dim
        pos_embeddings = torch.tensor(
            [
                [(math.sin if j % 2 == 0 else math.cos)(pos / 10000 ** ((j - j % 2) / d)) for j in range(d)]
                for pos in range(cfg.context_length)
            ],
            dtype=torch.float32,
        )
    input_embeddings = token_embeddings + pos_embeddings
    # The app's view at a grid of rows, positions and dims.
    rows = token_embedding_rows(batch.inputs, cfg.vocab_size, cfg.output_dim, cfg.seed)
    pos = position_rows(
        cfg, shown_positions(cfg.context_length), DrawnRows(cfg.vocab_size, cfg.output_dim, cfg.seed)
    )
    b, t, j = torch.tensor([0, 2]), torch.tensor([1, 3, 5]), torch.tensor([0, 7, 31])
    view = embedding_view(batch, rows, pos, b, t, j)
    assert torch.equal(view.token_embeddings, token_embeddings[b][:, t][..., j])
    # math.sin/cos in float64 rounded once to float32, as the app does: equal, or one float32 ulp apart
    exact = {"rtol": 0, "atol": 0} if method == "learned" else {"rtol": 0, "atol": 1.2e-7}
    torch.testing.assert_close(view.pos_embeddings, pos_embeddings[t][:, j], **exact)
    torch.testing.assert_close(view.input_embeddings, input_embeddings[b][:, t][..., j], **exact)


def test_sample_indices():
    assert sample_indices(4, 64).tolist() == [0, 1, 2, 3]
    idx = sample_indices(2048, 64)
    assert len(idx) == 64 and idx[0] == 0 and int(idx[1]) == 32
    assert len(sample_indices(12288, 96)) <= 96


def test_shown_positions_cover_both_views():
    assert shown_positions(4).tolist() == [0, 1, 2, 3]
    shown = shown_positions(2048)
    assert shown[:4].tolist() == [0, 1, 2, 3]
    assert set(sample_indices(2048, 64).tolist()) <= set(shown.tolist())
