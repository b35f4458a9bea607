"""Positional Embeddings Explorer — the pipeline page: text → token IDs → input embeddings."""

import streamlit as st
import torch

from core.data import TextTooShort
from core.diagrams import (
    MAX_LOOKUP_ROWS,
    MAX_WINDOW_TOKENS,
    lookup_svg,
    shown_piece,
    windows_sentence,
    windows_svg,
)
from core.embeddings import is_exact
from core.markup import escape_markdown
from core.pipeline import (
    HEATMAP_DIMS,
    HEATMAP_POSITIONS,
    TABLE_DIMS,
    TABLE_POSITIONS,
    pipeline_steps,
    sample_indices,
)
from core.samples import SAMPLES
from core.scripts.pipeline import pipeline_script
from core.tokenizer import ENDOFTEXT, endoftext_id, token_strings, tokenizer_name
from core.units import human_bytes
from ui import cache
from ui.code_view import show_script
from ui.navigation import settings
from ui.pipeline_views import broadcast_step, position_step
from ui.presenter import Slides, presenting, step
from ui.preset_view import preset_panel
from ui.presets import current_preset
from ui.text_source import LONG_SAMPLE, use_long_sample
from ui.vocab_view import vocab_tradeoff
from ui.widgets import (
    grid_table,
    heatmap_view,
    picture,
    show_table,
    tensor_downloads,
    token_chips,
    values_table,
)

MAX_CHIPS = 240
CHIP_MARKS = (
    "Each chip is one token with its ID. · marks a space (GPT-2 keeps a word's leading space in its token: "
    "' cat' and 'cat' are different IDs), ↵ a line break, and � a piece of a character that spans several "
    "tokens (one UTF-8 byte sequence split between them)."
)

cfg, choice = settings()
st.title("From text to input embeddings")
if not presenting():
    st.caption(
        "The lesson's pipeline, live: every shape, count and value below comes from real tensors "
        "for the settings in the sidebar."
    )
if preset := current_preset():
    preset_panel(preset)
if choice.error:
    st.error(choice.error)
    st.stop()
try:
    cfg.validate()
    ids = cache.token_ids(choice.text, cfg.vocab_size)
    batch = cache.batch_of(choice.text, cfg.batch_size, cfg.context_length, cfg.stride, cfg.vocab_size)
except ValueError as exc:
    st.error(str(exc))
    if isinstance(exc, TextTooShort) and choice.text != SAMPLES[LONG_SAMPLE]:
        st.button("Use the long sample text", key="use_long_sample", on_click=use_long_sample)
    st.stop()

B, T, d, V = cfg.batch_size, cfg.context_length, cfg.output_dim, cfg.vocab_size
eot = endoftext_id(V)
if not presenting():
    show_script(
        pipeline_script(cfg, choice.text),
        "it prints the shapes above and, last, the corner of input_embeddings shown below.",
    )
steps = pipeline_steps(cfg, len(ids))
slides = Slides("pipeline", [s.title for s in steps])
if not is_exact(cfg.vocab_size, d):
    st.info(
        f"At vocab {cfg.vocab_size:,} × d {d:,} the token table would take "
        f"{human_bytes(cfg.vocab_size * d * 4)}. The app never allocates it: each row is drawn "
        "from its own seeded N(0, 1) generator, so values differ from a bulk "
        "`nn.Embedding` init (same distribution). Shapes, counts and bytes are exact."
    )

# 1. Text → token IDs
if step(1, steps[0], slides):
    source = escape_markdown(choice.label)  # it may hold a file's name
    st.caption(f"{source}: {len(choice.text):,} characters → {len(ids):,} tokens of {tokenizer_name(V)}.")
    token_chips(token_strings(ids[:MAX_CHIPS], V), ids[:MAX_CHIPS], special_id=eot)
    if len(ids) > MAX_CHIPS:
        st.caption(f"… and {len(ids) - MAX_CHIPS:,} more tokens.")
    st.caption(CHIP_MARKS)
    if eot in ids:
        st.info(
            f"The text contains `{ENDOFTEXT}`. As in the lesson's loader "
            f"(`allowed_special={{'<|endoftext|>'}}`) it becomes the single special token {eot}, "
            "which marks where one document ends and the next begins."
        )
    if not slides.on:
        vocab_tradeoff(choice.text, cfg)

