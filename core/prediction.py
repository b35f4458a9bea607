"""Reading a student's prediction of a tensor's shape or a number, in the ways people write it, and
saying what could not be read."""

from __future__ import annotations

import math
import re

from core.views.units import position_str

_TIMES = re.compile(r"[×xX*]")
_SEPARATORS = re.compile(r"[×xX*,\s()\[\]]+")  # what may stand between the sizes of a shape
_EXAMPLE_SHAPES = ((2, 3, 5), (3, 5, 7))  # one of them is never the answer (example_shape)
MAX_QUOTED = 3  # unread pieces a message quotes
MAX_PIECE_CHARS = 20  # characters of each


def _body(text: str) -> str:
    """``text`` without ``torch.Size``, the outer brackets and the surrounding spaces."""
    return text.strip().removeprefix("torch.Size").strip().strip("()[]").strip()


def parse_shape(text: str) -> tuple[int, ...] | None:
    """The shape a student typed, or None when there is none to read.

    Accepts ``8 × 4 × 256``, ``8x4x256``, ``[8, 4, 256]``, ``(8, 4, 256)``, ``torch.Size([8, 4, 256])``,
    ``8 4 256`` and a lone ``278``. Between × signs a comma is a thousands separator (``8 × 2,048``);
    without them commas separate the dimensions, as Python prints a shape.
    """
    body = _body(text)
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
    """A number a student typed (``1``, ``1.0``, ``0.98``, ``-0.5``, ``1,000``), or None (``nan`` and
    ``inf`` are not predictions)."""
    try:
        value = float(text.strip().replace(",", "").replace("−", "-"))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def example_shape(answer: tuple[int, ...]) -> str:
    """A shape to show as an example of how to write one, never ``answer`` itself, e.g. ``2 × 3 × 5``."""
    shape = next(s for s in _EXAMPLE_SHAPES if s != answer)
    return " × ".join(str(n) for n in shape)


def _quoted(pieces: list[str]) -> str:
    """“a”, “b” and “c”: the first ``MAX_QUOTED`` pieces, each cut at ``MAX_PIECE_CHARS`` characters."""
    shown = [
        f"“{p if len(p) <= MAX_PIECE_CHARS else p[:MAX_PIECE_CHARS] + '…'}”" for p in pieces[:MAX_QUOTED]
    ]
    if len(pieces) > MAX_QUOTED:
        shown.append("more")
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def shape_problem(text: str, answer: tuple[int, ...]) -> str | None:
    """What could not be read in a shape guess, with an example of one that can (None when it reads, or is
    empty). ``answer``: the shape asked for, which the example never is.

    Plain text (it quotes the student's words): escape it before showing it as Markdown.
    """
    if not text.strip() or parse_shape(text) is not None:
        return None
    example = example_shape(answer)
    written = (example, example.replace(" × ", "x"), f"[{example.replace(' × ', ', ')}]")
    how = f"Write the sizes as whole numbers, for example {written[0]}, {written[1]} or {written[2]}."
    pieces = _SEPARATORS.split(_body(text))
    unread = list(dict.fromkeys(p for p in pieces if p and not p.isdigit()))  # each once, in order
    if unread:
        return f"Could not read {_quoted(unread)} as a size. {how}"
    return f"Could not read a size between every two separators. {how}"


def position_problem(text: str, size: int = 3) -> str | None:
    """What could not be read in a guess of a position of ``size`` whole numbers ((t, h, w): three), with
    an example (None when it reads, or is empty). Plain text: escape it before showing it as Markdown."""
    read = parse_shape(text)
    if not text.strip() or (read is not None and len(read) == size):
        return None
    example = position_str(tuple(range(10, 10 + size)))
    return (
        f"Could not read {_quoted([text.strip()])} as {size} whole numbers. Write them in brackets, for "
        f"example {example}."
    )


def number_problem(text: str) -> str | None:
    """What could not be read in a number guess, with an example (None when it reads, or is empty).

    Plain text (it quotes the student's words): escape it before showing it as Markdown.
    """
    if not text.strip() or parse_number(text) is not None:
        return None
    return (
        f"Could not read {_quoted([text.strip()])} as a number. Write it in digits, for example 0.5 or −0.25."
    )
