"""The sidebar's pipeline settings (vocab, dim, context, batch, stride, seed, method), bound to the URL."""

from __future__ import annotations

import streamlit as st

from core.config import FAMILIES, PipelineConfig
from ui.state.presets import PRESET_KEYS, preset_choice, to_custom
from ui.state.url_keys import register_url_keys, url_bound

DEFAULTS = PipelineConfig()
register_url_keys("vocab", "dim", "context", "batch", "stride", "seed", "method")


def bound_number(label: str, key: str, default: int | float, help: str) -> int | float:
    """A number input bound to the URL parameter ``key``; int or float like ``default``.

    No min/max on the widget: out-of-range values reach the config's ``validate``, which
    explains them (a bound widget would silently drop an out-of-range URL value).
    """
    step = 1 if isinstance(default, int) else None
    custom = {"on_change": to_custom, "args": (key,)} if key in PRESET_KEYS else {}
    value = st.number_input(label, step=step, help=help, **url_bound(key), value=default, **custom)
    return type(default)(value)


def pipeline_settings() -> PipelineConfig:
    """The seven URL-bound settings (keys vocab, dim, context, batch, stride, seed, method)."""
    d = DEFAULTS
    preset_choice()
    # Options show their own names: a bound selectbox writes what it shows into the URL.
    method = st.selectbox(
        "Positional method",
        tuple(FAMILIES),
        help="  \n".join(f"**{f.label}**: {f.help.split(': ', 1)[-1]}" for f in FAMILIES.values()),
        **url_bound("method"),
        index=list(FAMILIES).index(DEFAULTS.method),
        on_change=to_custom,
        args=("method",),
    )
    c1, c2 = st.columns(2)
    with c1:
        vocab = bound_number(
            "Vocab V",
            "vocab",
            d.vocab_size,
            "Vocabulary size: how many tokens the tokenizer knows, so how many rows the token table has. "
            "Below 50,257 it is GPT-2's BPE cut to its first V tokens (at least 257: the 256 single bytes "
            "and <|endoftext|>); above, GPT-2's whole BPE, and the table has rows no token uses.",
        )
        context = bound_number(
            "Context T",
            "context",
            d.context_length,
            "Context length: how many tokens each window holds (the book's max_length), so how many "
            "positions the model sees at once.",
        )
        stride = bound_number(
            "Stride",
            "stride",
            d.stride,
            "Tokens between the starts of two windows: equal to the context length, windows do not overlap.",
        )
    with c2:
        dim = bound_number(
            "Dim d",
            "dim",
            d.output_dim,
            "Embedding dimension (the book's output_dim): how many numbers each token's vector has.",
        )
        batch = bound_number(
            "Batch B", "batch", d.batch_size, "Batch size: how many windows one batch holds."
        )
        seed = bound_number(
            "Seed",
            "seed",
            d.seed,
            "Where the random numbers that fill the tables start: the same seed gives the same tables (the "
            "book uses 123).",
        )
    return PipelineConfig(vocab, dim, context, batch, stride, seed, method)
