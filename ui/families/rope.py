"""Close-up: rotary position embedding, RoPE (Su et al. 2021)."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st
import torch

from core.config import PipelineConfig
from core.pipeline import sample_indices
from core.positional.family import FamilyConfig
from core.positional.rope import (
    rope_inv_freq,
    rope_long_term_decay,
    rope_pairing_permutation,
    rope_shift_table,
)
from core.views.charts import line_chart, scatter_chart
from core.views.describe import lines_description
from core.views.glossary import define
from core.views.units import plural
from ui.charts import draw
from ui.families.close_up import pairs_lead, wavelength_chart
from ui.server import cache
from ui.tables import table as draw_table

SHIFTS = [0, 1, 10, 100, 1000]
PARTS = [
    "shift invariance",
    "speeds and decay",
    "how far each pair turns",
    "two pairings",
]  # tabs, slides


def view(cfg: PipelineConfig, fam: FamilyConfig, part: int | None = None) -> None:
    """RoPE up close: relative logits under a shift, wavelengths, long-term decay, the two pairings
    (presenting: ``PARTS[part]``)."""
    head_dim = cfg.output_dim // fam.heads
    if part in (None, 0):
        shift_invariance(cfg, fam, head_dim)
    if part in (None, 1):
        wavelengths_and_decay(cfg, fam, head_dim)
    if part in (None, 2):
        pair_turns(fam, head_dim)
    if part in (None, 3):
        pairings(head_dim)


def turning_words(head_dim: int) -> str:
    """How RoPE turns a query and a key, each word the lecture did not teach defined here."""
    return (
        f"RoPE turns each {define('pair i')} of a query's and a key's {plural(head_dim, 'number')} (head "
        f"1's share) by an angle: the position p times the pair's {define('frequency θᵢ')}, here θᵢ = "
        f"base^(−2i/{head_dim}). The dot product of two turned vectors depends only on the *difference* "
        "of their positions — shown below with numbers."
    )


def shift_invariance(cfg: PipelineConfig, fam: FamilyConfig, head_dim: int) -> None:
    """A query and a key shifted together: the same logit, with numbers."""
    st.markdown(turning_words(head_dim))
    g = torch.Generator().manual_seed(cfg.seed)
    q, k = torch.randn(head_dim, generator=g).double(), torch.randn(head_dim, generator=g).double()
    m, n = 7, 3
    logits = rope_shift_table(q, k, m, n, SHIFTS, fam.base, fam.pairing == "interleaved")  # [S]
    shifts = torch.tensor(SHIFTS)
    table = pd.DataFrame(
        {
            "shift s": SHIFTS,
            "query position m+s": (m + shifts).numpy(),
            "key position n+s": (n + shifts).numpy(),
            "q·k after rotation": logits.numpy(),
            "difference from s = 0": (logits - logits[0]).numpy(),
        }
    )
    formats = {"q·k after rotation": "{:.10f}", "difference from s = 0": "{:.1e}"}
    draw_table(table, formats, hide_index=True)


def wavelengths_and_decay(cfg: PipelineConfig, fam: FamilyConfig, head_dim: int) -> None:
    """Each pair's wavelength beside RoFormer's long-term decay bound."""
    st.markdown(
        f"{pairs_lead()}Each pair's {define('wavelength 2π/θᵢ')}, left, against the trained length; right, "
        "RoFormer's bound on how large a score can be at each distance."
    )
    c1, c2 = st.columns(2)
    with c1:
        wavelengths = 2 * math.pi / rope_inv_freq(head_dim, fam.base).double()
        wavelength_chart(wavelengths, cfg.context_length, "Wavelength per pair")
    with c2:
        used = fam.extrapolate * cfg.context_length
        span = max(used, 512)  # RoFormer's figure runs to ~250
        r = sample_indices(span + 1, 400)  # [R]: never all 65,536 distances
        decay = rope_long_term_decay(head_dim, span, fam.base, distances=r)  # [R]
        frame = pd.DataFrame({"relative distance": r.numpy(), "upper bound": decay.numpy()})
        title = "Long-term decay (RoFormer §3.4.3)"
        finding = (
            "The bound on |q·k| falls, on average, as keys get further away: RoPE favours nearby tokens."
        )
        said = f"{lines_description(title, frame, 'relative distance', 'upper bound')} {finding}"
        draw(
            cache.chart(line_chart, frame, "relative distance", "upper bound", title, description=said),
            width="stretch",
        )
        st.caption(finding)


def pair_turns(fam: FamilyConfig, head_dim: int) -> None:
    """A unit vector in a few pairs, rotated to positions 0–31."""
    positions = torch.arange(32)
    pairs = sorted({0, head_dim // 4, head_dim // 2 - 1})
    points = []
    for i in pairs:
        angle = positions.double() * float(rope_inv_freq(head_dim, fam.base)[i])
        points.append(
            pd.DataFrame(
                {
                    "cos": angle.cos().numpy(),
                    "sin": angle.sin().numpy(),
                    "position": positions.numpy(),
                    "pair": f"pair {i}",
                }
            )
        )
    last, end = pairs[-1], int(positions[-1])
    turned = math.degrees(end * float(rope_inv_freq(head_dim, fam.base)[last]))  # pair ``last`` by the end
    finding = (
        f"A unit vector in {plural(len(pairs), 'pair')}, rotated to positions 0–{end}: pair 0 spins fast "
        "(1 radian per position)"
        + (f"; pair {last} turns {turned:.3g}° in all by position {end}." if last else ".")
    )
    title = "How far each pair turns"
    if lead := pairs_lead():
        st.markdown(lead)
    draw(
        scatter_chart(
            pd.concat(points), "cos", "sin", "position", title, "pair", description=f"{title}: {finding}"
        )
    )
    st.caption(finding)


def pairings(head_dim: int) -> None:
    """Interleaved and half pairings: one permutation apart."""
    perm = rope_pairing_permutation(head_dim).tolist()
    shown = ", ".join(map(str, perm[:8])) + (", …" if head_dim > 8 else "")
    st.markdown(
        f"**Two pairings, one rotation.** Interleaved, as the paper, pairs neighbouring numbers (0, 1), "
        f"(2, 3), …; halves, as other code, pairs number i with number i + {head_dim // 2}. Putting the "
        f"numbers in the order [{shown}] turns one into the other, so both give the same scores; a "
        "trained model's weights are reordered when it moves from one code to the other."
    )
