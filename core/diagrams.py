"""The broadcasting diagram: ``[B, T, d] + [T, d] → [B, T, d]`` drawn as SVG from three integers."""

from __future__ import annotations

from core.units import shape_str

_SLAB_W, _SLAB_H, _OFFSET = 120, 70, 9  # one [T, d] slab and the step between stacked slabs
_MAX_DRAWN = 8  # slabs drawn per stack; more are summarized by the label


def _stack(x: int, y: int, count: int, fill: str, dashed: bool = False) -> str:
    """``count`` slabs drawn back to front, the front one at (x, y)."""
    shown = min(count, _MAX_DRAWN)
    parts = []
    for k in reversed(range(shown)):
        dx, dy = k * _OFFSET, -k * _OFFSET
        style = 'stroke-dasharray="5 4" fill-opacity="0.25"' if dashed and k else 'fill-opacity="0.9"'
        parts.append(
            f'<rect x="{x + dx}" y="{y + dy}" width="{_SLAB_W}" height="{_SLAB_H}" rx="4" '
            f'fill="{fill}" stroke="#1f2937" stroke-width="1.2" {style}/>'
        )
    return "".join(parts)


def broadcast_svg(batch_size: int, context_length: int, dim: int) -> str:
    """SVG of the broadcasting add for shapes B, T, d (integers only: nothing user-typed)."""
    B, T, d = int(batch_size), int(context_length), int(dim)
    top = 30 + (min(B, _MAX_DRAWN) - 1) * _OFFSET
    depth = (min(B, _MAX_DRAWN) - 1) * _OFFSET
    cols = [20, 240, 460]
    text = 'font-family="sans-serif" text-anchor="middle" fill="#111827"'
    label_y = top + _SLAB_H + 26
    cx = [c + (_SLAB_W + depth) // 2 for c in cols]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {cols[2] + _SLAB_W + depth + 20} '
        f'{label_y + 44}" width="100%" role="img" aria-label="Broadcasting add diagram">',
        _stack(cols[0], top, B, "#93c5fd"),
        _stack(cols[1], top, B, "#fcd34d", dashed=True),
        _stack(cols[2], top, B, "#86efac"),
        f'<text x="{cols[1] - 30}" y="{top + _SLAB_H // 2 + 8}" font-size="30" {text}>+</text>',
        f'<text x="{cols[2] - 30}" y="{top + _SLAB_H // 2 + 8}" font-size="30" {text}>=</text>',
        f'<text x="{cx[0]}" y="{label_y}" font-size="15" {text}>token_embeddings</text>',
        f'<text x="{cx[0]}" y="{label_y + 20}" font-size="14" {text}>{shape_str((B, T, d))}</text>',
        f'<text x="{cx[1]}" y="{label_y}" font-size="15" {text}>pos_embeddings</text>',
        f'<text x="{cx[1]}" y="{label_y + 20}" font-size="14" {text}>{shape_str((T, d))} → '
        f"repeated ×{B:,}</text>",
        f'<text x="{cx[2]}" y="{label_y}" font-size="15" {text}>input_embeddings</text>',
        f'<text x="{cx[2]}" y="{label_y + 20}" font-size="14" {text}>{shape_str((B, T, d))}</text>',
        f'<text x="{cols[1] + _SLAB_W // 2}" y="{top + _SLAB_H // 2 + 5}" font-size="13" {text}>'
        f"one {T:,} × {d:,} table</text>",
        "</svg>",
    ]
    return "".join(parts)
