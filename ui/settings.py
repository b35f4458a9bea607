"""The sidebar's pipeline settings (vocab, dim, context, batch, stride, seed, method), bound to the URL.

A setting's help is written under it, not behind a "?" button: each button was a Tab stop of its own,
and a keyboard crossed ten of them before reaching a page.
"""

from __future__ import annotations

import streamlit as st

from core.config import PipelineConfig
from core.positional.family import FAMILIES
from ui.state.named_choice import named_choice
from ui.state.presets import PRESET_KEYS, preset_choice, to_custom
from ui.state.url_keys import register_url_keys, url_bound

DEFAULTS = PipelineConfig()
register_url_keys("vocab", "dim", "context", "batch", "stride", "seed", "method")


def bound_number(label: str, key: str, default: int | float, help: str | None = None) -> int | float:
    """A number input bound to the URL parameter ``key``; int or float like ``default``.

    No min/max on the widget: out-of-range values reach the config's ``validate``, which
    explains them (a bound widget would silently drop an out-of-range URL value).
    """
    step = 1 if isinstance(default, int) else None
    custom = {"on_change": to_custom, "args": (key,)} if key in PRESET_KEYS else {}
    value = st.number_input(label, step=step, help=help, **url_bound(key), value=default, **custom)
    return type(default)(value)


def method_label(key: str) -> str:
    """What the method list shows for ``key``: the family's own name from its record ("Learned absolute")."""
    family = FAMILIES.get(key)
    return family.label if family is not None else key


def method_caption(key: str) -> str:
    """The chosen method in one line, under the list: its record's ``help`` without its leading key."""
    family = FAMILIES.get(key)
    return f"**{family.label}**: {family.help.split(': ', 1)[-1]}" if family is not None else ""


# Each number's meaning, under the two columns of numbers: one line each, in the lecture's words.
NUMBER_WORDS = (
    "**V**: how many tokens the tokenizer knows, so how many rows the token table has (below 50,257: "
    "GPT-2's first V tokens; above: rows no token uses). **d**: how many numbers each token's vector has. "
    "**T**: how many tokens a window holds, so how many positions the model sees at once. **B**: how many "
    "windows one batch holds. **Stride**: tokens from one window's start to the next (equal to T: windows "
    "do not overlap). **Seed**: where the random numbers that fill the tables start (the book uses 123)."
)


def pipeline_settings() -> PipelineConfig:
    """The seven URL-bound settings (keys vocab, dim, context, batch, stride, seed, method)."""
    d = DEFAULTS
    preset_choice()
    method = named_choice(
        "Positional method",
        tuple(FAMILIES),
        "method",
        DEFAULTS.method,
        method_label,
        on_change=to_custom,
        args=("method",),
    )
    st.caption(method_caption(method))
    c1, c2 = st.columns(2)
    with c1:
        vocab = bound_number("Vocab V", "vocab", d.vocab_size)
        context = bound_number("Context T", "context", d.context_length)
        stride = bound_number("Stride", "stride", d.stride)
    with c2:
        dim = bound_number("Dim d", "dim", d.output_dim)
        batch = bound_number("Batch B", "batch", d.batch_size)
        seed = bound_number("Seed", "seed", d.seed)
    st.caption(NUMBER_WORDS)
    return PipelineConfig(vocab, dim, context, batch, stride, seed, method)
