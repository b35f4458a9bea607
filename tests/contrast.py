"""WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio) of colours as CSS writes them."""

from __future__ import annotations

import re

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


def luminance(color: str) -> float:
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(color: str, background: str = "#ffffff") -> float:
    """The contrast ratio of two colours, from 1 to 21."""
    light, dark = sorted((luminance(color), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
