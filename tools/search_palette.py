"""Search the family colours of ``core.views.colors``: near Okabe & Ito's, yet far apart for everyone.

    python tools/search_palette.py

Starts from Okabe & Ito's colours (one per family in ``core.views.colors.FAMILY_COLORS``' order, a grey
for NoPE, black kept for the next family), darkened until each has 3.1:1 on white, and moves one colour
at a time by a few sRGB steps, keeping a move when it is no worse: the cost is how far the colours
moved from their start (ΔE00, normal vision) plus a heavy penalty for every unit the closest pair, under
normal vision, deuteranopia or protanopia, falls short of 13 ΔE00 (12 is the requirement; 13 leaves
room). Prints the colours and their closest pair for each vision. Seeded: the same colours every run.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.views.color_vision import (  # noqa: E402
    VISIONS,
    ciede2000,
    closest_pair,
    contrast,
    hex_to_rgb,
    lab,
    rgb_to_hex,
    to_linear,
    to_srgb,
)

NAMES = ("nope", "learned", "sinusoidal", "shaw", "t5", "alibi", "rope", "next")
# Okabe & Ito (2008): blue, orange, reddish purple, sky blue, vermillion, bluish green; grey, black
START = ("#666666", "#0072b2", "#e69f00", "#cc79a7", "#56b4e9", "#d55e00", "#009e73", "#000000")
GREYS = {0}  # NoPE stays grey: it adds nothing
MIN_DE, MIN_CONTRAST = 13.0, 3.1


def darkened(color: str) -> str:
    """``color`` scaled down in linear light (same chromaticity) until it has MIN_CONTRAST on white."""
    linear = [to_linear(c) for c in hex_to_rgb(color)]
    k = 1.0
    while contrast(rgb_to_hex([to_srgb(c * k) for c in linear])) < MIN_CONTRAST:
        k *= 0.98
    return rgb_to_hex([to_srgb(c * k) for c in linear])


def closest(colors: list[str]) -> float:
    """The smallest ΔE00 between two of ``colors`` under any of the three visions."""
    labs = [[lab(c, v) for v in VISIONS] for c in colors]
    pairs = itertools.combinations(range(len(colors)), 2)
    return min(ciede2000(labs[i][k], labs[j][k]) for i, j in pairs for k in range(len(VISIONS)))


def cost(colors: list[str]) -> float:
    moved = sum(ciede2000(lab(c), lab(s)) for c, s in zip(colors, START, strict=True))
    return moved + 300 * max(0.0, MIN_DE - closest(colors))


def moved(color: str, step: int, grey: bool) -> str:
    """``color`` moved by up to ``step`` in each sRGB channel (a grey along the greys only)."""
    rgb = [round(c * 255) for c in hex_to_rgb(color)]
    if grey:
        d = random.randint(-step, step)
        rgb = [rgb[0] + d] * 3
    else:
        rgb = [c + random.randint(-step, step) for c in rgb]
    return "#" + "".join(f"{min(255, max(0, c)):02x}" for c in rgb)


def search(iterations: int = 12_000, seed: int = 1) -> list[str]:
    random.seed(seed)
    best = [darkened(c) for c in START]
    best_cost = cost(best)
    for it in range(iterations):
        step = max(1, int(30 * (1 - it / iterations)))  # large moves first, then fine ones
        k = random.randrange(len(best))
        candidate = list(best)
        candidate[k] = moved(best[k], step, k in GREYS)
        if contrast(candidate[k]) < MIN_CONTRAST:
            continue
        c = cost(candidate)
        if c <= best_cost:
            best, best_cost = candidate, c
    return best


def main() -> None:
    colors = dict(zip(NAMES, search(), strict=True))
    for name, color in colors.items():
        print(f"{name:11} {color}  {contrast(color):.2f}:1 on white")
    for vision in VISIONS:
        de, p, q = closest_pair(colors, vision)
        print(f"closest, {vision}: {p} and {q}, ΔE00 {de:.2f}")


if __name__ == "__main__":
    main()
