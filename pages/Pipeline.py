"""Positional Embeddings Explorer — the pipeline page: text → token IDs → input embeddings."""

import dataclasses

import streamlit as st

from core.pipeline import (
    book_text_note,
    pipeline_steps,
)
from core.positional.family import FAMILIES
from core.scripts.pipeline import pipeline_script
from core.text.data import TextTooShort, partial_batch_note
from core.text.tokenizer import endoftext_id, tokenizer_name
from core.views.markup import escape_markdown
from ui.answer import answer_slot, show_answer
from ui.app import settings
from ui.code_view import show_script
from ui.navigation import page_title
from ui.pipeline.answer import no_window_answer, pipeline_answer, steps_table
from ui.pipeline.follow import FOLLOW, FOLLOW_TITLE, first_places, follow_panel, follow_slide, followed
from ui.pipeline.step import step
from ui.pipeline.views import (
    broadcast_step,
    endoftext_note,
    input_step,
    no_window,
    position_step,
    streamed_table_note,
    text_lead,
    token_step,
    windows_step,
)
from ui.pipeline.vocab_view import vocab_tradeoff
from ui.presenter import presenting
from ui.preset_view import preset_panel
from ui.server import cache
from ui.slides import Slides
from ui.state.presets import current_preset
from ui.token_chips import token_chips

CHIP_MARKS = (
    "Each chip is one token with its ID. · marks a space (GPT-2 keeps a word's leading space in its token: "
    "' cat' and 'cat' are different IDs), ↵ a line break, and � a piece of a character that GPT-2 split "
    "between two tokens (an accented letter or an emoji is stored as several bytes, and a token may hold "
    "only some of them)."
)

cfg, choice = settings()
page_title("From text to input embeddings")
slot = answer_slot()  # the answer, in short, under the question (filled once the steps are computed)
if not presenting():
    st.caption(
        "The lesson's pipeline, live: every shape, count and value below comes from real tensors "
        "for the settings in the sidebar."
    )
    if book := book_text_note(choice.text, cfg):  # the book's text, known by its fingerprint
        st.info(book, icon=":material/menu_book:")
if preset := current_preset():
    preset_panel(preset)
if choice.error:
    st.error(choice.error)
    st.stop()
try:
    cfg.validate()
    ids = cache.token_ids(choice.text, cfg.vocab_size)
    batch = cache.batch_of(choice.text, cfg.batch_size, cfg.context_length, cfg.stride, cfg.vocab_size)
except TextTooShort as exc:  # no window: the tokens are still shown, and why nothing follows
    batch, too_short = None, str(exc)
except ValueError as exc:
    st.error(str(exc))
    st.stop()

asked = cfg  # the sidebar's settings; below, B is the batch the text fills (fewer windows: fewer rows)
if batch is None:
    no_window(too_short, choice.text, len(ids))
else:
    cfg = dataclasses.replace(cfg, batch_size=batch.batch_size)
    if note := partial_batch_note(batch, asked.batch_size, cfg.context_length):
        st.info(note)
B, T, d, V = cfg.batch_size, cfg.context_length, cfg.output_dim, cfg.vocab_size
eot = endoftext_id(V)
if not presenting() and batch is not None:
    show_script(
        lambda: pipeline_script(asked, choice.text, len(ids)),
        "it prints the shapes above and, last, the corner of input_embeddings shown below.",
    )
steps = pipeline_steps(cfg, len(ids))
if batch is None:
    show_answer(slot, no_window_answer(cfg.context_length, len(ids)))
else:
    answer = pipeline_answer(cfg, steps, len(choice.text), batch.num_windows)
    show_answer(slot, dataclasses.replace(answer, table=steps_table(steps)))
PARTS = [  # presenting, each step's shape is asked first, then its pictures and values come a slide each
    ["", "the tokens"],
    ["", "the windows", "inputs and targets"],
    ["", "the lookup", "the values"],
    ["", "the lookup", "the values"] if FAMILIES[cfg.method].additive else [""],
    ["", "the picture", "the values"],
    ["", "the values"],
]
token = followed(len(ids))  # the token the URL follows, if any, and its places (b, t) in the first batch
places = [] if token is None or batch is None else first_places(token, batch, T, cfg.stride)
shown = steps[: 1 if batch is None else None]  # no window: step 1 only
sections = [(s.title, p) for s, p in zip(shown, PARTS, strict=False)]
follow = presenting() and batch is not None  # presenting, a last slide follows one token
slides = Slides("pipeline", sections + [FOLLOW_TITLE] * follow)
if slides.shows(3) and slides.at(0):
    streamed_table_note(cfg)

# 1. Text → token IDs
if step(1, steps[0], slides, text_lead(choice.label, choice.text)) and slides.at(1):
    source = escape_markdown(choice.label)  # it may hold a file's name
    tokens = f"{len(ids):,} token{'s' * (len(ids) != 1)}"
    chars = f"{len(choice.text):,} character{'s' * (len(choice.text) != 1)}"
    st.caption(f"{source}: {chars} → {tokens} of {tokenizer_name(V)}.")
    # One set of chips: a student picks a token from them (presenting, or with no window, they are a picture).
    token_chips(ids, V, special_id=eot, pick=None if presenting() or batch is None else FOLLOW)
    st.caption(CHIP_MARKS)
    follow_panel(token, ids, cfg, batch, asked.batch_size)
    if eot in ids:
        endoftext_note(eot)
    if not slides.on:
        vocab_tradeoff(choice.text, cfg)

if batch is None:  # said above: no window, so nothing past step 1
    st.stop()

# 2. Batches
if step(2, steps[1], slides):
    windows_step(cfg, batch, ids, asked.batch_size, slides.part, token)

seq = places[0][0] if places else 0  # the sequence b drawn in steps 3 and 6: the followed token's, or 0
# Real values at small corners (tables) and on a downsampled grid (heatmaps), from the rows kept.
views = cache.pipeline_views(cfg, batch, seq)
corner, grid = views.corner, views.grid
in_seq = {t for b, t in places if b == seq}  # the followed token's places t in that sequence

# 3. Token embeddings
if step(3, steps[2], slides):
    token_step(cfg, batch, seq, views, slides.part, in_seq)

# 4. Positional embeddings
if step(4, steps[3], slides):
    position_step(cfg, corner, grid, slides.part, {t for _, t in places})

# 5. Broadcasting
if step(5, steps[4], slides):
    broadcast_step(B, T, d, corner, slides.part, places)

# 6. Input embeddings
if step(6, steps[5], slides):
    input_step(cfg, steps[5], grid, seq, in_seq)

if follow and slides.shows(len(sections) + 1):
    follow_slide(len(sections) + 1, token, ids, cfg, batch, asked.batch_size)
