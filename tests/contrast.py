"""WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio) of colours as CSS writes them."""

from __future__ import annotations

import re

from core.views import color_vision

AA_TEXT = 4.5  # WCAG 2.2 AA, 1.4.3: text (under 24 px, or 18.66 px bold)


def rgb(color: str) -> tuple[float, float, float]:
    """``#rrggbb``, ``#rgb`` or ``rgb(r, g, b)`` as three 0-255 numbers."""
    color = color.strip()
    if color.startswith("#"):
        digits = color[1:] if len(color) == 7 else "".join(c * 2 for c in color[1:4])
        return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4))
    r, g, b = re.findall(r"[\d.]+", color)[:3]
    return float(r), float(g), float(b)


def over(color: str, background: str, alpha: float) -> str:
    """``color`` drawn at opacity ``alpha`` over ``background``."""
    mixed = (alpha * c + (1 - alpha) * b for c, b in zip(rgb(color), rgb(background), strict=True))
    return "rgb({}, {}, {})".format(*mixed)


def hexed(color: str) -> str:
    """A CSS colour as ``#rrggbb`` (a screen shows 8 bits a channel)."""
    return "#" + "".join(f"{round(c):02x}" for c in rgb(color))


def contrast(color: str, background: str = "#ffffff") -> float:
    """The contrast ratio of two colours as CSS writes them, from 1 to 21 (``core.views.color_vision``)."""
    return color_vision.contrast(hexed(color), hexed(background))
