"""The app's colours, in one place: the lesson's three tensors, each positional family's colour and
line dash, and the colours of any other lines a chart tells apart.

Every chart, diagram and table that shows one of the three tensors takes its colour from here, so
``token_embeddings`` looks the same on every page; every family record takes its ``color`` and
``dash`` from here, and so every chart that draws a family.

The family colours start from Okabe & Ito's colour-blind-safe palette, moved by ``tools/search_palette.py``
until every two of them (and the colour kept for the next family) are at least 13 ΔE00 (CIEDE2000)
apart for normal vision and, simulated (Machado et al. 2009), for a deuteranope and a protanope, and
each has at least 3:1 contrast on white: closest pairs 14.96 (Learned absolute and T5 bias, normal
vision), 13.06 (Sinusoidal and ALiBi, deuteranopia), 13.04 (Shaw relative and T5 bias, protanopia);
lowest contrast 3.11:1. ``tests/core/views/test_palette.py`` checks every registered family. Where
families share a chart, each line also has its own dash, so no reader needs the colour.
"""

from __future__ import annotations

# The lesson's three tensors: (light fill, strong stroke/text). Token blue + position amber = input green.
TENSOR_COLORS: dict[str, tuple[str, str]] = {
    "token_embeddings": ("#bfdbfe", "#1d4ed8"),
    "pos_embeddings": ("#fde68a", "#b45309"),
    "input_embeddings": ("#bbf7d0", "#15803d"),
}

# A family's colour on every chart, by its name (``Family.name``).
FAMILY_COLORS: dict[str, str] = {
    "nope": "#666666",  # grey: it adds nothing
    "learned": "#0072b2",  # blue
    "sinusoidal": "#c48600",  # ochre
    "shaw": "#c4779c",  # reddish purple
    "t5": "#1f9bda",  # sky blue
    "alibi": "#b34e00",  # vermillion
    "rope": "#009d71",  # bluish green
}
NEXT_FAMILY_COLOR = "#000000"  # kept free for a family added later: as far from the seven as they are

# A family's line dash (Vega's strokeDash: dash, gap, ...) where several families share a chart.
FAMILY_DASHES: dict[str, tuple[int, ...]] = {
    "nope": (2, 3),  # dotted
    "learned": (12, 4),  # long dashes
    "sinusoidal": (12, 3, 2, 3),  # dash-dot
    "shaw": (6, 3, 2, 3, 2, 3),  # dash-dot-dot
    "t5": (12, 3, 5, 3),  # long-short
    "alibi": (5, 4),  # short dashes
    "rope": (1, 0),  # solid
}
NEXT_FAMILY_DASH = (8, 3, 8, 3, 2, 3)  # dash-dash-dot

# Lines (and points) that are not families: the same colours, taken in this order, a dash each (solid
# first) and a point shape each.
_SERIES_ORDER = ("learned", "alibi", "rope", "sinusoidal", "shaw", "t5", "nope")
SERIES_COLORS: tuple[str, ...] = tuple(FAMILY_COLORS[n] for n in _SERIES_ORDER) + (NEXT_FAMILY_COLOR,)
SERIES_DASHES: tuple[tuple[int, ...], ...] = (
    (1, 0),
    (12, 4),
    (2, 3),
    (12, 3, 2, 3),
    (5, 4),
    (12, 3, 5, 3),
    (6, 3, 2, 3, 2, 3),
    (8, 3, 8, 3, 2, 3),
)
SERIES_SHAPES = ("circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "wedge", "stroke")
GREY = FAMILY_COLORS["nope"]  # a reference line (plain RoPE, a pair that never turns)
