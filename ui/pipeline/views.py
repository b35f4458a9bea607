"""The Pipeline page's steps 2, 4 and 5 (the windows, the positional table, the broadcasting add),
and what it shows for a text too short for one window."""

from __future__ import annotations

from functools import partial

import streamlit as st
import torch

from core.config import PipelineConfig
from core.embeddings import is_exact
from core.pipeline import FLOAT32_BYTES, EmbeddingView, PipelineViews, Step
from core.positional.family import FAMILIES
from core.text.data import Batch, batch_sentence, first_batch, tokens_needed
from core.text.samples import SAMPLES
from core.text.tokenizer import ENDOFTEXT, token_strings
from core.views.diagrams import (
    MAX_LOOKUP_ROWS,
    MAX_SLABS,
    MAX_WINDOW_TOKENS,
    broadcast_svg,
    lookup_svg,
    shown_piece,
    windows_sentence,
    windows_svg,
)
from core.views.glossary import define
from core.views.markup import escape_markdown
from core.views.units import human_bytes, plural
from ui.downloads import tensor_downloads
from ui.figures import heatmap_view, picture
from ui.pipeline.follow import first_places
from ui.presenter import LEAST_FONT, presenting
from ui.state.presets import to_custom
from ui.tables import grid_table, table, values_table
from ui.text_source import LONG_SAMPLE, use_long_sample


def _use_context(context_length: int) -> None:
    """A button's callback: the context length that fits the text (the text stays)."""
    st.session_state["context"] = context_length
    to_custom("context")


LEAD_CHARS = 150  # presenting, the text's start on step 1's slide: two lines of a projector


def text_lead(label: str, text: str) -> str:
    """Presenting, what step 1's question is about, shown before it: where the text comes from, its
    length in characters and its first words, quoted (the class predicts the shape of its token IDs)."""
    words = " ".join(text.split())  # one line: its line breaks are the chips' business, on the next slide
    start = words if len(words) <= LEAD_CHARS else words[:LEAD_CHARS].rsplit(" ", 1)[0] + " …"
    chars = plural(len(text), "character")
    return f"The text, {escape_markdown(label)} ({chars}), begins: “{escape_markdown(start)}”"


def no_window(message: str, text: str, num_tokens: int) -> None:
    """Why the text makes no window (steps 2–6 need one), and a one-click fix that keeps the text."""
    st.warning(f"{message} Step 1 below shows its tokens; steps 2–6 need at least one window.")
    if num_tokens >= 2:
        fits = num_tokens - 1
        st.button(
            f"Use context length {fits:,} (keeps the text)",
            key="fit_context",
            on_click=_use_context,
            args=(fits,),
        )
    if text in SAMPLES.values() and text != SAMPLES[LONG_SAMPLE]:  # a sample, not the user's own text
        st.button("Use the long sample text", key="use_long_sample", on_click=use_long_sample)


WIDE_ROW = 14  # tokens per row of the windows' drawing on a presenter's slide (1,040 px wide)


def least_font() -> int:
    """The pictures' smallest text: a back row's on a slide (drawn at its own size there), else theirs."""
    return LEAST_FONT if presenting() else 0


