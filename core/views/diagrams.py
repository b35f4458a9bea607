"""The lesson's pictures as SVG: sliding windows, table lookups and the broadcasting add.

Pure functions from numbers and token strings to an SVG document (drawn by the page with
``st.image``, which serves it as an ``<img>``: nothing in it can run). Every piece of text is
XML-escaped. Each picture is a fixed-size drawing that the browser scales down on narrow screens,
so its fonts are large for its size. ``least_font`` (at most ``MAX_LEAST_FONT``) raises every smaller
text to that size (a drawing's unit is a pixel where the page shows it at its own size, as a projector's
slide does), and the drawing makes room for it.
"""

from __future__ import annotations

from html import escape

from core.views.colors import TENSOR_COLORS
from core.views.units import shape_str

INK, MUTED = "#111827", "#6b7280"
MAX_SLABS = 8  # slabs drawn per stack in the broadcasting picture; "… ×B" beyond
MAX_LOOKUP_ROWS = 8  # rows drawn in a lookup picture
MAX_WINDOW_TOKENS = 48  # tokens drawn under the windows
TOKENS_PER_ROW = 8
MAX_PIECE_CHARS = 6
MAX_LEAST_FONT = 17  # the labels' own size: a larger least font would need room the drawings do not make


def _least(least_font: int) -> int:
    """``least_font``, checked: ``ValueError`` above ``MAX_LEAST_FONT``."""
    if least_font > MAX_LEAST_FONT:
        raise ValueError(f"least_font is at most {MAX_LEAST_FONT} units; it is {least_font}.")
    return least_font


def _svg(width: int, height: int, label: str, body: list[str]) -> str:
    """An SVG document of ``width`` × ``height`` units with an accessible label (also its <title>)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{escape(label)}" font-family="sans-serif">'
        f"<title>{escape(label)}</title>{''.join(body)}</svg>"
    )


def _text(
    x: float, y: float, s: str, size: int = 16, anchor: str = "middle", fill: str = INK, **attrs
) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{extra}>'
        f"{escape(s)}</text>"
    )


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str, **attrs) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}" '
        f'stroke="{stroke}"{extra}/>'
    )


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1.5) -> str:
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
        f'stroke-width="{width}"/>'
    )


def shown_piece(piece: str) -> str:
    """A token as a chip shows it: · for a space, ↵ for a newline, cut to a few characters."""
    shown = piece.replace("\n", "↵").replace(" ", "·")
    return shown if len(shown) <= MAX_PIECE_CHARS else shown[: MAX_PIECE_CHARS - 1] + "…"


# --- 1. Sliding windows -------------------------------------------------------------------------


MARKED = "#fde68a"  # the followed token's fill; its thick outline and the lanes' dots say it without colour
_BOLD = {False: "normal", True: "bold"}


_CELL_W, _LANE_H, _WINDOWS_LEFT, _WINDOWS_TOP = 70, 20, 50, 34  # a token's cell, a lane, the margins


def _windows_key(context_length: int, ink: str, least_font: int) -> list[str]:
    """The key above the windows: a solid bar for a window's inputs, a dashed one for its targets."""
    left, size = _WINDOWS_LEFT, max(15, least_font)
    return [
        _rect(left, 8, 26, 12, ink, ink),
        _text(left + 32, 19, f"inputs[b]: {context_length:,} tokens", size, "start"),
        _rect(left + 250, 8, 26, 12, "none", ink, stroke_dasharray="5 3", stroke_width=2),
        _text(left + 282, 19, "targets[b]: shifted by one", size, "start"),
    ]


def _token_cells(
    pieces: list[str], first: int, last: int, y0: int, covered: set[int], mark: int | None, number: int
) -> list[str]:
    """Tokens ``first`` … ``last − 1`` as one row of cells at ``y0``: each token's text over its number,
    filled if a window covers it, the followed one (``mark``) outlined."""
    fill = TENSOR_COLORS["token_embeddings"][0]
    cell_h, body = 29 + number, []
    for t in range(first, last):
        x, used = _WINDOWS_LEFT + (t - first) * _CELL_W, t in covered
        color = MARKED if t == mark else fill if used else "#f3f4f6"
        outline = {"stroke_width": 3} if t == mark else {}
        body.append(
            _rect(x + 2, y0, _CELL_W - 4, cell_h, color, INK if t == mark else "#9ca3af", rx=5, **outline)
        )
        body.append(_text(x + _CELL_W / 2, y0 + 20, shown_piece(pieces[t]), 18, fill=INK if used else MUTED))
        body.append(_text(x + _CELL_W / 2, y0 + 24 + number, str(t), number, fill=MUTED))
    return body


