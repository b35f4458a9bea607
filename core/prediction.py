"""Reading a student's prediction of a tensor's shape or a number, in the ways people write it."""

from __future__ import annotations

import re

_TIMES = re.compile(r"[×xX*]")


def parse_shape(text: str) -> tuple[int, ...] | None:
    """The shape a student typed, or None when there is none to read.

    Accepts ``8 × 4 × 256``, ``8x4x256``, ``[8, 4, 256]``, ``(8, 4, 256)``, ``torch.Size([8, 4, 256])``,
    ``8 4 256`` and a lone ``278``. Between × signs a comma is a thousands separator (``8 × 2,048``);
    without them commas separate the dimensions, as Python prints a shape.
    """
    body = text.strip().removeprefix("torch.Size").strip().strip("()[]").strip()
    if not body:
        return None
    if _TIMES.search(body):
        parts = [p.replace(",", "").replace("_", "").strip() for p in _TIMES.split(body)]
    else:
        parts = [p for p in re.split(r"[,\s]+", body) if p]
    if not parts or not all(p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def parse_number(text: str) -> float | None:
    """A number a student typed (``1``, ``1.0``, ``0.98``, ``-0.5``, ``1,000``), or None."""
    try:
        return float(text.strip().replace(",", "").replace("−", "-"))
    except ValueError:
        return None