def windows_step(
    cfg: PipelineConfig,
    batch: Batch,
    ids: list[int],
    batch_size: int,
    part: int | None = None,
    token: int | None = None,
) -> None:
    """The first batch: what the windows make, the windows over the tokens, inputs and targets.

    ``cfg.batch_size`` is the batch's own B; ``batch_size`` the B asked for (more when the text is short).
    ``part`` (presenting): 1 the windows, 2 inputs and targets; None both. ``token``: the followed token's
    place in the text, marked in the windows' drawing.
    """
    B, T, V = batch.batch_size, cfg.context_length, cfg.vocab_size
    if part in (None, 1):
        if presenting():  # one line less: the slide's title already says what the picture is
            st.caption(
                f"{batch_sentence(batch, batch_size, T, cfg.stride)} Each lane is one row b of `inputs`."
            )
        else:
            st.caption(batch_sentence(batch, batch_size, T, cfg.stride))
            st.markdown("**The windows over the text** (first batch: each lane is one row b of `inputs`)")
        starts = [b * cfg.stride for b in range(B)]
        per_row = {"per_row": WIDE_ROW} if presenting() else {}  # wider and shorter: one screen
        pieces = token_strings(ids[:MAX_WINDOW_TOKENS], V)
        picture(windows_svg(pieces, starts, T, mark=token, least_font=least_font(), **per_row))
        if B > 1:
            st.caption(windows_sentence(T, cfg.stride))
    if part not in (None, 2):
        return
    show_b, show_t = min(B, 8), min(T, 16)
    shown = lambda b, t: b < show_b and 0 <= t < show_t  # noqa: E731
    places = [] if token is None else first_places(token, batch, T, cfg.stride)
    left, right = st.columns(2)
    with left:
        st.markdown("**inputs**")
        table(grid_table(batch.inputs[:show_b, :show_t]), marked_cells={p for p in places if shown(*p)})
    with right:
        st.markdown("**targets** (inputs shifted by one token)")
        # targets[b, t] is token b·stride + t + 1 of the text: where the followed token is the one to guess
        guessed = [] if token is None else [(b, token - b * cfg.stride - 1) for b in range(B)]
        answers = {(b, t) for b, t in guessed if shown(b, t)}
        table(grid_table(batch.targets[:show_b, :show_t]), marked_cells=answers)
    if places or answers:
        st.caption(
            "▶: the followed token; in `targets`, where it is the next token to predict."
            if presenting()  # one line: the slide has no room for two
            else "▶ and bold on yellow: the followed token. In `targets` it is marked wherever it is the "
            "next token the model must predict: at the place of the token just before it."
        )
    if (show_b, show_t) != (B, T):
        st.caption(f"Showing {show_b} of {plural(B, 'row')} and {show_t} of {plural(T, 'column')}.")
    # The button keeps the tokens the batch is cut from (int32), not the batch: 8 MB at B 128, T 8192.
    span = torch.tensor(ids[: tokens_needed(B, T, cfg.stride)], dtype=torch.int32)
    inputs = partial(first_inputs, span, B, T, cfg.stride)
    tensor_downloads("inputs", inputs, ("b", "t"), "The whole first batch, int64.")


def first_inputs(span: torch.Tensor, batch_size: int, max_length: int, stride: int) -> torch.Tensor:
    """The first batch's inputs [B, T] again, from the tokens it is cut from (for a download)."""
    return first_batch(span.tolist(), batch_size, max_length, stride, drop_last=False).inputs


def token_step(
    cfg: PipelineConfig,
    batch: Batch,
    seq: int,
    views: PipelineViews,
    part: int | None = None,
    marked: set[int] | None = None,
) -> None:
    """Sequence ``seq``'s token IDs looking up their rows, a corner of their values and a heatmap.

    ``part`` (presenting): 1 the lookup, 2 the values; None both. ``views``: the page's values, of
    sequence ``seq``. ``marked``: the followed token's places t in that sequence.
    """
    V, T, d, marked = cfg.vocab_size, cfg.context_length, cfg.output_dim, marked or set()
    if part in (None, 1):
        st.caption(
            "Each token ID picks one row of the table. The same ID always gets the same row, wherever it "
            "stands." + (f" Sequence b = {seq} is drawn: it holds the followed token." if seq else "")
        )
        seq_ids = batch.inputs[seq].tolist()  # [T]
        shown = seq_ids[:MAX_LOOKUP_ROWS]
        labels = [f"{shown_piece(p)} {i:,}" for p, i in zip(token_strings(shown, V), shown, strict=True)]
        out = f"token_embeddings[{seq}]"
        table = "token_embedding_layer"
        picture(lookup_svg(labels, seq_ids, V, d, table, out, "token_embeddings", marked, least_font()))
    if part not in (None, 2):
        return
    row, grid = views.row, views.grid
    pieces = token_strings(batch.inputs[seq, : len(row.positions)].tolist(), V)
    labels = [f"t={t}: {p!r}" for t, p in enumerate(pieces)]
    values_table(row.token_embeddings[0], row.positions, row.dims, labels, marked=marked)
    heatmap_view(
        grid.token_embeddings[0], grid.positions, grid.dims, f"token_embeddings[{seq}]", (T, d), marked
    )


