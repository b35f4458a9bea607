"""Close-up: fixed sinusoidal positions (Vaswani et al. 2017)."""

from __future__ import annotations

import streamlit as st

from core.config import PipelineConfig
from core.positional.family import FamilyConfig
from core.positional.sinusoidal import LAYOUT_WORDS, sinusoidal_wavelengths
from core.views.glossary import define
from core.views.units import plural
from ui.families.close_up import pairs_lead, table_heatmap, wavelength_chart

PARTS = ["the table", "how long each wave is"]  # tabs; presenting, one slide each


def waves_words(dim: int, fam: FamilyConfig) -> str:
    """What the table is made of, each word the lecture did not teach defined here."""
    return (
        f"Fixed waves: a position's {plural(dim, 'number')} come two at a time, and {define('pair i')} "
        f"holds a sine and a cosine of the position at its own {define('frequency θᵢ')}. Layout "
        f"**{fam.layout}**: {LAYOUT_WORDS[fam.layout]}. Nothing is trained, and any position has a vector."
    )


def wavelength_words() -> str:
    """What the wavelengths' chart shows, its words defined (the tab may be the only one drawn)."""
    return (
        f"{pairs_lead()}Each pair's {define('wavelength 2π/θᵢ')} runs from 2π ≈ 6.3 positions for pair 0 "
        "to about 2π × base for the last, against the trained length:"
    )


def view(cfg: PipelineConfig, fam: FamilyConfig, part: int | None = None) -> None:
    """The fixed waves up close: the table and each pair's wavelength (presenting: ``PARTS[part]``)."""
    if part in (None, 0):
        st.markdown(waves_words(cfg.output_dim, fam))
        table_heatmap(cfg, fam, f"Sinusoidal table ({fam.layout})")
    if part in (None, 1):
        st.markdown(wavelength_words())
        wavelength_chart(
            sinusoidal_wavelengths(cfg.output_dim, fam.base, fam.layout),
            cfg.context_length,
            "Wavelength per pair",
        )
