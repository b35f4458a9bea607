"""Views of the trained MiniLM position table beside a random and a sinusoidal table of the same shape."""

from __future__ import annotations

import json

import altair as alt
import pandas as pd
import streamlit as st
import torch

from core.embeddings import draw_normal_rows
from core.pipeline import HEATMAP_DIMS, HEATMAP_POSITIONS, sample_indices
from core.positional.family import FAMILIES
from core.positional.pretrained import (
    answer_words,
    curves_frame,
    load_minilm_positions,
    pca_2d,
    provenance_words,
    quoted_figures,
    rotation_per_step,
    similarity_by_distance,
    stored_bytes,
)
from core.positional.sinusoidal import sinusoidal_at
from core.similarity import cosine_matrix, fade, fade_sentence
from core.views.charts import distance_chart, grid_frame, heatmap, line_chart, path_chart, similarity_heatmap
from core.views.colors import GREY
from core.views.glossary import define
from core.views.units import every, signed
from ui.answer import Answer
from ui.charts import draw
from ui.open_tabs import open_tab, tab_key
from ui.presenter import slide_height
from ui.server import cache

SIMILARITY_POSITIONS = 64
SLIDE_CHART = 340  # px: a chart's height on a presenter's slide (1280 × 720)


@cache.per_process(max_entries=1)
def trained_table() -> tuple[torch.Tensor, dict]:
    """The shipped table (read once per server); callers only read it."""
    return load_minilm_positions()


def provenance() -> None:
    """Where the shipped table comes from, in sentences, in an expander; the record itself (package,
    version, hashes, licences) is a download, not the page's text."""
    record = trained_table()[1]
    with st.expander("Where the numbers come from"):
        st.markdown(provenance_words(record, stored_bytes()))
        st.download_button(
            "Download the record (JSON)",
            json.dumps(record, indent=2),
            "minilm_position_embeddings.json",
            "application/json",
            key="dl_provenance",
            on_click="ignore",
            icon=":material/download:",
        )


def answer(seed: int) -> Answer:
    """The page's answer: trained neighbours are alike, a random table of the same shape is not."""
    trained, drawn, sine = (_by_distance(name, own_seed(name, seed)) for name in tables(seed))
    return Answer(
        "Neighbour similarity, trained",
        f"{float(trained[1]):.2f}",
        answer_words(trained, drawn, sine, seed),
        evidence="The evidence is below: the neighbour figures, then a tab for each section (the three "
        "tables, their similarity against distance, the path of the trained positions).",
    )


@cache.per_process(max_entries=1)
def trained_figures() -> dict[str, float]:
    """The trained table's quoted figures (``core.positional.pretrained.quoted_figures``), computed once
    per server."""
    return quoted_figures(trained_table()[0])


@cache.per_process(max_entries=1)
def trained_curve() -> torch.Tensor:
    """The trained table's mean similarity at each distance 0 … T−1 [T], computed once per server."""
    return similarity_by_distance(trained_table()[0])


FINE_TUNED_LENGTH = 128  # all-MiniLM-L6-v2's fine-tuning inputs were at most this long (its model card)


def what_to_look_at(curve: torch.Tensor) -> str:
    """The "What to look at" paragraph on the trained table's similarity-by-distance ``curve`` [T], read
    from the whole curve (``core.similarity.fade_sentence``), not from one distance."""
    T, f = len(curve), fade(curve)
    lesson = "training discovered that nearby words matter together, without being told."
    if f.peaks:  # the far tail: few pairs, and positions fine-tuning never reached
        r = f.peaks[-1]
        lesson = (
            f"Few pairs are that far apart ({T} − r pairs at a distance r: {T - r} at {r}), and fine-tuning "
            f"saw no input over {FINE_TUNED_LENGTH} tokens, so the near distances carry the lesson: {lesson}"
        )
    else:
        lesson = lesson[0].upper() + lesson[1:]
    return (
        f"**What to look at** (the curves of section 2). Trained neighbours are alike (cosine {curve[1]:.2f} "
        "at distance 1), and "
        f"{fade_sentence(curve)} {lesson} The random table shows nothing of the kind (only the diagonal); "
        "the sinusoidal table has its structure built in by formula."
    )


