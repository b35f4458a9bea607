"""Views shared by every family: the overview, the position-only logit and position similarity."""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st
import torch

from core.charts import grid_frame, heatmap, line_chart, method_panel
from core.colors import METHOD_COLORS
from core.config import ADDITIVE_METHODS, METHODS, FamilyConfig, PipelineConfig
from core.families import (
    CURVE_POINTS,
    FAMILIES,
    drawn_span,
    logit_findings,
    position_logits,
    similarity_findings,
)
from core.pipeline import sample_indices
from core.positional import apply_rope
from core.similarity import cosine_matrix
from core.units import every
from ui.cache import additive_rows
from ui.presenter import readable

SIMILARITY_POSITIONS = 64  # positions per side of a similarity matrix


def parameter_count(name: str, cfg: PipelineConfig, fam: FamilyConfig) -> int:
    """Trainable positional parameters of one family at these settings (one layer's worth)."""
    head_dim = cfg.output_dim // fam.heads
    return {
        "learned": cfg.context_length * cfg.output_dim,
        "shaw": 2 * (2 * fam.clip + 1) * head_dim,  # a^K and a^V, shared across heads (paper §3.3)
        "t5": fam.buckets * fam.heads,  # one scalar per bucket and head, shared across layers
    }.get(name, 0)


def overview(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """One row per family: kind, where position enters, parameters, what happens past the context."""
    rows = [
        {
            "method": f.name,
            "family": f.label,
            "kind": f.kind,
            "position enters at": f.injects,
            "parameters": f"{parameter_count(f.name, cfg, fam):,}",
            f"past the trained length (T = {cfg.context_length:,})": f.extrapolates,
            "source": f.source,
        }
        for f in FAMILIES.values()
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def method_rows(name: str, cfg: PipelineConfig, fam: FamilyConfig, positions: torch.Tensor):
    """The additive table's rows at ``positions`` (None for methods that add nothing)."""
    if name not in ADDITIVE_METHODS:
        return None
    return additive_rows(dataclasses.replace(cfg, method=name), fam, tuple(positions.tolist()))


def logit_section(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """Every method's position-only logit contribution against distance: one panel per method."""
    T, span = cfg.context_length, drawn_span(cfg.context_length, fam)
    distances = sample_indices(span, CURVE_POINTS)  # [R]
    findings, columns = [], st.columns(2)
    for k, name in enumerate(METHODS):
        rows = method_rows(name, cfg, fam, distances)
        y = position_logits(name, distances, fam, cfg.output_dim, cfg.seed, rows, T)
        f = FAMILIES[name]
        frame = pd.DataFrame({"distance r": distances.numpy(), "logit contribution": y.numpy()})
        panel = method_panel(
            frame, "distance r", "logit contribution", f"{f.label} — {f.injects}", METHOD_COLORS[name], T
        )
        columns[k % 2].altair_chart(readable(panel), width="stretch", height=230)
        findings.append(logit_findings(name, distances, y, T, fam))
    step = int(distances[1] - distances[0]) if len(distances) > 1 else 1
    st.caption(
        f"Query at position r, key at position 0, both with the same content (one random vector, "
        f"drawn with the seed); weight-free attention, d = {cfg.output_dim} "
        f"(RoPE and Shaw: head dim {cfg.output_dim // fam.heads}); T5 and ALiBi: head 1 of {fam.heads}. "
        f"Each panel has its own linear y axis. Distances 0 … {span - 1:,}: the used length "
        f"{fam.extrapolate} × T = {fam.extrapolate * T:,}, and at least twice T5's max distance and "
        f"Shaw's clip, so their flat tails show; the dashed line is the trained length T = {T:,}. "
        + (f"Drawn: {every(step, span, 'distances')}." if step > 1 else "")
    )
    st.markdown("**What to look at.**\n" + "\n".join(f"- {sentence}" for sentence in findings))


def _rope_vectors(positions: torch.Tensor, head_dim: int, fam: FamilyConfig) -> torch.Tensor:
    """The all-ones query rotated to each position: [P, head_dim]."""
    ones = torch.ones(len(positions), head_dim, dtype=torch.float64)
    return apply_rope(ones, positions, fam.base, fam.pairing == "interleaved")  # [P, dh]


def similarity_section(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """Cosine similarity between position vectors, as matrices and against distance."""
    T = cfg.context_length
    positions = sample_indices(T, SIMILARITY_POSITIONS)  # [P]
    vectors = {
        "learned": method_rows("learned", cfg, fam, positions).rows,
        "sinusoidal": method_rows("sinusoidal", cfg, fam, positions).rows,
        "rope": _rope_vectors(positions, cfg.output_dim // fam.heads, fam),
    }
    columns = [*st.columns(2), *st.columns(2)]  # a 2 × 2 grid: three matrices, then the curves
    curves, findings = [], []
    for column, (name, x) in zip(columns, vectors.items(), strict=False):
        sim = cosine_matrix(x)  # [P, P]
        findings.append(similarity_findings(name, positions, sim))
        frame = grid_frame(sim, positions, positions, "position i", "position j")
        title = FAMILIES[name].label
        chart = heatmap(
            frame, "position j", "position i", title, 260, domain=(-1.0, 1.0), title_color=METHOD_COLORS[name]
        )
        column.altair_chart(readable(chart), width="stretch")
        gap = (positions[None, :] - positions[:, None]).abs()  # [P, P]
        by_gap = pd.DataFrame({"distance": gap.flatten().numpy(), "cosine": sim.flatten().numpy()})
        mean = by_gap.groupby("distance", as_index=False)["cosine"].mean()
        curves.append(mean.assign(method=FAMILIES[name].label))
    step = int(positions[1] - positions[0]) if len(positions) > 1 else 1
    note = every(step, T, "positions")
    st.caption(
        f"Cosine similarity of the position vectors ({note}). RoPE has no position vector of its "
        "own: shown is the all-ones query rotated to each position, cos = qᵀR(j−i)q / |q|²."
    )
    colors = {FAMILIES[name].label: METHOD_COLORS[name] for name in vectors}
    columns[3].altair_chart(
        readable(
            line_chart(
                pd.concat(curves),
                "distance",
                "cosine",
                "Mean similarity against distance",
                "method",
                colors=colors,
                height=200,
            )
        ),
        width="stretch",
        height=330,
    )
    st.markdown("**What to look at.**\n" + "\n".join(f"- {sentence}" for sentence in findings))
