"""The panel a preset shows: its embedding tables' size and share of the whole model."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.presets import GPT2_VOCAB, Preset
from core.views.units import human_bytes, human_count
from ui.widgets import table


def preset_panel(preset: Preset) -> None:
    """Parameters and memory (fp32, bf16) of the preset's embedding tables, and their share.

    Nothing for a setting without a model (the book's): its tables' size would only repeat the steps'.
    """
    if not preset.layers:
        return
    tables = preset.embedding_parameters()
    with st.container(border=True):
        st.markdown(f"**Preset: {preset.label}** — {preset.source}")
        rows = [
            {
                "": "embedding tables",
                "parameters": human_count(tables),
                "fp32": human_bytes(4 * tables),
                "bf16": human_bytes(2 * tables),
            }
        ]
        if preset.layers:
            total = preset.total_parameters()
            rows.append(
                {
                    "": "whole model",
                    "parameters": human_count(total),
                    "fp32": human_bytes(4 * total),
                    "bf16": human_bytes(2 * total),
                }
            )
        table(pd.DataFrame(rows), hide_index=True)
        if preset.layers:
            st.caption(
                f"The embedding tables are {tables / preset.total_parameters():.2%} of the model's "
                f"{preset.total_parameters():,} parameters (computed from its configuration)."
            )
        if preset.vocab_size != GPT2_VOCAB:
            how = "cut to its first" if preset.vocab_size < GPT2_VOCAB else "padded to"
            st.warning(
                f"{preset.label} has its own tokenizer with {preset.vocab_size:,} tokens. The token IDs "
                f"shown here come from GPT-2's BPE {how} {preset.vocab_size:,} tokens (the only BPE the "
                "app ships), not from this model's tokenizer; the table's shapes and sizes are this model's."
            )
