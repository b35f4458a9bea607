"""The lesson's pipeline, step by step: text → token IDs → batch → token + positional → input.

Shapes, parameter counts and bytes are those of the real tensors (``B×T×d`` float32 and so on);
values are computed only for the positions and dimensions a view shows, so the GPT-3 setting
(an 805 MB input-embedding tensor) never has to fit in memory. For the book's own text
(``core.text.book``), ``book_text_note`` says whether the first batch is the book's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import torch

from core.config import PipelineConfig
from core.embeddings import TableRows, TokenRows, token_embedding_rows
from core.positional.family import FAMILIES, FamilyConfig
from core.text.book import BOOK_TEXT_NAME, BOOK_TITLE, book_text_ending
from core.text.data import Batch
from core.views.units import human_bytes, listing

FLOAT32_BYTES = 4
INT64_BYTES = 8
TABLE_POSITIONS, TABLE_DIMS = 4, 8  # the corner of real values each step prints
HEATMAP_POSITIONS, HEATMAP_DIMS = 64, 96  # at most this many cells per axis in a heatmap


@dataclass(frozen=True)
class Step:
    """One tensor of the pipeline: its name in the lesson's code and what it costs."""

    title: str  # what the step does
    code: str  # the line of the lesson's code that makes it
    name: str  # the variable it lands in
    shape: tuple[int, ...]  # the tensor's shape
    dtype: str  # torch dtype of the tensor
    params: int  # trainable parameters this step adds
    nbytes: int  # memory of the tensor
    memory_help: str = ""  # what the memory figure means, where bytes alone would mislead
    memory_label: str = "Memory"  # what the memory figure counts


def pipeline_steps(cfg: PipelineConfig, num_tokens: int) -> list[Step]:
    """The six steps, with shapes, parameters and bytes for the settings in ``cfg``."""
    return _token_steps(cfg, num_tokens) + _position_steps(cfg)


def _token_steps(cfg: PipelineConfig, num_tokens: int) -> list[Step]:
    """Steps 1–3: the text's token IDs, the first batch of windows, and their rows of the token table."""
    B, T, d, V = cfg.batch_size, cfg.context_length, cfg.output_dim, cfg.vocab_size
    return [
        Step(
            "Text → token IDs",
            "token_ids = tokenizer.encode(raw_text)",
            "token_ids",
            (num_tokens,),
            "int64",
            0,
            num_tokens * INT64_BYTES,
        ),
        Step(
            "Sliding-window batch",
            "inputs, targets = next(iter(dataloader))",
            "inputs",
            (B, T),
            "int64",
            0,
            B * T * INT64_BYTES,
            f"inputs only, {B}×{T} int64; targets take as much again",
        ),
        Step(
            "Token embedding lookup",
            "token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)\n"
            "token_embeddings = token_embedding_layer(inputs)",
            "token_embeddings",
            (B, T, d),
            "float32",
            V * d,
            B * T * d * FLOAT32_BYTES,
        ),
    ]


def _position_steps(cfg: PipelineConfig) -> list[Step]:
    """Steps 4–6: the positional table (or none, for a family that adds nothing at the input), the
    broadcasting add and the input embeddings."""
    B, T, d = cfg.batch_size, cfg.context_length, cfg.output_dim
    family = FAMILIES[cfg.method]
    additive = family.additive
    pos_params = family.parameter_count(T, d, FamilyConfig()) if additive else 0  # trained at the input
    pos_code = family.pipeline_code or (
        f"# {family.label}: nothing is added at the input.\n# {family.where or 'Position enters nowhere'}.\n"
        "pos_embeddings = torch.zeros(max_length, output_dim)  # adding it changes nothing"
    )
    return [
        Step(
            "Positional embedding",
            pos_code,
            "pos_embeddings",
            (T, d),
            "float32",
            pos_params,
            T * d * FLOAT32_BYTES if additive else 0,
            "" if additive else "no positional table is needed at the input",
        ),
        Step(
            "Broadcasting add",
            "input_embeddings = token_embeddings + pos_embeddings",
            "input_embeddings",
            (B, T, d),
            "float32",
            0,
            0,
            f"Extra memory 0 B: the positional rows are not copied; the add reads the same {T}×{d} rows of "
            f"pos_embeddings for every sequence. Its result, input_embeddings (step 6), does hold "
            f"{B}×{T}×{d} values: {human_bytes(B * T * d * FLOAT32_BYTES)}.",
            "Extra memory for the add",
        ),
        Step(
            "Input embeddings",
            "print(input_embeddings.shape)",
            "input_embeddings",
            (B, T, d),
            "float32",
            0,
            B * T * d * FLOAT32_BYTES,
        ),
    ]


