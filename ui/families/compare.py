"""Views of every family at once: the overview, what position alone adds to a score, position similarity."""

from __future__ import annotations

from dataclasses import replace

import altair as alt
import pandas as pd
import streamlit as st

from core.config import PipelineConfig
from core.families import (
    CURVE_POINTS,
    SIMILARITY_POSITIONS,
    drawn_span,
    logit_curve,
    matrices_sentence,
    overview_rows,
    past_trained_note,
    position_similarity,
)
from core.pipeline import sample_indices
from core.positional.family import FAMILIES, FamilyConfig
from core.views.charts import grid_frame, heatmap, line_chart, method_panel
from core.views.glossary import define
from core.views.units import every, plural
from ui.charts import draw
from ui.open_tabs import tab_key
from ui.presenter import presenting, slide_height
from ui.server import cache
from ui.server.cache import kept_chart, kept_rows, per_process
from ui.tables import table

SCORE = "score from position"  # chart 1's y: what position alone adds to the attention score
PER_SLIDE = 3  # presenting: chart 1's panels (each with its finding) and chart 2's matrices per slide
EVIDENCE = (
    "The evidence is below: the table gives each method's kind, where position enters and its numbers "
    "to train (the sidebar's method marked), and the first tab what each adds to a score."
)
# The numbered sections after the table: a tab each on a screen (only the open one drawn), a slide each
# when presenting. The labels stay the same for every method, so a link's open tab survives a new method.
SECTION_TABS = [
    "1. What position alone adds",
    "2. How alike two positions are",
    "3. Close-up of your method",
]
SECTION_TAB = tab_key("families_section")  # the open section's tab, in the address bar


def chunks(count: int) -> list[range]:
    """Presenting, which of ``count`` charts each slide shows: ``PER_SLIDE`` in a row."""
    return [range(start, min(start + PER_SLIDE, count)) for start in range(0, count, PER_SLIDE)]


def logit_parts() -> list[str]:
    """Chart 1's presenter parts: its panels with their findings, ``PER_SLIDE`` to a slide."""
    parts = chunks(len(FAMILIES))
    return [f"{k + 1} of {len(parts)}" for k in range(len(parts))]


def intro(cfg: PipelineConfig) -> str:
    """The page's opening under its answer, each word the lecture did not teach defined where it first
    appears; presenting, where no answer box is shown, the answer's gist in the projector's few lines."""
    if presenting():
        return (
            "Absolute methods give every **position** a vector; relative methods act inside attention, on "
            f"the **distance** between two tokens. Here all {len(FAMILIES)} meet on the same axes."
        )
    return (
        f"Here all {len(FAMILIES)} methods meet on the same axes. A relative method acts on the distance "
        f"between a {define('query and key')}. The sidebar's context length is the *trained* length, "
        f"T = {cfg.context_length:,}; its method is the one section 3 shows close up."
    )


# Presenting, a slide each: the question's columns, what a longer text gets, what "generalize" means.
OVERVIEW_PARTS = ["what each gives", "past the trained length", "what “generalize” means"]


@cache.per_process(max_entries=16)  # read by every rerun and every session at the same settings
def overview_frame(context_length: int, dim: int, fam: FamilyConfig) -> pd.DataFrame:
    """The families' table for these settings (``core.families.overview_rows``), by family."""
    return pd.DataFrame(overview_rows(context_length, dim, fam)).set_index("family")


def overview(cfg: PipelineConfig, fam: FamilyConfig, part: int | None = None) -> None:
    """One row per family: kind, where position enters, numbers to train, what happens past the context;
    the sidebar's method marked, and under it what the lecture's "generalize" means and where it stops.

    ``part`` (presenting): ``OVERVIEW_PARTS[part]``, each on a slide of its own.
    """
    frame = overview_frame(cfg.context_length, cfg.output_dim, fam)
    marked = {list(FAMILIES).index(cfg.method)}
    past = frame.columns[-2]  # "past the trained length (T = …)"
    if part == 0:
        table(frame.drop(columns=["source", past]), marked=marked)
    elif part == 1:
        table(frame[["kind", past]], marked=marked)
    elif part is None:
        table(frame, marked=marked)
    if part in (None, 2):
        st.markdown(past_trained_note(cfg.context_length))


def chart_settings(cfg: PipelineConfig) -> PipelineConfig:
    """The sidebar settings the Families charts depend on: not the batch, the stride or the method."""
    return PipelineConfig(cfg.vocab_size, cfg.output_dim, cfg.context_length, seed=cfg.seed)


def read_settings(cfg: PipelineConfig, seed: bool, vocab: bool, dim: bool = True) -> PipelineConfig:
    """``chart_settings``, with the seed, V and d only where the view reads them (else the defaults): a
    change then recomputes only the views that it changes."""
    default, settings = PipelineConfig(), chart_settings(cfg)
    unread = {"seed": seed, "vocab_size": vocab, "output_dim": dim}
    return replace(settings, **{key: getattr(default, key) for key, reads in unread.items() if not reads})