@cache.per_process(max_entries=4, dropped_when_short=True)
def tables(seed: int) -> dict[str, torch.Tensor]:
    """The trained table, ``manual_seed(seed); nn.Embedding(512, 384)``'s and sinusoidal: [512, 384] each."""
    trained, _ = trained_table()
    T, d = trained.shape
    random = draw_normal_rows(
        torch.Generator().manual_seed(seed), T, d, torch.arange(T)
    )  # exactly nn.Embedding's
    return {
        "Trained (all-MiniLM-L6-v2)": trained,
        f"Random nn.Embedding({T}, {d})": random,
        f"Sinusoidal ({T} × {d})": sinusoidal_at(torch.arange(T), d),
    }


def table_charts(seed: int) -> list[tuple[alt.TopLevelMixin, alt.TopLevelMixin, str]]:
    """Per table of ``tables(seed)``: its values heatmap, its cosine-similarity heatmap and its caption.

    Only the random table depends on the seed: the trained and sinusoidal tables' charts are kept
    across seeds, so a new seed builds two charts, not six.
    """
    return [_table_charts(name, own_seed(name, seed)) for name in tables(seed)]


def own_seed(name: str, seed: int) -> int | None:
    """``seed`` for the table that depends on it (the random one), None for the others."""
    return seed if name.startswith("Random") else None


@cache.per_process(max_entries=6, dropped_when_short=True)  # [512] float64 each
def _by_distance(name: str, seed: int | None) -> torch.Tensor:
    """Table ``name``'s mean similarity at each distance [T] (``seed`` as in ``_table_charts``): the
    caption's figures and the curves read it, and a new seed recomputes only the random table's."""
    return similarity_by_distance(tables(0 if seed is None else seed)[name])


@cache.per_process(max_entries=6, dropped_when_short=True)
def _table_charts(name: str, seed: int | None) -> tuple[alt.TopLevelMixin, alt.TopLevelMixin, str]:
    # ``seed`` None: a table that does not depend on it (any seed's ``tables`` holds the same one).
    table = tables(0 if seed is None else seed)[name]
    T, d = table.shape
    short = name.split()[0]  # "Trained", "Random", "Sinusoidal" (fits a slide's third); the caption names it
    positions, dims = sample_indices(T, HEATMAP_POSITIONS), sample_indices(d, HEATMAP_DIMS)
    sim_positions = sample_indices(T, SIMILARITY_POSITIONS)
    frame = grid_frame(table[positions][:, dims], positions, dims, "position t", "dimension j")
    values = cache.chart(heatmap, frame, "dimension j", "position t", short, height=300)
    sim = cosine_matrix(table[sim_positions])  # [P, P]
    frame = grid_frame(sim, sim_positions, sim_positions, "position i", "position j")
    similarity = similarity_heatmap(frame, f"{short}: similarity", draw=cache.drawing(heatmap))
    figures = quoted_figures(table, _by_distance(name, seed))
    caption = f"{name}: " + " · ".join(f"{k}: {signed(v, 3)}" for k, v in figures.items())
    return values, similarity, caption


# The numbered sections: a tab each on a screen (only the open one drawn), a slide each when presenting.
SECTION_TABS = [
    "1. Three tables of the same shape",
    "2. Similarity against distance",
    "3. The path through space",
]
SECTION_TAB = tab_key("trained_section")  # the open section's tab, in the address bar (a link reopens it)
KINDS = ("The values", "Their cosine similarity")  # section 1's tabs, and its two slides when presenting
OPEN_TAB = tab_key("tables")  # the open tab, in the address bar (a link reopens it)


def side_by_side(seed: int, part: int | None = None) -> None:
    """The three tables of ``tables(seed)``: their values (``part`` 0) or their cosine-similarity matrices
    (1), each with its figures.

    ``part`` None: both, as two tabs of which only the open one is sent and drawn, a row per table
    (readable at any width); presenting, the slide's part, the three in a row.
    """
    T, d = next(iter(tables(seed).values())).shape
    positions, dims = sample_indices(T, HEATMAP_POSITIONS), sample_indices(d, HEATMAP_DIMS)
    sim_positions = sample_indices(T, SIMILARITY_POSITIONS)
    where = st  # the sampling note, after the charts: in the open tab, or on the slide
    if part is None:
        part, where = open_tab(KINDS, OPEN_TAB)
        for values, similarity, caption in table_charts(seed):
            chart, figures = where.columns(2, vertical_alignment="center")
            draw(similarity if part else values, chart, width="stretch")
            figures.caption(caption)
    else:
        for column, (values, similarity, caption) in zip(st.columns(3), table_charts(seed), strict=True):
            draw(similarity if part else values, column, width="stretch", height=SLIDE_CHART)
            column.caption(caption)
    where.caption(
        f"Tables: {every(int(positions[1] - positions[0]), T, 'positions')} and "
        f"{every(int(dims[1] - dims[0]), d, 'dimensions')}; similarity: "
        f"{every(int(sim_positions[1] - sim_positions[0]), T, 'positions')}. Every cell is a real value; "
        "the sinusoidal table's fastest waves turn more than once between two drawn positions, so their "
        "columns look like noise here."
    )


