"""The Attention page's heatmaps: one query × key map, and the sections' grids of them (one sentence's
parts, A and B side by side, every family on A)."""

from __future__ import annotations

import streamlit as st
import torch

from core.attention.charts import attention_heatmap, heatmap_description, symmetric_domain
from core.attention.compare import every_family_sentence, pattern
from core.attention.display import heatmap_frame, shown_note, shown_positions, token_labels
from core.attention.maps import AttentionMap
from core.attention.sentences import SentenceMaps
from core.positional.family import FAMILIES, Family
from core.views.glossary import define
from core.views.units import listing
from ui.charts import draw
from ui.open_tabs import open_tab, tab_key
from ui.presenter import presenting, readable
from ui.server import cache

WEIGHT_DOMAIN = (0.0, 1.0)
SLIDE_ROW = 24  # px a token takes in a slide's map: its 17-px label's box is 23 px tall


def position_part_name(family: Family) -> str:
    """What the position part of ``family`` is, read from its hooks."""
    if family.additive:
        return "score(x + p) − score(x)"
    if family.rotate is not None:
        return "rotated score − plain score"
    if family.attention_bias is not None or family.score_bias is not None:
        return "what it adds to the score"
    return "nothing: 0"


def heatmap(
    values: torch.Tensor,
    m: AttentionMap,
    pieces: list[str],
    title: str,
    legend: str,
    domain,
    where,
    description: str | None = None,
    **options,
):
    """One query × key heatmap of ``values`` [T, T] (``m``'s mask hides its cells), drawn in ``where``.

    ``description``: what a screen reader says for it (default: ``heatmap_description`` of the cells
    drawn). ``options``: ``attention_heatmap``'s, and ``row`` for the px a position takes when presenting
    (every key and query labelled on a slide, the map as tall as that needs: a 1280 × 720 projector fits
    the default sentences' 6 tokens).
    """
    row = options.pop("row", SLIDE_ROW)
    on = presenting()
    shown = shown_positions(len(pieces))
    height = min(560, 170 + 26 * len(shown))  # labels and title: ~170 px

    def build() -> tuple[object, int]:  # the chart, and the bytes its frame takes
        frame = heatmap_frame(values, m.mask, shown)
        scheme = "blues" if domain == WEIGHT_DOMAIN else "redblue"
        labels = token_labels(pieces)
        said = description or heatmap_description(
            frame, labels, title, legend, len(shown) ** 2, options.get("highlight")
        )
        chart = cache.chart(
            attention_heatmap,
            frame,
            labels,
            title,
            domain=domain,
            legend=legend,
            scheme=scheme,
            height=height,
            row=row if on else None,
            description=said,
            **options,
        )
        return readable(chart), frame.size * 8  # i, j and v: 8 bytes a cell (cheaper than pandas' own count)

    # Kept while the map lives: a rerun that changes no map (a new batch size or stride) draws the page's
    # 13 charts without building or converting them again.
    key = (
        tuple(pieces),
        title,
        legend,
        tuple(domain),
        height,
        row,
        on,
        description,
        *sorted(options.items()),
    )
    chart = cache.kept_chart(key, (values, m.mask), build)
    draw(chart, where, width="stretch", height="content" if on else height)