def panel_settings(name: str, cfg: PipelineConfig) -> PipelineConfig:
    """What family ``name``'s chart 1 panel depends on: the seed and d unless its record says its curve is
    the same at every one (``Family.curve_reads_seed_and_dim``: NoPE's and ALiBi's, kept across both, as
    tests/ui/families/test_families_page.py checks on the numbers), V only for a table drawn after the
    token table."""
    reads = FAMILIES[name].curve_reads_seed_and_dim
    return read_settings(cfg, seed=reads, vocab=FAMILIES[name].seeded, dim=reads)


@per_process(max_entries=56, dropped_when_short=True)  # 8 settings × 7 families, ~4 MB (core.serving.budget)
def logit_panel(name: str, cfg: PipelineConfig, settings: tuple) -> tuple[alt.TopLevelMixin, str]:
    """Chart 1's panel of family ``name`` and its finding, for the family settings ``settings``
    (``FamilyConfig.items()``); kept, since it depends only on these settings."""
    f, T, fam = FAMILIES[name], cfg.context_length, FamilyConfig(**dict(settings))
    curve = logit_curve(name, cfg, fam, kept_rows(cfg))
    distances = curve.distances  # [R]
    frame = pd.DataFrame({"distance r": distances.numpy(), SCORE: curve.logits.numpy()})
    fit = {}
    if f.fixed_length and int(distances[-1]) >= T:  # a learned table: no row, so no value, at r ≥ T
        frame = frame[frame["distance r"] < T]  # its panel's axis ends at T, not at the others' span
        fit = {"x_domain": (0, T), "note": f"rows 0…{T - 1:,} only (no row at r ≥ {T:,})"}
    values = frame[SCORE].dropna()
    if len(values) and values.min() == values.max():  # a constant (NoPE's 0): an axis one either side
        fit["y_domain"] = (float(values.min()) - 1.0, float(values.min()) + 1.0)
    title = f"{f.label} — {f.injects}"
    panel = cache.chart(
        method_panel, frame, "distance r", SCORE, title, f.color, T, **fit, description=curve.finding
    )
    return panel, curve.finding


def logit_lead() -> str:
    """How chart 1 is made, before its panels: the query, the key and what is taken away."""
    return (
        "Each panel puts a query at position r and a key at position 0, r tokens before it, as a "
        f"{define('causal mask')} allows. Both get the same token vector, so only their positions differ; "
        "the score is q·k divided by the square root of how many numbers they have (d, or one head's dh "
        "for a method that works on a head), with no weights of its own, and NoPE's score (the token "
        "vector's alone) is taken away: what is left is what position alone adds."
    )


def logit_section(cfg: PipelineConfig, fam: FamilyConfig, part: int | None = None) -> None:
    """What position alone adds to the attention score, against distance: one panel per method.

    ``part`` (presenting): slide ``part`` of ``logit_parts()``, its panels in a row above their findings.
    """
    T, span = cfg.context_length, drawn_span(cfg.context_length, fam)
    distances = sample_indices(span, CURVE_POINTS)  # [R]
    panels = [logit_panel(name, panel_settings(name, cfg), fam.items()) for name in FAMILIES]
    findings = [finding for _, finding in panels]
    if part is not None:
        shown = chunks(len(panels))[part]
        for column, k in zip(st.columns(PER_SLIDE), shown, strict=False):
            draw(panels[k][0], column, width="stretch", height=slide_height(280))
        st.markdown("\n".join(f"- {findings[k]}" for k in shown))
        if part < len(chunks(len(panels))) - 1:
            return
    else:
        st.markdown(logit_lead())
        for k, (panel, _) in enumerate(panels):
            if k % 2 == 0:  # a new row of two panels: a phone stacks them in the registry's order
                columns = st.columns(2)
            draw(panel, columns[k % 2], width="stretch", height=230)
    step = int(distances[1] - distances[0]) if len(distances) > 1 else 1
    cut = [f.label for f in FAMILIES.values() if f.fixed_length] if int(distances[-1]) >= T else []
    st.caption(
        f"The token vector is one random vector, drawn with the seed; d = {cfg.output_dim:,} (RoPE and "
        f"Shaw use head 1's {plural(cfg.output_dim // fam.heads, 'number')}); T5 and ALiBi: head 1 of "
        f"{fam.heads:,}. Each panel has its own linear y axis. Distances 0 … {span - 1:,}: the used length "
        f"{fam.extrapolate} × T = {fam.extrapolate * T:,}, and at least twice T5's max distance and "
        f"Shaw's clip, so their flat tails show; the dashed line is the trained length T = {T:,}"
        + (f" ({cut[0]}'s axis ends there: its table has rows 0…{T - 1:,} only). " if cut else ". ")
        + (f"Drawn: {every(step, span, 'distances')}." if step > 1 else "")
    )
    if part is None:
        st.markdown("**What to look at.**\n" + "\n".join(f"- {sentence}" for sentence in findings))


def similarity_families() -> list[str]:
    """The families with a vector per position: an input table's rows, or one of their own (RoPE)."""
    return [name for name, f in FAMILIES.items() if f.additive or f.vectors is not None]