@cache.per_process(max_entries=4, dropped_when_short=True)
def _distance_chart(seed: int) -> alt.TopLevelMixin:
    trained, drawn, sine = tables(seed)  # their names
    learned, sinusoid = FAMILIES["learned"], FAMILIES["sinusoidal"]
    # the trained table solid in Learned absolute's colour, the random one a grey baseline, the
    # sinusoidal one as Sinusoidal is drawn everywhere
    styles = {trained: (learned.color, (1, 0)), drawn: (GREY, (2, 3)), sine: (sinusoid.color, sinusoid.dash)}
    return distance_chart(
        curves_frame({name: _by_distance(name, own_seed(name, seed)) for name in styles}),
        colors={name: color for name, (color, _) in styles.items()},
        dashes={name: dash for name, (_, dash) in styles.items()},
        draw=cache.drawing(line_chart),
    )


def similarity_curves(seed: int) -> None:
    """Mean cosine similarity against distance, the three tables of ``tables(seed)`` on one chart."""
    # Presenting, taller than the other slides' charts: its legend and axes take ~240 px of it.
    draw(_distance_chart(seed), width="stretch", height=slide_height(460))


@cache.per_process(max_entries=1)
def trained_pca() -> tuple[torch.Tensor, torch.Tensor, float]:
    """The trained table's first two principal components [T, 2], their variance shares [2] and the
    turn per position (read-only, computed once per server)."""
    coords, share = pca_2d(trained_table()[0])
    return coords, share, rotation_per_step(coords)


def pca_view(table: torch.Tensor, part: int | None = None) -> None:
    """The trained positions projected on their first two principal components (the two directions they
    differ most in), in order.

    ``part`` (presenting): 0 draws the path, 1 what it shows; None both.
    """
    step = trained_pca()[2]  # degrees a position
    T, d = table.shape
    seen = (
        f"Each position is a point in {d} dimensions, too many to draw. The chart draws each where it lies "
        f"along the two directions in which the {T} positions differ most, their "
        f"{define('principal components')}."
    )
    if part == 1:  # presenting: the picture's slide has its title; what its axes are comes with its reading
        st.markdown(seen)
        _wave_sentence(step)
        return
    if part is None:
        st.markdown(seen)
    pca_chart(len(table))
    if part is None:
        _wave_sentence(step)


@st.fragment  # its slider redraws this chart alone, not the page's tables above
def pca_chart(T: int) -> None:
    """The path of the first positions (a slider picks how many) along the two principal components."""
    coords, share, step = trained_pca()
    shown = st.select_slider("Positions drawn", [24, 48, 96, 192, T], value=48, key="pca_span")
    frame = pd.DataFrame(
        {
            "direction 1": coords[:shown, 0].numpy(),
            "direction 2": coords[:shown, 1].numpy(),
            "position": range(shown),
        }
    )
    title = f"Positions 0–{shown - 1}, along the two directions they differ most in"
    spread = (
        f"Direction 1 holds {share[0]:.1%} of the positions' spread around their average, direction 2 "
        f"{share[1]:.1%}; the grey line joins position p to p + 1."
    )
    said = f"{title}: {shown} points, going round a ring by about {step:.0f}° a position. {spread}"
    draw(
        cache.chart(path_chart, frame, "direction 1", "direction 2", "position", title, description=said),
        width="stretch",
        height=slide_height(SLIDE_CHART),
    )
    st.caption(spread)


def _wave_sentence(step: float) -> None:
    """What the path shows, for a turn of ``step`` degrees per position."""
    st.markdown(
        f"**A wave, found by training.** In this plane the positions go round a ring, turning about "
        f"{step:.0f}° from one position to the next (a period of about {360 / step:.1f} positions). The "
        "points lie on the ring, and the grey line from each position to the next jumps that far round it, "
        "so over many positions it draws a star rather than a circle. That is how one sin/cos pair of the "
        "sinusoidal encoding moves: nobody wrote a formula, yet "
        f"{define('gradient descent')} built a rotating code like it."
    )


# Per-settings charts and tables: dropped when memory is short or the server idle.
