"""Close-up: T5's relative-position buckets (Raffel et al. 2020)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.config import PipelineConfig
from core.pipeline import sample_indices
from core.positional.family import FamilyConfig
from core.positional.t5 import last_distinct_distance, t5_bias_table, t5_relative_bucket
from core.views.charts import line_chart
from core.views.glossary import FirstUse
from core.views.units import plural
from ui.charts import draw
from ui.families.close_up import GRID, matrix_view
from ui.presenter import presenting
from ui.server import cache

MODES = {True: "no mask: both sides", False: "causal mask: keys before"}  # the bucket map's two lines


def t5_words(fam: FamilyConfig, dim: int, teach: bool = True) -> str:
    """What T5 learns and where its last bucket begins, with and without the causal mask (defined when
    ``teach``: this tab may be the only one drawn; a slide's words are plain)."""
    causal, both = last_distinct_distance(fam), last_distinct_distance(fam, bidirectional=True)
    mask = FirstUse(teach)("causal mask")
    return (
        f"T5 puts each pair's distance j − i, with its sign, in one of {plural(fam.buckets, 'bucket')}: one "
        f"per small distance, then wider and wider up to {fam.max_distance:,}. It adds a learned number "
        f"(random here) per bucket and head to the score. The last bucket, for every distance past "
        f"{fam.max_distance:,}, begins at {causal:,} with a {mask}, as in section 1's "
        f"panels, and at {both:,} without."
    )


def view(cfg: PipelineConfig, fam: FamilyConfig) -> None:
    """T5 up close: the bucket map and head 1's bias matrix."""
    st.markdown(t5_words(fam, cfg.output_dim, teach=not presenting()))
    span = 2 * fam.max_distance
    offsets = sample_indices(2 * span + 1, 801) - span  # at most 801 offsets in [-2·max, 2·max]
    frames = [
        pd.DataFrame(
            {
                "j − i (key − query)": offsets.numpy(),
                "bucket": t5_relative_bucket(offsets, bidir, fam.buckets, fam.max_distance).numpy(),
                "mode": label,
            }
        )
        for bidir, label in ((True, MODES[True]), (False, MODES[False]))
    ]
    c1, c2 = st.columns(2)
    with c1:
        draw(
            cache.chart(
                line_chart, pd.concat(frames), "j − i (key − query)", "bucket", "Bucket map", color="mode"
            ),
            width="stretch",
        )
    with c2:
        positions = sample_indices(cfg.context_length, GRID)  # [P]: never the whole [T, T] matrix
        offsets = positions[None, :] - positions[:, None]  # [P, P] key - query
        buckets = t5_relative_bucket(offsets, True, fam.buckets, fam.max_distance)  # [P, P]
        bias = t5_bias_table(fam, cfg.output_dim, cfg.seed)[buckets, 0]  # [P, P], head 1
        matrix_view(bias, positions, f"Bias of head 1 ({MODES[True]})")