def _window_lanes(
    starts: list[int], context_length: int, first: int, last: int, y: int, mark: int | None, least_font: int
) -> tuple[list[str], int]:
    """One lane per window that reaches into the row of tokens ``first`` … ``last − 1``, from ``y`` down:
    its inputs as a solid bar, its targets as a dashed one, a dot under the followed token.

    Returns the lanes' SVG elements and the ``y`` under the last lane.
    """
    T, left, ink = context_length, _WINDOWS_LEFT, TENSOR_COLORS["token_embeddings"][1]
    body = []
    for b, start in enumerate(starts):
        if start + T + 1 <= first or start >= last:
            continue
        body.append(_text(left - 8, y + 13, f"b={b}", max(13, least_font), "end", MUTED))
        for lo, hi, dashed in ((start, start + T, False), (start + 1, start + T + 1, True)):
            a, z = max(lo, first), min(hi, last)  # the part of this window in this row of tokens
            if a < z:
                style = {"stroke_dasharray": "5 3", "stroke_width": 2} if dashed else {}
                x, w = left + (a - first) * _CELL_W + 4, (z - a) * _CELL_W - 8
                body.append(
                    _rect(x, y + (9 if dashed else 1), w, 7, "none" if dashed else ink, ink, rx=3, **style)
                )
        if mark is not None and first <= mark < last and start <= mark < start + T:
            cx = left + (mark - first) * _CELL_W + _CELL_W / 2
            body.append(
                f'<circle cx="{cx:.1f}" cy="{y + 4.5:.1f}" r="6" fill="{MARKED}" stroke="{INK}" '
                'stroke-width="2"/>'
            )
        y += _LANE_H
    return body, y


def _windows_label(total: int, starts: list[int], context_length: int, mark: int | None, shown: int) -> str:
    """The windows picture's accessible label: how many windows, their stride, and where the followed
    token is (``shown``: the tokens drawn)."""
    T = context_length
    label = f"Sliding windows: {total} window{'s' * (total != 1)} of {T:,} tokens"
    if len(starts) > 1:
        label += f", one starting every {starts[1] - starts[0]:,} tokens"
    lanes = [b for b, s in enumerate(starts) if mark is not None and s <= mark < s + T]
    if mark is not None and mark < shown:
        where = (
            f"in lane{'s' * (len(lanes) != 1)} b = {', '.join(map(str, lanes))}" if lanes else "in no lane"
        )
        label += f"; token {mark:,} is marked, {where}"
    return label


def windows_svg(
    pieces: list[str],
    starts: list[int],
    context_length: int,
    per_row: int = TOKENS_PER_ROW,
    mark: int | None = None,
    least_font: int = 0,
) -> str:
    """The first batch's windows over the text's first tokens.

    Args:
        pieces: the text's first tokens as strings (at most ``MAX_WINDOW_TOKENS`` are drawn).
        starts: the first token of each window of the batch (``b * stride``), one lane each.
        context_length: T, the tokens per window; each target window is its input shifted by one.
        per_row: tokens per row of the drawing (70 px each): more make it wider and shorter.
        mark: the followed token's place in the text: its cell is outlined and each lane holding it
            has a dot under it.
        least_font: the smallest text's size (the tokens' numbers are 11 units, the lanes' names 13).
    """
    T, total = context_length, len(starts)
    starts = starts[:MAX_SLABS]  # the first windows, one lane each
    n = min(len(pieces), MAX_WINDOW_TOKENS, starts[-1] + T + 1)  # up to the last drawn target
    number = max(11, _least(least_font))  # a token's number, under its text: a taller cell holds a larger one
    covered = {t for s in starts for t in range(s, s + T)}
    body = _windows_key(T, TENSOR_COLORS["token_embeddings"][1], least_font)
    y0 = _WINDOWS_TOP
    for first in range(0, n, per_row):
        last = min(n, first + per_row)  # this row holds tokens [first, last)
        body += _token_cells(pieces, first, last, y0, covered, mark, number)
        lanes, y = _window_lanes(starts, T, first, last, y0 + 29 + number + 6, mark, least_font)
        body += lanes
        y0 = y + 12
    more = [f"{total - len(starts):,} more windows"] if total > len(starts) else []
    if starts[-1] + T + 1 > n:
        more.insert(0, f"these windows go on to token {starts[-1] + T:,}")
    if more:
        body.append(_text(_WINDOWS_LEFT, y0 + 6, "… " + "; ".join(more), max(14, least_font), "start", MUTED))
        y0 += 20
    width = _WINDOWS_LEFT + per_row * _CELL_W + 10
    return _svg(width, y0, _windows_label(total, starts, T, mark, n), body)