def grid(count: int, per_row: int = 2) -> list:
    """``count`` cells, ``per_row`` in a row."""
    return [cell for _ in range(-(-count // per_row)) for cell in st.columns(per_row)][:count]


def split_view(
    family: Family, m: AttentionMap, pieces: list[str], label: str, highlight: int | None = None
) -> None:
    """Section 1: content, position part, scores with the mask and weights of one sentence (presenting:
    content, position part and weights in one row, the scores being their sum). ``highlight``: the
    followed token's query row, outlined in each."""
    outline = {} if highlight is None else {"highlight": highlight}
    # One scale for the three scores: their sizes compare.
    domain = symmetric_domain([t[m.mask] for t in (m.content, m.position, m.scores)])
    panels = [
        (m.content, f"{label}: content q·kᵀ/√dh", "score", domain),
        (m.position, f"{label}: position part, {position_part_name(family)}", "score", domain),
        (m.scores, f"{label}: scores (grey: masked)", "score", domain),
        (m.weights, f"{label}: softmax weights", "weight", WEIGHT_DOMAIN),
    ]
    if presenting():  # three in a row: short titles (the sentence above says what the position part is)
        del panels[2]
        panels[1] = (m.position, f"{label}: position part", "score", domain)
    cells = grid(len(panels), len(panels) if presenting() else 2)
    for cell, (values, title, legend, scale) in zip(cells, panels, strict=True):
        heatmap(values, m, pieces, title, legend, scale, cell, **outline)
    note = shown_note(len(pieces))
    if note:
        st.caption(note)


def side_by_side(
    view: SentenceMaps,
    pieces: tuple[list[str], list[str]],
    queries: tuple[int | None, int | None] | None = None,
) -> None:
    """Section 2: the family's weights on A and on B, a token's row outlined in each: ``queries``' (the
    followed token's places; None where it is not in that sentence), else the moved token's."""
    if queries is None:
        queries = (view.moved.position_a, view.moved.position_b)
    for column, label, m, ps, query in zip(
        st.columns(2), "AB", (view.maps_a[view.method], view.map_b), pieces, queries, strict=True
    ):
        if query is None:
            heatmap(m.weights, m, ps, f"{label}: weights", "weight", WEIGHT_DOMAIN, column)
            continue
        title = f"{label}: weights ({quoted_plain(ps[query])} outlined)"
        heatmap(m.weights, m, ps, title, "weight", WEIGHT_DOMAIN, column, highlight=query)


EVERY_FAMILY_PARTS = ["none and absolute", "relative"]  # each kind's maps: a tab, a slide when presenting
EVERY_FAMILY_TABS = [part.capitalize() for part in EVERY_FAMILY_PARTS]
MAPS_TAB = tab_key("maps")  # the open tab of every family's maps, in the address bar


def every_family_maps(
    view: SentenceMaps, pieces: list[str], highlight: int | None, part: int | None, note: str | None
) -> None:
    """Section 3's maps: presenting, the slide's ``part``; else a tab of each kind, only the open one
    drawn, with ``note`` (about the followed token) under its maps."""
    if presenting():
        small_multiples(view, pieces, highlight, part)
        return
    part, tab = open_tab(EVERY_FAMILY_TABS, MAPS_TAB)
    with tab:
        small_multiples(view, pieces, highlight, part)
        if note:
            st.caption(note)


def small_multiples(
    view: SentenceMaps, pieces: list[str], highlight: int | None = None, part: int | None = None
) -> None:
    """Section 3: every family's position part on A, on one colour scale, each with its signature
    (``highlight``: the followed token's query row, outlined in each), under one sentence on what to see.

    ``part``: only the maps of ``EVERY_FAMILY_PARTS[part]`` (the relative families, or the others), as in
    a tab. Presenting: four in a row, without legends, axis titles or signatures (the caption names the
    scale; a hover gives each number), every token labelled: seven maps so labelled would not fit one
    1280 × 720 slide.
    """
    domain = symmetric_domain([m.position[m.mask] for m in view.maps_a.values()])
    constant = domain[1] / 100  # symmetric log: T5's small untrained biases show next to ALiBi's
    on = presenting()
    maps = {
        name: m
        for name, m in view.maps_a.items()
        if part is None or (FAMILIES[name].kind == "relative") == (EVERY_FAMILY_PARTS[part] == "relative")
    }
    st.markdown(every_family_sentence({FAMILIES[name].label: pattern(m) for name, m in maps.items()}))
    for cell, (name, m) in zip(grid(len(maps), 4 if on else 2), maps.items(), strict=True):
        family = FAMILIES[name]
        title = family.label if on else f"{family.label}: {family.injects}"
        common = {"symlog": constant, "accent": family.color, "compact": on}
        said = view.signatures[name]
        if highlight is not None:
            common["highlight"] = highlight
            said += f" The row of query {quoted_plain(pieces[highlight])} is outlined."
        heatmap(m.position, m, pieces, title, "position part", domain, cell, said, **common)
        if not on:
            cell.caption(view.signatures[name])
    scale = f"One colour scale for all {len(view.maps_a)}: {domain[0]:+.3f} (blue) to {domain[1]:+.3f} (red)"
    untrained = [f.label for f in map(FAMILIES.get, view.maps_a) if f.score_bias is not None]
    note = (
        f" {listing(untrained)} start from random, untrained numbers: training sets their size, so a pale "
        "map here says nothing about a trained model."
        if untrained
        else ""
    )
    st.caption(
        f"{scale}, squeezed at its ends; grey: masked."
        if on
        else f"{scale}. It is even near 0 (within ±{constant:.3g}) and squeezed farther out on each side, as "
        f"on a {define('log scale')}, so small changes stay visible next to large ones; hover a cell for its "
        f"value. Grey: masked.{note}"
    )


def quoted_plain(piece: str) -> str:
    """A token as a chart title writes it (plain text, never Markdown): its repr."""
    return repr(piece)
