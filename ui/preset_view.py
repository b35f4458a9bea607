"""The panel a preset shows: its embedding tables' size and share of the whole model."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.positional.family import FAMILIES
from core.presets import GPT2_VOCAB, Preset
from core.views.glossary import define
from core.views.units import human_bytes
from ui.tables import table


def preset_panel(preset: Preset) -> None:
    """Parameters and memory (fp32, bf16) of the preset's embedding tables, and their share.

    Nothing for a setting without a model (the book's): its tables' size would only repeat the steps'.
    """
    if not preset.layers:
        return
    tables = preset.embedding_parameters()
    token_table = preset.vocab_size * preset.dim
    with st.container(border=True):
        repo = preset.source.removesuffix(" config.json")  # a model's repository, as code: not prose
        source = f"`{repo}`'s {define('config.json')}" if repo != preset.source else preset.source
        st.markdown(f"**Preset: {preset.label}** — from {source}")
        st.caption(f"Each parameter takes 4 bytes in float32 and 2 in {define('bf16')}.")
        rows = [("token table", token_table)]
        if position := tables - token_table:  # learned positions, or T5's biases; none for the others
            family = FAMILIES[preset.method]
            name = family.parameters_name or f"{family.label}'s position numbers"
            rows += [(name, position), ("embedding tables (the two above)", tables)]
        rows.append(("whole model", preset.total_parameters()))
        frame = pd.DataFrame(
            [
                {
                    "": name,
                    "parameters": f"{n:,}",
                    "bytes in float32": f"{4 * n:,} ({human_bytes(4 * n)})",
                    "bytes in bf16": f"{2 * n:,} ({human_bytes(2 * n)})",
                }
                for name, n in rows
            ]
        )
        table(frame, hide_index=True)
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