# 2. Batches
if step(2, steps[1], slides):
    st.caption(
        f"{batch.num_windows:,} windows of {T:,} tokens (stride {cfg.stride:,}) → "
        f"{batch.num_batches:,} full batches of {B:,}. This is the first batch (no shuffle)."
    )
    st.markdown("**The windows over the text** (first batch: each lane is one row b of `inputs`)")
    starts = [b * cfg.stride for b in range(B)]
    picture(windows_svg(token_strings(ids[:MAX_WINDOW_TOKENS], V), starts, T))
    st.caption(windows_sentence(T, cfg.stride))
    show_b, show_t = min(B, 8), min(T, 16)
    left, right = st.columns(2)
    with left:
        st.markdown("**inputs**")
        show_table(grid_table(batch.inputs[:show_b, :show_t]))
    with right:
        st.markdown("**targets** (inputs shifted by one token)")
        show_table(grid_table(batch.targets[:show_b, :show_t]))
    if (show_b, show_t) != (B, T):
        st.caption(f"Showing {show_b} of {B} rows and {show_t} of {T:,} columns.")
    tensor_downloads("inputs", batch.inputs, ("b", "t"), "The whole first batch, int64.")

# Real values at a small corner (tables) and on a downsampled grid (heatmaps).
corner = cache.view(
    choice.text,
    cfg,
    batch,
    torch.arange(min(B, 2)),
    torch.arange(min(T, TABLE_POSITIONS)),
    torch.arange(min(d, TABLE_DIMS)),
)
grid = cache.view(
    choice.text,
    cfg,
    batch,
    torch.arange(1),
    sample_indices(T, HEATMAP_POSITIONS),
    sample_indices(d, HEATMAP_DIMS),
)
pieces = token_strings(batch.inputs[0, : len(corner.positions)].tolist(), V)

# 3. Token embeddings
if step(3, steps[2], slides):
    st.caption(
        "Each token ID picks one row of the table. The same ID always gets the same row, wherever it stands."
    )
    first_ids = batch.inputs[0].tolist()  # [T]
    shown_ids = first_ids[:MAX_LOOKUP_ROWS]
    picture(
        lookup_svg(
            [f"{shown_piece(p)} {i:,}" for p, i in zip(token_strings(shown_ids, V), shown_ids, strict=True)],
            first_ids,
            cfg.vocab_size,
            d,
            "token_embedding_layer",
            "token_embeddings[0]",
            "token_embeddings",
        )
    )
    values_table(
        corner.token_embeddings[0],
        corner.positions,
        corner.dims,
        [f"t={t}: {p!r}" for t, p in enumerate(pieces)],
    )
    heatmap_view(grid.token_embeddings[0], grid.positions, grid.dims, "token_embeddings[0]", (T, d))

# 4. Positional embeddings
if step(4, steps[3], slides):
    position_step(cfg, corner, grid)

# 5. Broadcasting
if step(5, steps[4], slides):
    broadcast_step(B, T, d, corner)

# 6. Input embeddings
if step(6, steps[5], slides):
    st.caption(
        f"What the LLM trains on: {B} sequences × {T:,} positions × {d:,} numbers, "
        f"{human_bytes(steps[5].nbytes)} in float32."
    )
    heatmap_view(grid.input_embeddings[0], grid.positions, grid.dims, "input_embeddings[0]", (T, d))
    tensor_downloads(
        "input_embeddings_grid",
        grid.input_embeddings[0],
        ("t", "j"),
        "input_embeddings[0] at the heatmap's positions (rows) and dimensions (columns): real values.",
        labels=(grid.positions.tolist(), grid.dims.tolist()),
    )
