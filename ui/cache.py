"""Cached calls into ``core``: what to keep between reruns, and for whom.

Caches are keyed by their inputs, text included, so a session only ever gets back results for
text it sent itself.
"""

from __future__ import annotations

import dataclasses

import streamlit as st
import torch

from core.config import LEARNED_INITS, FamilyConfig, PipelineConfig
from core.data import Batch, first_batch
from core.embeddings import TableRows, TokenRows, is_exact, token_embedding_rows
from core.pipeline import EmbeddingView, embedding_view, position_rows, shown_positions
from core.positional import sinusoidal_at
from core.tokenizer import encode, gpt2_tokenizer


@st.cache_resource(show_spinner=False)
def warm_tokenizer() -> None:
    """Build the GPT-2 encoding once per server process (~0.5 s)."""
    gpt2_tokenizer()


@st.cache_data(max_entries=64, show_spinner=False)
def token_ids(text: str) -> list[int]:
    """GPT-2 token IDs of ``text``."""
    return encode(text)


@st.cache_data(max_entries=64, show_spinner=False)
def batch_of(text: str, batch_size: int, max_length: int, stride: int) -> Batch:
    """The loader's first batch (raises ``ValueError`` with what to change)."""
    return first_batch(token_ids(text), batch_size, max_length, stride)


@st.cache_resource(max_entries=16, show_spinner=False)
def _exact_text_rows(texts: tuple[str, ...], vocab_size: int, dim: int, seed: int) -> TokenRows:
    # Streaming the vocab×d draws is the costly part (~50 ms at the book's setting), so keep the
    # rows of every token of the texts: reruns for another context or batch size reuse them.
    # Shared between sessions as a resource: callers only read it.
    ids = torch.tensor([i for text in texts for i in token_ids(text)], dtype=torch.long)
    return token_embedding_rows(ids[ids < vocab_size], vocab_size, dim, seed)


def token_rows(texts: tuple[str, ...], cfg: PipelineConfig, needed: torch.Tensor) -> TokenRows:
    """Token-table rows covering ``needed`` [N] (exact: all rows of ``texts``, cached)."""
    if is_exact(cfg.vocab_size, cfg.output_dim):
        return _exact_text_rows(texts, cfg.vocab_size, cfg.output_dim, cfg.seed)
    return token_embedding_rows(needed, cfg.vocab_size, cfg.output_dim, cfg.seed)


@st.cache_data(max_entries=32, show_spinner=False)
def _shown_position_rows(text: str, cfg: PipelineConfig) -> TableRows:
    # One pass over the context×d draws serves every view of the page (up to 0.5 s at
    # context 8192 × d 16384); a rerun for another batch size or stride reuses it.
    rows = token_rows((text,), cfg, torch.empty(0, dtype=torch.long))
    return position_rows(cfg, shown_positions(cfg.context_length), rows)


def view(
    text: str,
    cfg: PipelineConfig,
    batch: Batch,
    batch_rows: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
) -> EmbeddingView:
    """Real embedding values at the chosen batch rows and dimensions, positions in ``shown_positions``."""
    tokens = token_rows((text,), cfg, batch.inputs[batch_rows][:, positions])
    pos = _shown_position_rows(text, dataclasses.replace(cfg, batch_size=1, stride=1))
    return embedding_view(batch, tokens, pos, batch_rows, positions, dims)


def sentence_embeddings(
    texts: tuple[str, ...], cfg: PipelineConfig, num_positions: int
) -> tuple[list[torch.Tensor], torch.Tensor]:
    """Token embeddings of each text ([N_k, d] each) and positional rows [num_positions, d]."""
    ids = [torch.tensor(token_ids(text), dtype=torch.long) for text in texts]
    rows = token_rows(texts, cfg, torch.cat(ids))
    return [rows.lookup(i) for i in ids], position_rows(cfg, torch.arange(num_positions), rows).rows


@st.cache_data(max_entries=32, show_spinner=False)
def additive_rows(cfg: PipelineConfig, fam: FamilyConfig, positions: tuple[int, ...]) -> TableRows:
    """Rows of the learned (scaled by its init's std) or sinusoidal table at ``positions``.

    Learned rows exist only below the context length; the others are left out.
    """
    index = torch.tensor(positions, dtype=torch.long)
    if cfg.method == "sinusoidal":
        return TableRows(index, sinusoidal_at(index, cfg.output_dim, fam.base, layout=fam.layout))
    index = index[index < cfg.context_length]
    tokens = token_rows((), cfg, torch.empty(0, dtype=torch.long))  # for the generator state
    rows = position_rows(cfg, index, tokens).rows * LEARNED_INITS[fam.init]
    return TableRows(index, rows)