def similarity_settings(name: str, cfg: PipelineConfig) -> PipelineConfig:
    """What family ``name``'s position vectors depend on: the seed and V only for a table drawn from the
    lesson's generator after the token table (learned)."""
    seeded = FAMILIES[name].seeded
    return read_settings(cfg, seed=seeded, vocab=seeded)


@per_process(max_entries=15, dropped_when_short=True)  # < 0.5 MB each: 5 settings × 3 families (budget)
def similarity_view(
    name: str, cfg: PipelineConfig, settings: tuple
) -> tuple[alt.TopLevelMixin, pd.DataFrame, str, bool]:
    """Chart 2 for family ``name``: its cosine-similarity heatmap, its mean-by-distance curve, its
    finding and whether it depends on the distance alone, for the family settings ``settings``; kept, as
    they depend only on these."""
    f, fam = FAMILIES[name], FamilyConfig(**dict(settings))
    view = position_similarity(name, cfg, fam, kept_rows(cfg))
    frame = grid_frame(view.sim, view.positions, view.positions, "position i", "position j")
    matrix = cache.chart(
        heatmap,
        frame,
        "position j",
        "position i",
        f.label,
        260,
        domain=(-1.0, 1.0),
        accent=f.color,
        description=view.finding,
    )
    curve = pd.DataFrame({"distance": view.distances.numpy(), "cosine": view.mean.numpy(), "method": f.label})
    return matrix, curve, view.finding, view.distance_only


def similarity_charts(
    cfg: PipelineConfig, fam: FamilyConfig
) -> tuple[list[alt.TopLevelMixin], alt.TopLevelMixin, list[str], dict[str, bool]]:
    """Chart 2: a cosine-similarity heatmap per family with position vectors, the mean-by-distance
    curves together, the findings and, by label, whether each matrix depends on the distance alone."""
    names = similarity_families()
    views = [similarity_view(name, similarity_settings(name, cfg), fam.items()) for name in names]
    colors = {FAMILIES[name].label: FAMILIES[name].color for name in names}
    dashes = {FAMILIES[name].label: FAMILIES[name].dash for name in names}
    frames = tuple(frame for _, frame, _, _ in views)

    def build() -> tuple[alt.TopLevelMixin, int]:
        together = pd.concat(frames)
        title = "Mean similarity against distance"
        curve = cache.chart(
            line_chart,
            together,
            "distance",
            "cosine",
            title,
            "method",
            colors=colors,
            height=200,
            dashes=dashes,
        )
        return curve, 40 * len(together)

    curve = kept_chart(("similarity curve", *names), frames, build)  # kept while the views are
    stripes = {FAMILIES[name].label: view[3] for name, view in zip(names, views, strict=True)}
    return [view[0] for view in views], curve, [view[2] for view in views], stripes


def similarity_parts(cfg: PipelineConfig, fam: FamilyConfig) -> list[str]:
    """Chart 2's presenter parts: its matrices, ``PER_SLIDE`` to a slide, the curves, what to look at."""
    matrices = ["the matrices"] * len(chunks(len(similarity_families())))
    return [*matrices, "against distance", "what to look at"]


def similarity_lead(drawn: str) -> str:
    """What chart 2's squares compare, before them: ``drawn`` says which positions ("all 4 positions")."""
    return (
        f"Each square compares the vectors of two positions by their {define('cosine similarity')}; "
        f"drawn: {drawn}. RoPE gives a position no vector of its own: shown is a query of all ones, "
        "turned to each position."
    )


def similarity_section(cfg: PipelineConfig, fam: FamilyConfig, part: int | None = None) -> None:
    """Cosine similarity between position vectors, as matrices and against distance.

    ``part`` (presenting): slide ``part`` of ``similarity_parts``, matrices in a row or the curves.
    """
    T = cfg.context_length
    positions = sample_indices(T, SIMILARITY_POSITIONS)  # [P]
    heatmaps, curve, findings, stripes = similarity_charts(cfg, fam)
    slides = chunks(len(heatmaps))
    step = int(positions[1] - positions[0]) if len(positions) > 1 else 1
    if part is None or part < len(slides):  # what the squares are and what to see, before the charts
        st.markdown(similarity_lead(every(step, T, "positions")))
        shown = list(stripes) if part is None else [list(stripes)[k] for k in slides[part]]
        st.markdown(matrices_sentence({label: stripes[label] for label in shown}))
    if part is None:
        cells = [column for _ in range(len(heatmaps) // 2 + 1) for column in st.columns(2)]  # 2 wide
        for column, chart in zip(cells, heatmaps, strict=False):
            draw(chart, column, width="stretch")
    elif part < len(slides):  # square matrices in a row, as tall as the screen allows
        for column, k in zip(st.columns(PER_SLIDE), slides[part], strict=False):
            draw(heatmaps[k], column, width="stretch", height=300)
    if part is None:
        draw(curve, cells[len(heatmaps)], width="stretch", height=330)
    elif part == len(slides):  # the curves, as tall as the screen allows
        draw(curve, width="stretch", height=slide_height(440))
    if part in (None, len(slides) + 1):  # what to look at, on a slide of its own when presenting
        st.markdown("**What to look at.**\n" + "\n".join(f"- {sentence}" for sentence in findings))
