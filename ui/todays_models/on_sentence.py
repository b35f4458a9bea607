"""What today's models do with position on the student's sentence (``core.positional.on_sentence``),
written where the Attention page and Why position? show the chosen method acting on it."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
import torch

from core.attention.partial import sentence_shares
from core.config import PipelineConfig
from core.positional.family import FamilyConfig
from core.positional.on_sentence import ROTATING, Shares, on_sentence
from ui.server import cache

FRACTIONS = (0.25, 0.5, 1.0)  # GPT-NeoX's share of a head, Phi's and GLM's, and the whole head


def todays_models_note(
    method: str, tokens: int, known: tuple[str, ...] = (), shares: Callable[[], Shares] | None = None
) -> None:
    """A paragraph for ``method`` on a sentence of ``tokens`` tokens, with a link to Today's models;
    nothing for a family today's models do not use. ``known``: glossary words the page defined above;
    ``shares``: what turning part of the page's head keeps on sentence A (``head_shares``), computed
    only for the family that turns."""
    said = on_sentence(method, tokens, known, shares() if shares and method == ROTATING else None)
    if not said:
        return
    st.markdown("**In today's models, on your sentences.**\n" + "\n".join(f"- {line}" for line in said))
    st.page_link("pages/Todays_models.py", label="Today's models, layer by layer", icon=":material/layers:")


def head_shares(ids: list[int], cfg: PipelineConfig, fam: FamilyConfig, head: int) -> Shares:
    """``sentence_shares`` of the Attention page's seeded random head on the token IDs ``ids``."""
    return _head_shares(tuple(ids), cfg, fam, head)


@cache.per_process(max_entries=32, dropped_when_short=True)  # a rerun need not project the head again
def _head_shares(ids: tuple[int, ...], cfg: PipelineConfig, fam: FamilyConfig, head: int) -> Shares:
    needed = torch.tensor(ids, dtype=torch.long)
    tokens = cache.kept_rows(cfg).token_rows(needed).lookup(needed)  # [N, d]
    return sentence_shares(tokens, cfg, fam, head, FRACTIONS)
