"""The Families page's own settings, each bound to the URL (this module owns their keys)."""

from __future__ import annotations

import streamlit as st

from core.config import EXTRAPOLATE_FACTORS, LEARNED_INITS, ROPE_PAIRINGS, SINUSOIDAL_LAYOUTS, FamilyConfig
from ui.sidebar import bound_number, url_bound

DEFAULTS = FamilyConfig()


def _choice(label: str, key: str, options: tuple, default, help: str):
    return st.selectbox(label, options, index=options.index(default), help=help, **url_bound(key))


def family_settings() -> FamilyConfig:
    """Heads, base, buckets, max_distance, clip, extrapolate, layout, pairing and init."""
    d = DEFAULTS
    c = st.columns(5)
    with c[0]:
        heads = bound_number(
            "Heads H", "heads", d.heads, "Attention heads: ALiBi slopes and T5 biases are per head."
        )
        clip = bound_number("Shaw clip k", "clip", d.clip, "Shaw: offsets beyond ±k share one vector.")
    with c[1]:
        base = bound_number("Base", "base", d.base, "Sinusoidal and RoPE frequency base (LLaMA-3: 500000).")
        init = _choice(
            "Learned init",
            "init",
            tuple(LEARNED_INITS),
            d.init,
            "torch: N(0, 1) as nn.Embedding. openai: N(0, 0.01²) as GPT-2's code. hf: N(0, 0.02²).",
        )
    with c[2]:
        buckets = bound_number("T5 buckets", "buckets", d.buckets, "T5: number of relative-position buckets.")
        layout = _choice(
            "Sinusoid layout",
            "layout",
            SINUSOIDAL_LAYOUTS,
            d.layout,
            "interleaved: the paper. concat: [sin | cos]. fairseq: [sin | cos] with "
            "frequencies base^(-i/(d/2-1)), as in tensor2tensor and fairseq.",
        )
    with c[3]:
        max_distance = bound_number(
            "T5 max distance",
            "max_distance",
            d.max_distance,
            "T5: offsets beyond this share the last bucket.",
        )
        pairing = _choice(
            "RoPE pairs",
            "pairing",
            ROPE_PAIRINGS,
            d.pairing,
            "interleaved: (0,1), (2,3)… as the paper and Meta's LLaMA. "
            "halves: (i, i+d/2) with rotate_half, as GPT-NeoX and Hugging Face.",
        )
    with c[4]:
        extrapolate = _choice(
            "Used length ×",
            "extrapolate",
            EXTRAPOLATE_FACTORS,
            d.extrapolate,
            "Look past the trained length (the context): used = factor × context.",
        )
    return FamilyConfig(heads, base, buckets, max_distance, clip, extrapolate, layout, pairing, init)