def position_step(
    cfg: PipelineConfig,
    corner: EmbeddingView,
    grid: EmbeddingView,
    part: int | None = None,
    marked: set[int] | None = None,
) -> None:
    """The [T, d] table the method adds (its lookup, a corner of values and a heatmap), or why none.

    ``part`` (presenting, a method with a table): 1 the lookup, 2 the values; None both. ``marked``: the
    followed token's positions t (the rows of the table it gets).
    """
    marked = marked or set()
    family, T, d = FAMILIES[cfg.method], cfg.context_length, cfg.output_dim
    if not family.additive:
        st.info(no_table_words(family, T, d))
        if family.where:
            st.page_link(
                "pages/Attention.py", label=f"Where {family.label} acts: Attention", icon=":material/grid_on:"
            )
        return
    if part in (None, 1):
        st.caption(
            "One vector per position 0 … T−1, the same for every sequence in the batch. " + family.input_note
        )
        labels = [f"t = {t}" for t in range(min(T, MAX_LOOKUP_ROWS))]
        table = family.table_name
        rows = list(range(T))
        picture(
            lookup_svg(labels, rows, T, d, table, "pos_embeddings", "pos_embeddings", marked, least_font())
        )
    if part not in (None, 2):
        return
    values_table(corner.pos_embeddings, corner.positions, corner.dims, marked=marked)
    heatmap_view(grid.pos_embeddings, grid.positions, grid.dims, "pos_embeddings", (T, d), marked)


def no_table_words(family, T: int, d: int) -> str:
    """Step 4 for a method with no position table: where position enters instead, and why the script's
    `torch.zeros(T, d)` of 4·T·d bytes is 0 B here (a model with this method has no such table)."""
    where = (
        f"{family.where[0].upper()}{family.where[1:]}: the Attention page shows it on two sentences."
        if family.where
        else f"Position enters nowhere: only a {define('causal mask')} lets order in (see **Why position?**)."
    )
    zeros = T * d * FLOAT32_BYTES
    return (
        f"**{family.label}** adds nothing to the input: the input embeddings are the token embeddings. "
        f"{where} The shown code writes `torch.zeros({T}, {d})` only so that the lesson's add still runs; "
        f"that would take {zeros:,} bytes in the script, but a model with {family.label} keeps no such "
        "table, so this step has 0 parameters and 0 B."
    )


def broadcast_step(
    B: int,
    T: int,
    d: int,
    corner: EmbeddingView,
    part: int | None = None,
    places: list[tuple[int, int]] | None = None,
) -> None:
    """``[B, T, d] + [T, d]``: the diagram, in words, and position 0 of (up to) two sequences, real values.

    ``part`` (presenting): 1 the diagram and its words, 2 the values; None both. ``places``: the followed
    token's (b, t) in the batch: the first is marked in the diagram, those at t = 0 in the values.
    """
    places = places or []
    if part in (None, 1):
        broadcast_picture(B, T, d, places[0] if places else None)
    if part in (None, 2):
        broadcast_values(corner, {b for b, t in places if t == 0})


def broadcast_picture(B: int, T: int, d: int, mark: tuple[int, int] | None = None) -> None:
    """The broadcasting diagram and what PyTorch does, in words: the lesson's "duplicates the values B
    times" (what the sum holds) joined to the step's 0 B (the view that makes the add needs no copy).
    ``mark``: the followed token's (b, t), drawn as a band across its sequence's box and the table."""
    picture(broadcast_svg(B, T, d, mark, least_font()))
    if mark is not None:
        b, t = mark
        box = (  # each sequence is one box of a stack: b = 0 in front
            "the front box" if b == 0 else "its box, behind, outlined" if b < MAX_SLABS else "not drawn"
        )
        st.caption(
            f"Banded, outlined in black: the followed token (row t = {t:,} of b = {b:,}) and table row {t:,}."
            if presenting()  # one line: the slide has no room for two
            else f"The followed token is row t = {t:,} of sequence b = {b:,} ({box}), banded in yellow with "
            f"a black outline. It gets row t = {t:,} of the one table, banded the same way in the middle."
        )
    st.markdown(broadcast_words(B, T, d))


LECTURE_B = 8  # the lecture's batch: "duplicating these same values eight times"