def windows_sentence(context_length: int, stride: int) -> str:
    """What the windows picture shows about stride against context length."""
    T, s = context_length, stride
    if s == T:
        return (
            f"Stride {s:,} = context {T:,}: each window starts where the last one ended; no token is shared."
        )
    if s < T:
        k = T - s
        return f"Stride {s:,} < context {T:,}: neighbouring windows overlap by {k:,} token{'s' * (k != 1)}."
    k = s - T
    return (
        f"Stride {s:,} > context {T:,}: {k:,} token{'s' * (k != 1)} between two windows (grey) "
        f"{'are' if k != 1 else 'is'} never an input; only the first is seen, as a window's last target."
    )


# --- 2. Table lookup ------------------------------------------------------------------------------


_ROW_H, _LOOKUP_TOP = 34, 62  # an output row's height, and where the table and the slice start
_TABLE_X, _TABLE_W, _SLICE_X, _SLICE_W = 200, 56, 340, 150  # the tall table and the slice it fills


def _lookup_heads(
    table: str, out: str, shape: tuple[int, int], count: int, ink: str, least_font: int, table_bottom: float
) -> list[str]:
    """The table (``shape`` V × d, or T × d) with its name, shape and first and last row numbers, and the
    name and shape of the slice of ``count`` rows it fills."""
    (num_rows, dim), head, ends = shape, max(15, least_font), max(12, least_font)
    centre, middle = _TABLE_X + _TABLE_W / 2, _SLICE_X + _SLICE_W / 2
    return [
        _text(centre, 22, table, head, fill=ink, font_weight="bold"),
        _text(centre, 42, f"{num_rows:,} × {dim:,}", head),
        _text(middle, 22, out, head, fill=ink, font_weight="bold"),
        _text(middle, 42, f"{count:,} × {dim:,}", head),
        _rect(_TABLE_X, _LOOKUP_TOP, _TABLE_W, table_bottom - _LOOKUP_TOP, "#f9fafb", "#6b7280"),
        _text(_TABLE_X - 6, _LOOKUP_TOP + ends, "0", ends, "end", MUTED),
        # Larger, the last row's number goes under the table's corner, clear of the last label.
        _text(
            _TABLE_X - 6, table_bottom + (ends if ends > 12 else 0), f"{num_rows - 1:,}", ends, "end", MUTED
        ),
    ]


def _lookup_row(
    label: str, row: int, y: float, ry: float, on: bool, colors: tuple[str, str], least_font: int
) -> list[str]:
    """One output row at ``y``: its label, the lines through table row ``row`` (at ``ry``) and the slice's
    row it becomes; ``on``: the followed token's (▶, thick lines, outlined)."""
    fill, ink = colors
    stroke, weight = (INK, 3.5) if on else (ink, 1.5)
    return [
        _text(_TABLE_X - 42, y + 6, ("▶ " if on else "") + label, 17, "end", font_weight=_BOLD[on]),
        _line(_TABLE_X - 38, y, _TABLE_X, ry, stroke, weight),
        _rect(_TABLE_X - 3 * on, ry - 1.5 - on, _TABLE_W + 6 * on, 3 + 2 * on, stroke, stroke),
        _line(_TABLE_X + _TABLE_W, ry, _SLICE_X, y, stroke, weight),
        _rect(
            _SLICE_X,
            y - _ROW_H / 2 + 2,
            _SLICE_W,
            _ROW_H - 4,
            MARKED if on else fill,
            stroke,
            rx=3,
            stroke_width=weight,
        ),
        _text(_SLICE_X + _SLICE_W / 2, y + 6, f"row {row:,}", max(16, least_font), font_weight=_BOLD[on]),
    ]


