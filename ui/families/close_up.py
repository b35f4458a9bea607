"""Pieces the close-up views share, and ``close_up``, which draws the chosen family's own view.

Each family's view is the module ``ui/families/<name>.py`` with a ``view(cfg, fam)`` function. A view
too tall for one presenter slide lists its parts in ``PARTS`` and takes ``view(cfg, fam, part)``. A
family without one gets ``record_view``, its record's words.
"""

from __future__ import annotations

import importlib

import pandas as pd
import streamlit as st
import torch

from core.config import PipelineConfig
from core.pipeline import HEATMAP_DIMS, HEATMAP_POSITIONS, sample_indices
from core.positional.family import FAMILIES, Family, FamilyConfig
from core.views.charts import grid_frame, heatmap, line_chart
from core.views.describe import grid_description, lines_description
from core.views.glossary import define
from core.views.units import capitalized, count_of, plural
from ui.charts import draw
from ui.figures import sampled_note
from ui.open_tabs import open_tab, tab_key
from ui.presenter import presenting
from ui.server import cache
from ui.server.cache import additive_rows, kept_chart

GRID = 48  # positions per side of a [T, T] matrix view
CLOSE_UP_TAB = tab_key("close_up")  # the open part of the close-up, in the address bar


def own_view(method: str):
    """The module ``ui.families.<method>``, the family's own close-up; None when it has none."""
    name = f"ui.families.{method}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:  # the view exists but something it imports does not
            raise
        return None


def close_up_parts(method: str) -> list[str]:
    """The presenter parts of ``method``'s view (its ``PARTS``; one unnamed part when it has none)."""
    return getattr(own_view(method), "PARTS", [""])


def close_up(cfg: PipelineConfig, fam: FamilyConfig, part: int | None = None) -> None:
    """The view of ``cfg.method``, from its module in this package (its parts as tabs, only the open one
    drawn; presenting: its part ``part``), or its record's words when it has no view of its own."""
    module = own_view(cfg.method)
    if module is None:
        record_view(FAMILIES[cfg.method])
    elif hasattr(module, "PARTS") and part is None:  # a tab a part, only the open one drawn
        part, where = open_tab([label.capitalize() for label in module.PARTS], CLOSE_UP_TAB)
        with where:
            module.view(cfg, fam, part)
    elif hasattr(module, "PARTS"):
        module.view(cfg, fam, part)
    else:
        module.view(cfg, fam)


def pairs_lead() -> str:
    """The words a close-up's tab about pairs starts with, since it may be the only one drawn (presenting,
    none: the slides come in order, and the first defines them)."""
    return "" if presenting() else f"Each {define('pair i')} turns at its own {define('frequency θᵢ')}. "


def record_view(family: Family) -> None:
    """The close-up of a family with no view of its own: what its record says, in its words."""
    where = f" {capitalized(family.where)}." if family.where else ""
    st.markdown(
        f"**{family.label}** {family.gives} ({family.source}).{where} Section 1 shows what it adds to a "
        "score, and the families' table what it gives past the trained length."
    )


def table_heatmap(cfg: PipelineConfig, fam: FamilyConfig, title: str) -> None:
    """Position × dimension heatmap of the additive table (strided sample of real values)."""
    T, d = cfg.context_length, cfg.output_dim
    positions, dims = sample_indices(T, HEATMAP_POSITIONS), sample_indices(d, HEATMAP_DIMS)
    table = additive_rows(cfg, fam, tuple(positions.tolist())).rows  # [P, d], kept

    note = sampled_note(T, d, positions, dims)

    def build() -> tuple[object, int]:
        frame = grid_frame(table[:, dims], positions, dims, "position t", "dimension j")  # [P, D] cells
        said = f"{grid_description(title, frame, 'dimension j', 'position t')} {note}"
        return cache.chart(heatmap, frame, "dimension j", "position t", title, description=said), 24 * len(
            frame
        )

    chart = kept_chart(("table heatmap", title, tuple(dims.tolist())), (table,), build)
    draw(chart, width="stretch")
    st.caption(note)


def wavelength_chart(wavelengths: torch.Tensor, context_length: int, title: str) -> None:
    """Wavelength 2π/θ of each sin/cos pair (log scale) against the trained length."""
    frame = pd.DataFrame({"pair i": range(len(wavelengths)), "wavelength (positions)": wavelengths.numpy()})
    slow = int((wavelengths > context_length).sum())
    finding = (
        f"No pair's wavelength is longer than the context ({context_length:,})."
        if slow == 0
        else f"{capitalized(count_of(slow, len(wavelengths), 'pair'))} too slow to turn once within the "
        f"context of {plural(context_length, 'position')}: "
        + ("its wavelength is" if slow == 1 else "their wavelengths are")
        + " longer"
        + (
            f", even pair 0's, the fastest ({float(wavelengths[0]):.3g} positions a turn)."
            if slow == len(wavelengths)
            else "."
        )
    )
    said = f"{lines_description(title, frame, 'pair i', 'wavelength (positions)')} {finding}"
    draw(
        cache.chart(
            line_chart, frame, "pair i", "wavelength (positions)", title, log_y=True, description=said
        ),
        width="stretch",
    )
    st.caption(finding)


def matrix_view(values: torch.Tensor, positions: torch.Tensor, title: str, **kwargs) -> None:
    """A [P, P] query × key matrix at sampled positions (a screen reader says its range: ``heatmap``)."""
    frame = grid_frame(values, positions, positions, "query i", "key j")
    draw(
        cache.chart(heatmap, frame, "key j", "query i", title, height=300, **kwargs),
        width="stretch",
    )