def broadcast_words(B: int, T: int, d: int) -> str:
    """What PyTorch does for ``[B, T, d] + [T, d]``, in words: the lecture's "duplicates the values eight
    times" (at its B = 8), what the sum holds, and the step's 0 B (no copy is written)."""
    total = human_bytes(B * T * d * FLOAT32_BYTES)
    shapes = (
        f"`[{B}, {T}, {d}] + [{T}, {d}]`: PyTorch matches the two shapes from their last number, {d} with "
        f"{d} and {T} with {T}. The table has no batch number, so PyTorch uses the same table for every "
        "sequence"
    )
    if B == 1:
        return (
            f"{shapes}; here there is only B = 1, so nothing is repeated (with more sequences it would be "
            "repeated over them without copying it: the step's **Extra memory for the add**, 0 B). "
            "Position 0 of that one row:"
        )
    lecture = f"The lecture, at B = {LECTURE_B}, says Python duplicates these values eight times" + (
        "" if B == LECTURE_B else f"; with B = {B} here, it is {B} times"
    )
    return (
        f"{shapes}: it repeats it over the {B} sequences. {lecture}, and the result does hold them {B} "
        f"times: `input_embeddings` has the table's {T:,} × {d:,} values in each of its {B} sequences "
        f"({total} in all). What PyTorch skips is writing {B} copies of the table out first: it reads the "
        "one table for every sequence, so the step's **Extra memory for the add** is 0 B, while the sum "
        "itself takes its bytes (step 6). Position t of **every** row gets the same vector:"
    )


def broadcast_values(corner: EmbeddingView, marked: set[int]) -> None:
    """Position 0 of (up to) two sequences: token + position = input, real values (``marked``: the
    sequences whose rows are the followed token's)."""
    rows, labels = [], []
    for b in range(len(corner.batch_rows)):  # the corner's rows: 0 and 1, or only 0 when B = 1
        rows += [corner.token_embeddings[b, 0], corner.pos_embeddings[0], corner.input_embeddings[b, 0]]
        labels += [f"token_embeddings[{b}, 0]", "+ pos_embeddings[0]", f"= input_embeddings[{b}, 0]"]
    shown = {3 * b + k for b in marked if b < len(corner.batch_rows) for k in range(3)}
    values_table(torch.stack(rows), corner.positions, corner.dims, labels, shown)


def input_step(cfg: PipelineConfig, info: Step, grid: EmbeddingView, seq: int, marked: set[int]) -> None:
    """What the LLM trains on: its size, sequence ``seq``'s heatmap (``grid``; ``marked``: the followed
    token's places t) and its values to download."""
    B, T, d = cfg.batch_size, cfg.context_length, cfg.output_dim
    sequences, positions = plural(B, "sequence"), plural(T, "position")
    st.caption(
        f"What the LLM trains on: {sequences} × {positions} × {d:,} numbers, {human_bytes(info.nbytes)} in "
        "float32."
    )
    title = f"input_embeddings[{seq}]"
    heatmap_view(grid.input_embeddings[0], grid.positions, grid.dims, title, (T, d), marked)
    tensor_downloads(
        "input_embeddings_grid",
        grid.input_embeddings[0],
        ("t", "j"),
        f"{title} at the heatmap's positions (rows) and dimensions (columns): real values.",
        labels=(grid.positions.tolist(), grid.dims.tolist()),
    )


def streamed_table_note(cfg: PipelineConfig) -> None:
    """Above the steps, when the token table is too big to build: how its rows come all the same."""
    if is_exact(cfg.vocab_size, cfg.output_dim):
        return
    nbytes = cfg.vocab_size * cfg.output_dim * FLOAT32_BYTES
    st.info(
        f"At vocab {cfg.vocab_size:,} × d {cfg.output_dim:,} the token table alone (without the position "
        f"table) would take {nbytes:,} bytes ({human_bytes(nbytes)}). The app never builds it: each row is "
        "drawn with a seed of its own, with the same spread of random numbers as `nn.Embedding`'s, so the "
        "values differ from the book's table. Shapes, counts and bytes are exact."
    )


def endoftext_note(eot: int) -> None:
    """Step 1, when the text holds the end-of-text marker: the special token it becomes."""
    st.info(
        f"The text contains `{ENDOFTEXT}`. As in the lesson's loader "
        f"(`allowed_special={{'<|endoftext|>'}}`) it becomes the single special token {eot}, "
        "which marks where one document ends and the next begins."
    )