def lookup_svg(
    labels: list[str],
    rows: list[int],
    num_rows: int,
    dim: int,
    table: str,
    out: str,
    color: str,
    marked: frozenset[int] | set[int] = frozenset(),
    least_font: int = 0,
) -> str:
    """Row ``rows[t]`` of a tall ``num_rows`` × ``dim`` table becomes row t of the output slice.

    Args:
        labels: what picks each row (a token and its ID, or a position), one per output row.
        rows: the table row each label picks, in ``range(num_rows)``.
        num_rows, dim: the table's shape (V × d, or context_length × d).
        table, out: names of the table and of the slice it fills.
        color: the key of the output tensor in ``TENSOR_COLORS``.
        marked: output rows t of the followed token: ▶ before the label, a thick line, an outlined row.
        least_font: the smallest text's size (the table's first and last row numbers are 12 units).
    """
    fill, ink = TENSOR_COLORS[color]
    least_font = _least(least_font)
    n = min(len(rows), MAX_LOOKUP_ROWS)
    height = _LOOKUP_TOP + max(n * _ROW_H, 200) + (44 if len(rows) > n else 24)
    table_bottom = height - 24 - (20 if len(rows) > n else 0)
    body = _lookup_heads(table, out, (num_rows, dim), len(rows), ink, least_font, table_bottom)
    span = table_bottom - _LOOKUP_TOP
    for t in sorted(range(n), key=lambda t: t in marked):  # a marked row's lines are drawn on top
        y = _LOOKUP_TOP + t * _ROW_H + _ROW_H / 2
        ry = _LOOKUP_TOP + span * (rows[t] + 0.5) / num_rows  # the row's place in the tall table
        body += _lookup_row(labels[t], rows[t], y, ry, t in marked, (fill, ink), least_font)
    if len(rows) > n:
        more = f"… {len(rows) - n:,} more rows"
        body.append(_text(_SLICE_X + _SLICE_W / 2, height - 14, more, max(14, least_font), fill=MUTED))
    label = f"Lookup: {out} takes {len(rows):,} rows of {table}"
    if shown := [t for t in sorted(marked) if t < n]:
        picks = ", ".join(f"row {rows[t]:,} at t = {t}" for t in shown)
        label += f"; the followed token's {picks} {'is' if len(shown) == 1 else 'are'} marked"
    return _svg(500, height, label, body)


# --- 3. Broadcasting ------------------------------------------------------------------------------

_SLAB_W, _SLAB_H, _STEP = 108, 72, 7  # one [T, d] slab and the offset between stacked slabs
_LABEL_W = 170  # width of a tensor's name in bold 18 px ("input_embeddings"), centred under its stack


def _stack(
    x: float, y: float, count: int, color: str, ghosts: bool = False, mark: tuple[int, int] | None = None
) -> list[str]:
    """``count`` slabs (at most ``MAX_SLABS``) drawn back to front, the front one at (x, y).

    ``ghosts``: only the front slab is real; the ones behind it are dashed outlines (a stride-0 view).
    ``mark``: (slab k, the band's top and height): that slab gets a thick outline and a band across it.
    """
    fill, ink = TENSOR_COLORS[color]
    parts = []
    for k in reversed(range(min(count, MAX_SLABS))):
        style = {"stroke_dasharray": "6 4", "fill_opacity": "0.15"} if ghosts and k else {}
        sx, sy = x + k * _STEP, y - k * _STEP
        if mark is not None and k == mark[0]:
            parts.append(_rect(sx, sy, _SLAB_W, _SLAB_H, fill, INK, rx=4, stroke_width=3.5))
            parts.append(_rect(sx, sy + mark[1][0], _SLAB_W, mark[1][1], MARKED, INK, stroke_width=2.5))
        else:
            parts.append(_rect(sx, sy, _SLAB_W, _SLAB_H, fill, ink, rx=4, stroke_width=1.5, **style))
    return parts


def _broadcast_column(
    x: float, name: str, shape: tuple[int, int, int], top: float, label_y: float, small: int, slab
) -> list[str]:
    """One tensor's stack at ``x`` with its sizes T and d, its name and shape under it and, for B > 1, the
    note above it; ``slab``: the marked slab and band (``_stack``'s ``mark``)."""
    B, T, d = shape
    ghosts = name == "pos_embeddings"
    depth = (min(B, MAX_SLABS) - 1) * _STEP
    body = _stack(x, top, 1 if ghosts and B == 1 else B, name, ghosts, slab)
    ink = TENSOR_COLORS[name][1]
    cy = top + _SLAB_H / 2
    body.append(_text(x - 8, cy, f"T = {T:,}", small, fill=MUTED, transform=f"rotate(-90 {x - 8} {cy})"))
    body.append(_text(x + _SLAB_W / 2, top + _SLAB_H + 18, f"d = {d:,}", small, fill=MUTED))
    body.append(_text(x + (_SLAB_W + depth) / 2, label_y + 8, name, 18, fill=ink, font_weight="bold"))
    body.append(_text(x + (_SLAB_W + depth) / 2, label_y + 32, shape_str((T, d) if ghosts else shape), 20))
    if B > 1:
        more = f" … ×{B:,}" if B > MAX_SLABS else ""
        note = f"read ×{B:,}, not copied" if ghosts else f"B = {B:,}{more}"
        body.append(_text(x + _SLAB_W + depth, top - depth - 4, note, small, "end", MUTED))  # over the back
    return body