def sample_indices(n: int, most: int) -> torch.Tensor:
    """At most ``most`` evenly spaced indices of ``range(n)``, always starting at 0: [k]."""
    step = max(1, -(-n // most))  # ceil(n / most)
    return torch.arange(0, n, step)


@dataclass(frozen=True)
class EmbeddingView:
    """Real values of the three embedding tensors at a grid of positions and dimensions."""

    batch_rows: torch.Tensor  # [S] which sequences of the batch are shown
    positions: torch.Tensor  # [P] which positions t
    dims: torch.Tensor  # [D] which dimensions j
    token_embeddings: torch.Tensor  # [S, P, D] token_embeddings[b, t, j]
    pos_embeddings: torch.Tensor  # [P, D] pos_embeddings[t, j]
    input_embeddings: torch.Tensor  # [S, P, D] input_embeddings[b, t, j]


def shown_positions(context_length: int) -> torch.Tensor:
    """Every position a page's views show: the printed corner and the heatmap grid, [P] sorted."""
    corner = torch.arange(min(context_length, TABLE_POSITIONS))
    return torch.unique(torch.cat([corner, sample_indices(context_length, HEATMAP_POSITIONS)]))


class Rows(Protocol):
    """Where a view's rows of the token table and of a family's input table come from: drawn on the
    spot (``DrawnRows``), or those a server keeps (``ui.server.cache.KeptRows``)."""

    def token_rows(self, needed: torch.Tensor) -> TokenRows:
        """Rows of ``manual_seed(seed); nn.Embedding(V, d)`` covering the token IDs ``needed`` [N]."""

    def input_rows(
        self, method: str, positions: torch.Tensor, context_length: int, fam: FamilyConfig
    ) -> TableRows:
        """Rows ``positions`` [P] (sorted, unique) of additive family ``method``'s table of T rows."""


@dataclass(frozen=True)
class DrawnRows:
    """``Rows`` drawn on the spot for one seed's tables (V × d tokens), nothing kept: for a notebook."""

    vocab_size: int  # V
    dim: int  # d
    seed: int

    def token_rows(self, needed: torch.Tensor) -> TokenRows:
        return token_embedding_rows(needed, self.vocab_size, self.dim, self.seed)

    def input_rows(
        self, method: str, positions: torch.Tensor, context_length: int, fam: FamilyConfig
    ) -> TableRows:
        family = FAMILIES[method]
        # A learned table is drawn right after the token table: from the generator's state there.
        state = self.token_rows(torch.empty(0, dtype=torch.long)).state_after if family.seeded else None
        return family.input_rows(positions, context_length, self.dim, self.seed, fam, state)


def position_rows(cfg: PipelineConfig, positions: torch.Tensor, rows: Rows) -> TableRows:
    """Rows ``positions`` [P] (sorted, unique) of the positional table for ``cfg.method``, with the
    lesson's defaults; NoPE and the relative methods add zeros at the input.
    """
    if not FAMILIES[cfg.method].additive:
        return TableRows(positions, torch.zeros(len(positions), cfg.output_dim))
    return rows.input_rows(cfg.method, positions, cfg.context_length, FamilyConfig())


def embedding_view(
    batch: Batch,
    tokens: TableRows,
    pos: TableRows,
    batch_rows: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
) -> EmbeddingView:
    """Token, positional and input embeddings at the chosen sequences, positions and dims.

    Args:
        tokens, pos: rows of the two tables that cover the batch rows and positions asked for.
        batch_rows: [S]; positions: [P]; dims: [D].
    """
    pos_values = pos.lookup(positions)[:, dims]  # [P, D]
    tok = tokens.lookup(batch.inputs[batch_rows][:, positions])[..., dims]  # [S, P, D]
    return EmbeddingView(batch_rows, positions, dims, tok, pos_values, tok + pos_values)  # [S,P,D]+[P,D]


def token_windows(token: int, num_windows: int, context_length: int, stride: int) -> list[tuple[int, int]]:
    """Every window that holds token ``token`` of the text, with its place in it: [(w, t)], w ascending.

    Window w holds tokens ``w · stride … w · stride + context_length − 1`` (``GPTDatasetV1``), so the token
    is at ``t = token − w · stride`` there. Empty when no window reaches it (the text's last tokens).
    """
    first = max(0, -(-(token - context_length + 1) // stride))  # ceil: the first window reaching it
    last = min(num_windows - 1, token // stride)  # the last window starting at or before it
    return [(w, token - w * stride) for w in range(first, last + 1)]


# --- The book's text: whether the page's first batch is the book's, at the sidebar's settings ---------

BOOK = PipelineConfig()  # the book's settings (ch. 2.8): V 50,257, d 256, T 4, B 8, stride 4, learned
# The settings that cut the batch (its token IDs), then the ones that only embed it.
_BATCH = (
    ("vocab_size", "V = {}"),
    ("context_length", "T = {}"),
    ("stride", "stride {}"),
    ("batch_size", "B = {}"),
)
_EMBEDDING = (("output_dim", "d = {}"), ("method", "{}"))


def _show(key: str, value: object) -> str:
    """A setting's value as the page writes it: 50,257; a method's display name."""
    if key == "method":
        return FAMILIES[value].label if value in FAMILIES else str(value)
    return f"{value:,}"


def _differences(cfg: PipelineConfig, keys: tuple[tuple[str, str], ...]) -> list[str]:
    """Each setting of ``keys`` that differs from the book's: ``T = 8 (the book's 4)``."""
    return [
        f"{form.format(_show(key, getattr(cfg, key)))} (the book's {_show(key, getattr(BOOK, key))})"
        for key, form in keys
        if getattr(cfg, key) != getattr(BOOK, key)
    ]


def _ending(ending: str) -> str:
    """Blank characters after the text in words: "a line break", "3 line breaks", "2 blank characters"."""
    n = len(ending)
    if set(ending) == {"\n"}:
        return "a line break" if n == 1 else f"{n:,} line breaks"
    return "a blank character" if n == 1 else f"{n:,} blank characters"


def book_text_note(text: str, cfg: PipelineConfig) -> str | None:
    """One sentence for a text that is the book's: whether the page's first batch is the book's, and why not.

    Args:
        text: the text the page runs on.
        cfg: the sidebar's settings.
    Returns None for any other text.
    """
    ending = book_text_ending(text)
    if ending is None:
        return None
    what = f"This is the book's text, {BOOK_TEXT_NAME} from chapter 2 of Raschka's *{BOOK_TITLE}*"
    if ending:
        what += f", with {_ending(ending)} at its end that the book's file does not have"
    batch, embedding = _differences(cfg, _BATCH), _differences(cfg, _EMBEDDING)
    if batch:
        return f"{what}; at {listing(batch)} the first batch is not the book's."
    if embedding:
        return (
            f"{what}, and the batch below is the book's first batch, token for token; its embeddings "
            f"differ from the book's: {listing(embedding)}."
        )
    return f"{what}, at the book's settings: the batch below is the book's first batch, token for token."


@dataclass(frozen=True)
class PipelineViews:
    """The Pipeline page's real values: its printed corners and its heatmaps' grid."""

    corner: EmbeddingView  # sequences 0 and 1 (at most) at the printed positions and dims (steps 4, 5)
    row: EmbeddingView  # sequence ``seq`` at the same corner (step 3's table)
    grid: EmbeddingView  # sequence ``seq`` on the heatmaps' grid (steps 3, 4 and 6)


def pipeline_views(cfg: PipelineConfig, batch: Batch, seq: int, rows: Rows) -> PipelineViews:
    """Steps 3–6's real values for sequence ``seq`` of ``batch`` (``cfg.batch_size`` its B).

    The token rows are asked for once, for every ID the views show, and the positional rows once, at
    every position a view shows (``shown_positions``: one pass over the table serves them all).
    """
    B, T, d = cfg.batch_size, cfg.context_length, cfg.output_dim
    positions, dims = torch.arange(min(T, TABLE_POSITIONS)), torch.arange(min(d, TABLE_DIMS))
    places = [
        (torch.arange(min(B, 2)), positions, dims),
        (torch.tensor([seq]), positions, dims),
        (torch.tensor([seq]), sample_indices(T, HEATMAP_POSITIONS), sample_indices(d, HEATMAP_DIMS)),
    ]
    needed = torch.cat([batch.inputs[b][:, t].flatten() for b, t, _ in places])  # [N]
    tokens = rows.token_rows(torch.unique(needed))
    pos = position_rows(cfg, shown_positions(T), rows)
    return PipelineViews(*(embedding_view(batch, tokens, pos, *place) for place in places))


def view_at(
    cfg: PipelineConfig,
    batch: Batch,
    batch_rows: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
    rows: Rows,
) -> EmbeddingView:
    """Real values at any sequences [S], positions [P] and dims [D] (a followed token's place): the
    positional rows of ``shown_positions`` when they hold every one, else those ``positions``' own."""
    shown = shown_positions(cfg.context_length)
    at = shown if bool(torch.isin(positions, shown).all()) else torch.unique(positions)
    tokens = rows.token_rows(batch.inputs[batch_rows][:, positions])  # [S, P]
    return embedding_view(batch, tokens, position_rows(cfg, at, rows), batch_rows, positions, dims)
