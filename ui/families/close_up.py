"""The chosen family up close: one view per method, each with what to look at."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st
import torch

from core.charts import bar_chart, grid_frame, heatmap, line_chart, scatter_chart
from core.config import LEARNED_INITS, FamilyConfig, PipelineConfig
from core.families import t5_bias_table
from core.pipeline import HEATMAP_DIMS, HEATMAP_POSITIONS, sample_indices
from core.positional import (
    alibi_bias,
    alibi_slopes,
    apply_rope,
    rope_inv_freq,
    rope_long_term_decay,
    rope_pairing_permutation,
    shaw_relative_indices,
    sinusoidal_wavelengths,
    t5_relative_bucket,
)
from ui.cache import additive_rows
from ui.presenter import readable
from ui.widgets import sampled_note

GRID = 48  # positions per side of a [T, T] matrix view


def table_heatmap(cfg: PipelineConfig, fam: FamilyConfig, title: str) -> None:
    """Position × dimension heatmap of the additive table (strided sample of real values)."""
    T, d = cfg.context_length, cfg.output_dim
    positions, dims = sample_indices(T, HEATMAP_POSITIONS), sample_indices(d, HEATMAP_DIMS)
    rows = additive_rows(cfg, fam, tuple(positions.tolist())).rows[:, dims]  # [P, D]
    frame = grid_frame(rows, positions, dims, "position t", "dimension j")
    st.altair_chart(readable(heatmap(frame, "dimension j", "position t", title)), width="stretch")
    st.caption(sampled_note(T, d, positions, dims))


def wavelength_chart(wavelengths: torch.Tensor, context_length: int, title: str) -> None:
    """Wavelength 2π/θ of each sin/cos pair (log scale) against the trained length."""
    frame = pd.DataFrame({"pair i": range(len(wavelengths)), "wavelength (positions)": wavelengths.numpy()})
    st.altair_chart(
        readable(line_chart(frame, "pair i", "wavelength (positions)", title, log_y=True)),
        width="stretch",
    )
    slow = int((wavelengths > context_length).sum())
    st.caption(
        f"{slow} of {len(wavelengths)} pairs have a wavelength longer than the context ({context_length:,}): "
        "within the trained length they never complete a full turn."
    )


def matrix_view(values: torch.Tensor, positions: torch.Tensor, title: str, **kwargs) -> None:
    """A [P, P] query × key matrix at sampled positions."""
    frame = grid_frame(values, positions, positions, "query i", "key j")
    st.altair_chart(
        readable(heatmap(frame, "key j", "query i", title, height=300, **kwargs)), width="stretch"
    )


def learned(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    st.markdown(
        f"`nn.Embedding({cfg.context_length}, {cfg.output_dim})`: one free vector per position, "
        f"initialised here with `{fam.init}` (std {LEARNED_INITS[fam.init]:g}) and "
        "learned in training. It knows nothing about distance until it is trained, and it has no row "
        "for a position past the context length."
    )
    table_heatmap(cfg, fam, "Learned table (untrained)")


def sinusoidal(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    st.markdown(
        "Fixed waves: each pair of dimensions is a sine and a cosine of the position at one frequency, "
        "from fast (pair 0, wavelength 2π) to slow (wavelength up to 2π·base). Layout: "
        f"**{fam.layout}**. Nothing is trained, and any position has a vector."
    )
    table_heatmap(cfg, fam, f"Sinusoidal table ({fam.layout})")
    wavelength_chart(
        sinusoidal_wavelengths(cfg.output_dim, fam.base, fam.layout),
        cfg.context_length,
        "Wavelength per pair",
    )


def rope(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    head_dim = cfg.output_dim // fam.heads
    interleaved = fam.pairing == "interleaved"
    st.markdown(
        f"RoPE rotates each pair of a query's and a key's {head_dim} head dimensions by the angle "
        f"p·θᵢ, θᵢ = base^(−2i/{head_dim}). A dot product of two rotated vectors depends only on the "
        "*difference* of their positions — shown below with numbers."
    )
    g = torch.Generator().manual_seed(cfg.seed)
    q, k = torch.randn(1, head_dim, generator=g).double(), torch.randn(1, head_dim, generator=g).double()
    m, n = 7, 3
    rows = []
    for s in (0, 1, 10, 100, 1000):
        qm = apply_rope(q, torch.tensor([m + s]), fam.base, interleaved)[0]
        kn = apply_rope(k, torch.tensor([n + s]), fam.base, interleaved)[0]
        rows.append(
            {
                "shift s": s,
                "query position m+s": m + s,
                "key position n+s": n + s,
                "q·k after rotation": float(qm @ kn),
            }
        )
    table = pd.DataFrame(rows)
    table["difference from s = 0"] = table["q·k after rotation"] - table["q·k after rotation"][0]
    st.dataframe(
        table.style.format({"q·k after rotation": "{:.10f}", "difference from s = 0": "{:.1e}"}),
        hide_index=True,
        width="stretch",
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
        st.altair_chart(
            readable(
                line_chart(frame, "relative distance", "upper bound", "Long-term decay (RoFormer §3.4.3)")
            ),
            width="stretch",
        )
        st.caption(
            "The bound on |q·k| falls, on average, as keys get further away: RoPE favours nearby tokens."
        )
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
    st.altair_chart(
        readable(
            scatter_chart(pd.concat(points), "cos", "sin", "position", "How far each pair turns", "pair")
        )
    )
    st.caption(
        f"A unit vector in {len(pairs)} pair(s), rotated to positions 0–{int(positions[-1])}: pair 0 "
        "spins fast (1 radian per position), the last barely moves."
    )
    perm = rope_pairing_permutation(head_dim).tolist()
    shown = ", ".join(map(str, perm[:8])) + (", …" if head_dim > 8 else "")
    st.markdown(
        f"**Two pairings, one rotation.** Interleaved (paper, Meta's LLaMA) pairs dimensions (0,1), "
        f"(2,3), …; halves (GPT-NeoX, Hugging Face) pairs (i, i+{head_dim // 2}) with `rotate_half`. "
        f"Permuting the dimensions by [{shown}] turns one into the other — which is why checkpoints "
        "are permuted when converted between the two codebases."
    )


def alibi(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    slopes = alibi_slopes(fam.heads)
    st.markdown(
        "ALiBi adds −m·(i − j) to the logit of query i for key j: a penalty growing linearly with "
        "distance, with a different slope m per head (a geometric sequence, from the paper's code). "
        "No parameters, nothing added at the input."
    )
    c1, c2 = st.columns(2)
    with c1:
        frame = pd.DataFrame({"head": range(1, fam.heads + 1), "slope m": slopes.numpy()})
        st.altair_chart(readable(bar_chart(frame, "head", "slope m", "Slope per head")), width="stretch")
    with c2:
        head = st.selectbox("Head", range(1, fam.heads + 1), key="alibi_head")
        positions = sample_indices(cfg.context_length, GRID)  # [P]: never the whole [T, T] matrix
        bias = alibi_bias(fam.heads, cfg.context_length, positions)[head - 1].double()  # [P, P]
        bias = torch.where(positions[None, :] <= positions[:, None], bias, torch.nan)  # causal mask: j ≤ i
        matrix_view(bias, positions, f"Bias of head {head} (masked above the diagonal)")


def t5(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    st.markdown(
        f"T5 sorts each offset j − i into one of {fam.buckets} buckets — one per small offset, then "
        f"logarithmically wider ones up to {fam.max_distance} — and adds one learned scalar per "
        "bucket and head to the logit (here untrained, N(0, 1/d) as Hugging Face initializes it)."
    )
    span = 2 * fam.max_distance
    offsets = sample_indices(2 * span + 1, 801) - span  # at most 801 offsets in [-2·max, 2·max]
    frames = [
        pd.DataFrame(
            {
                "offset j − i": offsets.numpy(),
                "bucket": t5_relative_bucket(offsets, bidir, fam.buckets, fam.max_distance).numpy(),
                "mode": label,
            }
        )
        for bidir, label in ((True, "bidirectional (encoder)"), (False, "causal (decoder)"))
    ]
    c1, c2 = st.columns(2)
    with c1:
        st.altair_chart(
            readable(line_chart(pd.concat(frames), "offset j − i", "bucket", "Bucket map", color="mode")),
            width="stretch",
        )
    with c2:
        positions = sample_indices(cfg.context_length, GRID)  # [P]: never the whole [T, T] matrix
        offsets = positions[None, :] - positions[:, None]  # [P, P] key - query
        buckets = t5_relative_bucket(offsets, True, fam.buckets, fam.max_distance)  # [P, P]
        bias = t5_bias_table(fam, cfg.output_dim, cfg.seed)[buckets, 0]  # [P, P], head 1
        matrix_view(bias, positions, "Bias of head 1 (bidirectional)")


def shaw(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    head_dim = cfg.output_dim // fam.heads
    st.markdown(
        f"Shaw et al. learn one vector per clipped offset clip(j − i, ±{fam.clip}): "
        f"{2 * fam.clip + 1} vectors of {head_dim} numbers for the keys (and as many for the values). "
        "Offsets further than the clip share the outermost vector."
    )
    positions = sample_indices(cfg.context_length, GRID)  # [P]: never the whole [T, T] matrix
    index = shaw_relative_indices(cfg.context_length, fam.clip, positions)  # [P, P]
    matrix_view(
        index.double(),
        positions,
        "Index of the vector each query–key pair uses",
        scheme="viridis",
        domain=(0.0, 2.0 * fam.clip),
    )
    st.caption(
        f"Index = clip(j − i, −{fam.clip}, {fam.clip}) + {fam.clip}; a^K has shape "
        f"({2 * fam.clip + 1}, {head_dim})."
    )


def nope(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    st.markdown(
        "No position at all: the input embeddings are the token embeddings, and attention sees "
        "a *set*. Shuffle the words and every output is shuffled the same way — see **Why position?**."
    )


DETAILS = {
    "nope": nope,
    "learned": learned,
    "sinusoidal": sinusoidal,
    "shaw": shaw,
    "t5": t5,
    "alibi": alibi,
    "rope": rope,
}


def details(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """The view of ``cfg.method``."""
    DETAILS[cfg.method](cfg, fam)
