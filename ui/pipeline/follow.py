"""Follow one token on the Pipeline: pick its chip, then see its windows, its two rows and their sum.

The followed token is the URL's ``token`` (its place in the text, 0 for the first), so Copy link and
presenter mode keep it; step 1's chips are pills (``FOLLOW``), so a click is one rerun, not a page load.
"""

from __future__ import annotations

import streamlit as st
import torch

from core.config import PipelineConfig
from core.pipeline import TABLE_DIMS, token_windows
from core.positional.family import FAMILIES
from core.text.data import Batch
from core.text.tokenizer import token_strings
from core.views.units import listing, plural
from ui.predict import predict_number
from ui.presenter import presenting
from ui.server import cache
from ui.state.url_keys import register_shown_keys
from ui.tables import token_text, values_table
from ui.token_chips import Pick

(TOKEN,) = register_shown_keys("token")
SLIDE_DIMS = 4  # values per row on the slide "Follow one token": its labels stay on one line
LISTED = 3  # windows named at most in the sentence that says which hold the token (stride 1: up to T)
FOLLOW = Pick(
    TOKEN,
    "The text's tokens, each with its ID: pick one to follow it through every step below (pick it again "
    "to stop following it)",
)


def followed(num_tokens: int) -> int | None:
    """The token the URL follows (already a whole number: ``check_url``), or None; one outside the text
    is explained and dropped."""
    text = st.query_params.get(TOKEN)
    if text is None:
        return None
    token = int(text)
    if 0 <= token < num_tokens:
        return token
    del st.query_params[TOKEN]
    st.session_state.pop(FOLLOW.key, None)
    places = f"numbered 0 to {num_tokens - 1:,}" if num_tokens > 1 else "numbered 0" if num_tokens else ""
    has = f"{plural(num_tokens, 'token')}{', ' + places if places else ''}"
    st.warning(f"The link follows token {token:,}, but this text has {has}: no token is followed.")
    return None


def first_places(token: int, batch: Batch, context_length: int, stride: int) -> list[tuple[int, int]]:
    """Every (b, t) of the first batch that holds token ``token`` of the text (empty: none does)."""
    windows = token_windows(token, batch.num_windows, context_length, stride)
    return [(b, t) for b, t in windows if b < batch.batch_size]


def this_token(token: int, ids: list[int], cfg: PipelineConfig, batch: Batch, batch_size: int) -> None:
    """The panel "This token": its piece, ID, every (b, t) of the first batch that holds it, and its token
    row, position row and their sum at the first, taken from the page's own tensors.

    ``cfg.batch_size`` is the batch's own B, ``batch_size`` the B asked for.
    """
    T, V = cfg.context_length, cfg.vocab_size
    piece, token_id = token_strings([ids[token]], V)[0], ids[token]
    places = token_windows(token, batch.num_windows, T, cfg.stride)
    first = first_places(token, batch, T, cfg.stride)
    if not presenting():  # the slide "Follow one token" has said which token it is
        st.markdown("**This token**")
    intro = f"Token {token:,} of the text (counting from 0, like t) is {token_text(piece)}, ID {token_id:,}."
    if not places:
        if token < batch.num_windows * cfg.stride:  # a window starts after it: it falls between two
            why = (
                f"the stride ({cfg.stride:,}) is longer than a window ({T:,} tokens), so the windows skip it"
            )
        else:
            why = "the last window ends before it (each window also needs the token after it as its target)"
        st.info(f"{intro} No window holds it: {why}. So it is in no batch and has no input embedding.")
        return
    later = _later_windows(places, len(first), batch, batch_size)
    if not first:
        last = (batch.batch_size - 1) * cfg.stride + T - 1
        st.info(
            f"{intro} {later}{_overlap(len(places), T, cfg.stride)} This page draws the first batch only, so "
            "it shows no values for this token: "
            f"pick one of tokens 0 to {last:,} (the first batch's windows reach that far), or use a larger "
            "batch size or stride."
        )
        return
    listed = ", ".join(f"b = {b} at t = {t:,}" for b, t in first)
    where = f"in {plural(len(first), 'window')} of the first batch: {listed}"
    if not presenting():
        st.markdown(
            f"{intro} It is {where}.{' ' + later if later else ''}{_overlap(len(places), T, cfg.stride)}"
        )
    b, t = first[0]
    _three_rows(cfg, batch, b, t, token_id)


