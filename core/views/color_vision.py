"""How far apart two colours look, for normal vision and for red-green colour blindness (pure Python).

Used to check the palette (``core.views.colors``): every colour is an sRGB hex string. The steps:

- sRGB ↔ linear RGB (IEC 61966-2-1), linear RGB → XYZ (D65) → CIELAB;
- colour blindness simulated in linear RGB by the matrices of Machado, Oliveira & Fernandes (2009) at
  severity 1.0 (protanopia, deuteranopia): a colour → the colour a dichromat cannot tell from it;
- CIEDE2000 (ΔE00) after Sharma, Wu & Dalal (2005): about 1 is a just-noticeable difference, 12 or
  more reads as a different colour at a glance;
- WCAG 2 contrast ratio from relative luminance.
"""

from __future__ import annotations

import math

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

# Machado, Oliveira & Fernandes (2009), Table 1 at severity 1.0 (rows give R', G', B' in linear RGB).
MACHADO: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}
VISIONS = ("normal", "deuteranopia", "protanopia")
READERS = {"normal": "normal vision", "deuteranopia": "a deuteranope", "protanopia": "a protanope"}

_TO_XYZ: Matrix = (  # linear sRGB → XYZ, D65 white
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
_WHITE = (0.95047, 1.0, 1.08883)  # D65, Y = 1

RGB = tuple[float, float, float]


def hex_to_rgb(color: str) -> RGB:
    """``"#rrggbb"`` → sRGB channels in [0, 1]."""
    text = color.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"{color!r} is not a #rrggbb colour")
    return tuple(int(text[k : k + 2], 16) / 255 for k in (0, 2, 4))


def rgb_to_hex(rgb: RGB) -> str:
    """sRGB channels in [0, 1] → ``"#rrggbb"`` (clipped, rounded)."""
    return "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02x}" for c in rgb)


def to_linear(c: float) -> float:
    """One sRGB channel → linear light."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(c: float) -> float:
    """One linear channel → sRGB (clipped to [0, 1])."""
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _apply(m: Matrix, v: RGB) -> RGB:
    return tuple(row[0] * v[0] + row[1] * v[1] + row[2] * v[2] for row in m)


def simulate(color: str, vision: str) -> RGB:
    """The linear RGB a viewer with ``vision`` ("normal", "deuteranopia", "protanopia") sees for ``color``."""
    linear = tuple(to_linear(c) for c in hex_to_rgb(color))
    if vision == "normal":
        return linear
    return tuple(min(1.0, max(0.0, c)) for c in _apply(MACHADO[vision], linear))


def simulate_hex(color: str, vision: str) -> str:
    """``simulate`` as an sRGB hex string (to draw what a colour-blind viewer sees)."""
    return rgb_to_hex(tuple(to_srgb(c) for c in simulate(color, vision)))


def linear_to_lab(linear: RGB) -> tuple[float, float, float]:
    """Linear sRGB → CIELAB (D65)."""

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    x, y, z = (v / w for v, w in zip(_apply(_TO_XYZ, linear), _WHITE, strict=True))
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def lab(color: str, vision: str = "normal") -> tuple[float, float, float]:
    """CIELAB of ``color`` as a viewer with ``vision`` sees it."""
    return linear_to_lab(simulate(color, vision))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """ΔE00 between two CIELAB colours (k_L = k_C = k_H = 1), as in Sharma, Wu & Dalal (2005)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0

    dL, dC = L2 - L1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))

    L_mean, cp_mean = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (L_mean - 50) ** 2 / math.sqrt(20 + (L_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dL / s_l) ** 2 + (dC / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dC / s_c) * (dH / s_h))


def difference(color1: str, color2: str, vision: str = "normal") -> float:
    """ΔE00 between two hex colours as a viewer with ``vision`` sees them."""
    return ciede2000(lab(color1, vision), lab(color2, vision))


def luminance(color: str) -> float:
    """WCAG relative luminance of a hex colour."""
    r, g, b = (to_linear(c) for c in hex_to_rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(color1: str, color2: str = "#ffffff") -> float:
    """WCAG 2 contrast ratio of two hex colours (default: against white), 1 … 21."""
    high, low = sorted((luminance(color1), luminance(color2)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def closest_pair(colors: dict[str, str], vision: str) -> tuple[float, str, str]:
    """The two entries of ``colors`` (name → hex) that look most alike to ``vision``: (ΔE00, name, name)."""
    names = list(colors)
    return min(
        (difference(colors[p], colors[q], vision), p, q) for i, p in enumerate(names) for q in names[i + 1 :]
    )


def clashes(colors: dict[str, str], min_difference: float = 12.0, min_contrast: float = 3.0) -> list[str]:
    """What keeps ``colors`` (name → hex) apart for too few readers, one sentence each: every pair less
    than ``min_difference`` ΔE00 apart for some vision, every colour under ``min_contrast`` on white."""
    names, out = list(colors), []
    for vision in VISIONS:
        for i, p in enumerate(names):
            for q in names[i + 1 :]:
                de = difference(colors[p], colors[q], vision)
                if de < min_difference:
                    out.append(
                        f"{p} and {q} are {de:.1f} ΔE00 apart for {READERS[vision]} (< {min_difference:g})"
                    )
    out += [
        f"{name} has {contrast(color):.2f}:1 on white (< {min_contrast:g}:1)"
        for name, color in colors.items()
        if contrast(color) < min_contrast
    ]
    return out
