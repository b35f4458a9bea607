"""Close-up: fixed sinusoidal positions (Vaswani et al. 2017)."""

from __future__ import annotations

import streamlit as st

from core.config import FamilyConfig, PipelineConfig
from core.positional import sinusoidal_wavelengths
from ui.families.close_up import table_heatmap, wavelength_chart

PARTS = ["the table", "wavelengths"]  # presenting, one slide each


def view(cfg: PipelineConfig, fam: FamilyConfig, part: int | None = None) -> None:
    """The fixed waves up close: the table and each pair's wavelength (presenting: ``PARTS[part]``)."""
    if part == 1:
        wavelength_chart(
            sinusoidal_wavelengths(cfg.output_dim, fam.base, fam.layout),
            cfg.context_length,
            "Wavelength per pair",
        )
        return
    st.markdown(
        "Fixed waves: each pair of dimensions is a sine and a cosine of the position at one frequency, "
        "from fast (pair 0, wavelength 2π) to slow (wavelength up to 2π·base). Layout: "
        f"**{fam.layout}**. Nothing is trained, and any position has a vector."
    )
    table_heatmap(cfg, fam, f"Sinusoidal table ({fam.layout})")
    if part is not None:
        return
    wavelength_chart(
        sinusoidal_wavelengths(cfg.output_dim, fam.base, fam.layout),
        cfg.context_length,
        "Wavelength per pair",
    )