def _three_rows(cfg: PipelineConfig, batch: Batch, b: int, t: int, token_id: int) -> None:
    """The followed token's token row, position row and their sum at (``b``, ``t``) of the first batch,
    taken from the page's own tensors, and what each depends on."""
    dims = torch.arange(min(cfg.output_dim, SLIDE_DIMS if presenting() else TABLE_DIMS))
    view = cache.view(cfg, batch, torch.tensor([b]), torch.tensor([t]), dims)
    rows = torch.stack([view.token_embeddings[0, 0], view.pos_embeddings[0], view.input_embeddings[0, 0]])
    labels = [
        f"token_embeddings[{b}, {t}]: row {token_id:,} of the token table",
        f"pos_embeddings[{t}]: row {t:,} of the position table",
        f"input_embeddings[{b}, {t}]: their sum",
    ]
    values_table(rows, view.positions, dims, labels)
    marks = (
        ""
        if presenting()
        else "Below, every step marks it: its cell and windows in the windows' drawing, its rows in the "
        "lookups and heatmaps (outlined in black) and in the tables of values (▶, bold on yellow)."
    )
    d = cfg.output_dim
    shown = f"The first {len(dims)} of the {d:,} numbers in each row" if len(dims) < d else "Every number"
    zeros = "" if FAMILIES[cfg.method].additive else f" {FAMILIES[cfg.method].label} adds zeros at the input."
    st.caption(
        f"{shown}: the token's row depends only on its ID, the position row only on t, and their sum is "
        f"what the model reads.{zeros} {marks}".rstrip()
    )


def _later_windows(places: list[tuple[int, int]], skipped: int, batch: Batch, batch_size: int) -> str:
    """The windows past the first batch that hold a token, in words (the first ``skipped`` of ``places``
    are the first batch's, said elsewhere); "" when there are none."""
    rest = places[skipped:]
    if not rest:
        return ""
    full = batch.num_batches * batch_size  # a window past the full batches is in the partial one, left out

    def window(w: int, t: int) -> str:
        number = f"batch {w // batch_size + 1:,}" + (", the partial batch" if w >= full else "")
        return f"window {w:,} (row b = {w % batch_size:,} of {number}, at t = {t:,})"

    named = [window(w, t) for w, t in rest[:LISTED]]
    if len(rest) > LISTED:
        named.append(plural(len(rest) - LISTED, "more window"))
    if skipped:
        said = f"It is also in {listing(named)}; the first batch is batch 1."
    elif len(rest) == 1:
        said = f"It is in one window only: {named[0]}; the first batch is batch 1."
    else:
        said = (
            f"It is in {len(rest):,} windows, none of them in the first batch: {listing(named)}; the first "
            "batch is batch 1."
        )
    if any(w >= full for w, _ in rest):
        said += " The book's loader (drop_last=True) leaves that last, partial batch out."
    return said


def _overlap(windows: int, context_length: int, stride: int) -> str:
    """Why several windows hold one token, when they do ("" for one)."""
    if windows < 2:
        return ""
    every = "every token" if stride == 1 else f"every {stride:,} tokens"
    return (
        f" Windows overlap: one starts {every} and each holds {plural(context_length, 'token')}, so "
        f"{windows:,} windows hold this one."
    )


def follow_panel(
    token: int | None, ids: list[int], cfg: PipelineConfig, batch: Batch | None, batch_size: int
) -> None:
    """For a followed token, its panel under step 1's chips. Presenting, a slide has no room for it: the
    marks on the later slides keep the link's token."""
    if batch is None or presenting() or token is None:
        return
    this_token(token, ids, cfg, batch, batch_size)


FOLLOW_TITLE = "Follow one token"


def follow_slide(
    number: int, token: int | None, ids: list[int], cfg: PipelineConfig, batch: Batch, batch_size: int
) -> None:
    """Presenting, the last slide (section ``number``): one token's place t is asked, then its two rows
    and their sum shown.

    The token is the link's, when the first batch holds it; otherwise the one at t = 1 of window b = 1
    (or the nearest the batch has), so that b and t are not both 0.
    """
    st.subheader(f"{number}. {FOLLOW_TITLE}")
    T, stride = cfg.context_length, cfg.stride
    if token is None or not first_places(token, batch, T, stride):
        token = min(1, batch.batch_size - 1) * stride + min(1, T - 1)
    b, t = first_places(token, batch, T, stride)[0]
    piece = token_strings([ids[token]], cfg.vocab_size)[0]
    start = b * stride
    st.markdown(
        f"Token {token:,} of the text (counting from 0), {token_text(piece)} (ID {ids[token]:,}), is in "
        f"window b = {b:,} "
        f"of the first batch. Windows hold {plural(T, 'token')} and one starts every "
        f"{plural(stride, 'token')}, so window {b:,} starts at token {start:,}."
    )
    question = (
        "Which row of the position table does it get there?"
        if FAMILIES[cfg.method].additive
        else "At which position t does it stand there?"
    )
    if predict_number("follow", question, t, 0):
        st.markdown(f"t = {token:,} − {start:,} = {t:,}: its place in the window, whatever the token.")
        this_token(token, ids, cfg, batch, batch_size)
