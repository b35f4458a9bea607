"""The Pipeline's answer, in short: how the text became the input embeddings, step by step, with every
step's shape, parameters and bytes exact, for the sidebar's settings."""

from __future__ import annotations

import pandas as pd

from core.config import PipelineConfig
from core.pipeline import Step
from core.positional.family import FAMILIES
from core.text.tokenizer import tokenizer_name
from core.views.glossary import define, named
from core.views.markup import escape_markdown
from core.views.units import plural, shape_str
from ui.answer import Answer


def steps_table(steps: list[Step]) -> pd.DataFrame:
    """Each step's tensor, shape, parameters and bytes, exact (the broadcasting add: its extra bytes)."""
    return pd.DataFrame(
        {
            "step": [escape_markdown(f"{k}. {s.title}") for k, s in enumerate(steps, 1)],  # not a list
            "tensor": [s.name for s in steps],
            "shape": [shape_str(s.shape) for s in steps],
            "parameters": [f"{s.params:,}" for s in steps],
            "bytes": [f"{s.nbytes:,}" + (" extra" if s.memory_label != "Memory" else "") for s in steps],
        }
    )


def pipeline_answer(cfg: PipelineConfig, steps: list[Step], num_chars: int, num_windows: int) -> Answer:
    """The answer for ``cfg`` (its B: the batch the text fills), from the page's ``steps``; ``num_chars``
    and ``num_windows``: the text's characters and the windows its tokens make."""
    family = FAMILIES[cfg.method]
    B, T, d, V = cfg.batch_size, cfg.context_length, cfg.output_dim, cfg.vocab_size
    tokens = steps[0].shape[0]
    positions = "its only position, 0" if T == 1 else f"each of positions 0 … {T - 1:,}"
    lecture = " (the lecture's positions 1 to 4: Python counts from 0)" if T == 4 else " (counted from 0)"
    start = (
        f"{tokenizer_name(V)} turns the text's {plural(num_chars, 'character')} into "
        f"{plural(tokens, 'token ID')}; the data loader cuts them into {plural(num_windows, 'window')} of "
        f"{plural(T, 'token')} (stride {cfg.stride:,}), {B:,} to a batch: `inputs` is {shape_str((B, T))}. "
        f"Each token ID picks its row of the {V:,} × {d:,} token table: `token_embeddings` is "
        f"{shape_str((B, T, d))}. "
    )
    if family.additive:
        add = (
            f"{family.label} adds one row of its {T:,} × {d:,} position table to {positions}"
            f"{lecture}, the same rows for every sequence (broadcasting): `input_embeddings` is "
            f"{shape_str((B, T, d))}."
        )
        others = tuple(name for name, f in FAMILIES.items() if not f.additive)
        say = "Relative methods and NoPE add nothing at the input. See the page with:"
    else:
        add = (
            f"{named(family.label)} adds nothing at the input, so `input_embeddings` is `token_embeddings`, "
            f"{shape_str((B, T, d))}, at {positions}{lecture}; "
            + (
                f"position enters later, in {define('attention')}."
                if family.where
                else "position enters nowhere."
            )
        )
        others = tuple(name for name, f in FAMILIES.items() if f.additive)
        say = "Absolute methods add a position table at the input. See the page with:"
    return Answer(
        "`input_embeddings` shape",
        shape_str((B, T, d)),
        start + add,
        others,
        say,
        evidence=(
            "Every step, exact (token IDs take 8 bytes each, as "
            f"{define('int64')}; embedding values 4, as {define('float32')}). The steps below are the "
            "evidence."
        ),
    )


def no_window_answer(context_length: int, num_tokens: int) -> Answer:
    """The answer for a text too short for one window: it stops at its token IDs, and why."""
    return Answer(
        "windows",
        "0",
        f"Only as far as token IDs: this text has {plural(num_tokens, 'token')}, and one window of "
        f"T = {context_length:,} needs {context_length + 1:,} (its targets are the same tokens shifted by "
        "one). A shorter context length or a longer text gives the rest of the steps.",
        evidence="Step 1 below shows the tokens.",
    )
