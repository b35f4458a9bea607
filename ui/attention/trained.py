"""The Attention page's switch to the tiny GPT this session trained: its run, and its head to show."""

from __future__ import annotations

import streamlit as st

from core.attention.heads import TrainedHead
from core.attention.sentences import AttentionSettings
from core.training.model import SIZES
from core.training.training import TrainResult


def trained_run() -> TrainResult | None:
    """This session's last finished training run (the Training page), if it kept its model's heads."""
    from ui.training.views import session_id, training_queue  # the Training page's queue, shared

    job = training_queue().own_job(session_id())
    if job is None or job.status != "done" or not job.result.first_block:
        return None
    return job.result


def weights_switch(run: TrainResult | None) -> bool:
    """The switch to the trained tiny GPT's heads (session only: a link cannot carry a trained model)."""
    if run is None:
        st.caption(
            "Train the tiny GPT on **Watch positions being learned** to see its trained attention here."
        )
        return False
    c = run.config
    return st.toggle(
        f"Use the heads of the tiny GPT you trained ({c.method}, {c.size}, context {c.context_length}, "
        f"{c.steps} steps)",
        key="trained_heads",
        help="Its first block's heads on your sentences, in its vocabulary (its training text's tokens).",
    )


def trained_head(run: TrainResult, settings: AttentionSettings) -> TrainedHead:
    """The run's first-block head the settings show (its last, when it has fewer heads)."""
    c = run.config
    _, num_heads, _ = SIZES[c.size]
    head = min(settings.head, num_heads - 1)
    return TrainedHead(run.first_block, tuple(run.vocab), c.method, c.size, c.context_length, head)
