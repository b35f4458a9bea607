"""The pair headline Why position? and the Attention page share: for a family that adds nothing to the
input, its term for a kept and a changed pair of the moved token (``core.attention.headline``), drawn
as metrics with the caption that says what they show."""

from __future__ import annotations

import streamlit as st

from core.attention.compare import PairTerm, tokens_back
from core.attention.headline import PairHeadline, pairs_of
from core.attention.sentences import AttentionSettings, check_settings
from core.config import PipelineConfig
from core.positional.family import FAMILIES
from core.views.markup import escape_markdown
from ui.attention.settings import current_settings
from ui.server import cache


def quoted(piece: str) -> str:
    """A token as the page writes it in Markdown: its repr, escaped."""
    return escape_markdown(repr(piece))


def pair_headline(cfg: PipelineConfig, texts: tuple[str, str], settings: AttentionSettings) -> PairHeadline:
    """The family's own term for a kept and a changed pair of the two sentences, with the Attention
    page's head and settings (``settings`` must pass ``check_settings``)."""
    return pairs_of(cache.sentence_maps(texts, cfg, settings), cfg.vocab_size, settings.causal)


def pair_headline_or_message(cfg: PipelineConfig, texts: tuple[str, str]) -> PairHeadline | None:
    """Why position?'s ``pair_headline`` with the Attention page's settings, or None (and a message) when
    those settings cannot work at these sizes."""
    chosen = current_settings()
    try:
        check_settings(chosen, cfg)
    except ValueError as exc:
        st.info(f"The Attention page's settings cannot work at these sizes: {exc}")
        return None
    return pair_headline(cfg, texts, chosen)


def relative_headline(cells: list, headline: PairHeadline, piece: str, moved) -> None:
    """Why position?'s headline for a family that adds nothing to the input: its term for a kept and a
    changed pair (NoPE: what the mask lets the moved token see), and the caption that says what they show.

    ``piece``: the moved token, quoted for Markdown; ``moved``: its ``core.order.SharedToken``.
    """
    label = FAMILIES[headline.view.method].label
    start = (
        f"{piece} moved from position {moved.position_a} in A to {moved.position_b} in B (positions count "
        f"from 0, as `torch.arange` does). With {label} "
        "its input vector is the same at both places: nothing is added to it. "
    )
    if headline.silent:
        mask_metric(cells[0], headline, piece)
        a, b = headline.seen
        st.caption(
            start
            + f"{label} adds nothing to attention either: "
            + (
                f"only the causal mask carries order, and it lets {piece} see {a} token"
                f"{'s' if a != 1 else ''} in A and {b} in B."
                if headline.causal
                else "and the mask is off, so nothing here depends on order."
            )
        )
        return
    pairs = [p for p in (headline.kept, headline.changed) if p is not None]
    for cell, pair in zip(cells, pairs, strict=False):
        pair_metric(cell, pair, label, headline.pieces)
    st.caption(
        start
        + f"{label} acts inside attention, on pairs of tokens, and sees how far apart they are, not where "
        "they stand. "
        + (
            " ".join(headline.sentences)
            if pairs
            else "No two tokens occur exactly once in both sentences, so there is no pair to compare."
        )
    )


def pair_metric(column, pair: PairTerm, label: str, pieces: dict[int, str]) -> None:
    """One pair's term in B as a metric, A's beside it (both exist: the pair is in both sentences)."""
    name = f"{quoted(pieces[pair.query_b])} → {quoted(pieces[pair.key_b])}"
    if pair.kept:
        delta = f"the same in A · {tokens_back(pair.a.distance)} in both"
        if not pair.same_term:
            delta = f"A: {pair.a.term:+.4f} · {tokens_back(pair.a.distance)} in both"
    elif pair.swapped:
        delta = f"A: {pair.a.term:+.4f} · the two swapped places, {tokens_back(pair.a.distance)}"
    else:
        delta = f"A: {pair.a.term:+.4f} · {pair.a.distance} back in A, {pair.b.distance} in B"
    column.metric(
        f"{label} term, {name} in B",
        f"{pair.b.term:+.4f}",
        delta=delta,
        delta_color="off",
        delta_arrow="off",
        help="What the method itself adds to this pair's attention score (RoPE: the score of the rotated "
        "query and key). One head of seeded random weights, as on the Attention page.",
    )


def mask_metric(column, headline: PairHeadline, piece: str) -> None:
    """NoPE's headline: how many tokens the moved token (``piece``, quoted for Markdown) sees in A and in B,
    which is the mask's doing."""
    a, b = headline.seen
    column.metric(
        f"Tokens {piece} can see in B (the causal mask)",
        f"{b}",
        delta=f"in A: {a}",
        delta_color="off",
        delta_arrow="off",
        help="A decoder's causal mask lets each token see itself and the tokens before it.",
    )