def _broadcast_label(batch_size: int, context_length: int, dim: int, mark: tuple[int, int] | None) -> str:
    """The broadcasting picture's accessible label: the add with its shapes, and the followed token."""
    B, T, d = batch_size, context_length, dim
    label = (
        f"Broadcasting: token_embeddings {shape_str((B, T, d))} + pos_embeddings {shape_str((T, d))} "
        f"(repeated over B = {B:,} without copying) = input_embeddings {shape_str((B, T, d))}"
    )
    if mark is not None:
        label += f"; the followed token is marked: row t = {mark[1]:,} of sequence b = {mark[0]:,}"
        label += (
            " and row t of the table"
            if mark[0] < MAX_SLABS
            else f" (behind the {MAX_SLABS} sequences drawn), row t of the table"
        )
    return label


def broadcast_svg(
    batch_size: int,
    context_length: int,
    dim: int,
    mark: tuple[int, int] | None = None,
    least_font: int = 0,
) -> str:
    """``token_embeddings [B, T, d] + pos_embeddings [T, d] → input_embeddings [B, T, d]``, drawn.

    The position table is one slab; its ghost copies behind it are the stride-0 view over B. ``mark``:
    the followed token's (b, t): slab b of both batches and the table are outlined, with a band at row t.
    ``least_font``: the smallest text's size (the sizes T and d, and the notes above the stacks, are 14).
    """
    small = max(14, _least(least_font))
    lift = small - 14  # a larger note above the stacks moves them down
    B, T, d = int(batch_size), int(context_length), int(dim)
    band = None
    if mark is not None:  # row t's band, at least 6 units tall (a row of 1,024 is thinner than a line)
        height = max(6.0, _SLAB_H / T)
        band = (min(_SLAB_H - height, _SLAB_H * mark[1] / T), height)
    depth = (min(B, MAX_SLABS) - 1) * _STEP
    col_w = _SLAB_W + depth
    margin = max(0.0, (_LABEL_W - col_w) / 2)  # a name under a thin stack (small B) overhangs it
    gap = max(54.0, 2 * margin + 10)
    cols = [30 + margin, 30 + margin + col_w + gap, 30 + margin + 2 * (col_w + gap)]
    top = 16 + lift + depth
    width, label_y = round(cols[2] + col_w + margin + 16), top + _SLAB_H + 34
    body = []
    for x, name in zip(cols, ("token_embeddings", "pos_embeddings", "input_embeddings"), strict=True):
        ghosts = name == "pos_embeddings"
        no_slab = band is None or (not ghosts and mark[0] >= MAX_SLABS)
        slab = None if no_slab else (0 if ghosts else mark[0], band)
        body += _broadcast_column(x, name, (B, T, d), top, label_y, small, slab)
    halo = {"stroke": "#ffffff", "stroke_width": 4, "paint_order": "stroke"}  # readable over a band
    for x, name in zip(cols, ("b = 0", "one table", "b = 0"), strict=True):
        body.append(_text(x + _SLAB_W / 2, top + _SLAB_H / 2 + 6, name, 17, **(halo if band else {})))
    # Each sign a little left of its gap's middle: the next stack's "T = …" stands on the gap's right.
    for x, sign in ((cols[1] - gap / 2 - 6, "+"), (cols[2] - gap / 2 - 6, "=")):
        body.append(_text(x, top + _SLAB_H / 2 + 12, sign, 36))
    shapes = f"[{B}, {T}, {d}] + [{T}, {d}] → [{B}, {T}, {d}]"
    body.append(_text(width / 2, label_y + 66, shapes, 20, fill=MUTED))
    return _svg(width, label_y + 78, _broadcast_label(B, T, d, mark), body)
