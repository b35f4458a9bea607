"""Small drawing helpers shared by the pages. User text is always escaped before it is shown."""

from __future__ import annotations

import html

import streamlit as st

from core.pipeline import Step
from core.units import human_bytes, human_count, shape_str

_CSS = """
<style>
.chips { max-height: 15rem; overflow-y: auto; line-height: 2.1;
         font-family: ui-monospace, monospace; font-size: 0.86rem; }
.chip { display: inline-block; border-radius: 6px; padding: 0 6px; margin: 0 3px 3px 0;
        border: 1px solid #d1d5db; white-space: pre; }
.chip sub { color: #4b5563; font-size: 0.72rem; margin-left: 3px; }
.chip.c0 { background: #dbeafe; } .chip.c1 { background: #fef3c7; }
.chip.c2 { background: #dcfce7; } .chip.c3 { background: #fce7f3; }
.chip.special { background: #1f2937; color: #f9fafb; }
/* The diagrams (core.diagrams, drawn with st.image) fill a phone's width; wider screens keep their size. */
@media (max-width: 640px) { [data-testid="stImage"] img { width: 100% !important; height: auto !important; } }
</style>
"""


def page_setup(title: str, icon: str, sidebar_collapsed: bool = False) -> None:
    """First call of every page: page config and the shared style (presenting: sidebar collapsed)."""
    st.set_page_config(
        page_title=f"{title} · Positional Embeddings Explorer",
        page_icon=icon,
        layout="wide",
        initial_sidebar_state="collapsed" if sidebar_collapsed else "auto",
    )
    st.html(_CSS)


def token_chips(pieces: list[str], ids: list[int], special_id: int | None = None) -> None:
    """Tokens as coloured chips with their IDs; every piece is HTML-escaped."""
    chips = []
    for k, (piece, token_id) in enumerate(zip(pieces, ids, strict=True)):
        shown = html.escape(piece.replace("\n", "↵").replace(" ", "·"))
        cls = "special" if token_id == special_id else f"c{k % 4}"
        chips.append(f'<span class="chip {cls}">{shown}<sub>{token_id}</sub></span>')
    st.html(f'<div class="chips">{"".join(chips)}</div>')


def picture(svg: str) -> None:
    """A diagram from ``core.diagrams``, drawn as an image; its accessible label becomes the alt text."""
    label = svg.split('aria-label="', 1)[1].split('"', 1)[0]
    st.image(svg, alt=html.unescape(label), width="content")


def step_header(number: int, step: Step) -> None:
    """A step's title, its line of code and its shape, parameters and bytes."""
    st.subheader(f"{number}. {step.title}")
    st.code(step.code, language="python", wrap_lines=True)
    step_metrics(step)


def step_metrics(step: Step) -> None:
    """A step's shape, parameters and bytes."""
    c1, c2, c3 = st.columns(3)
    c1.metric(f"`{step.name}` shape", shape_str(step.shape), help=f"dtype {step.dtype}")
    c2.metric("Parameters", human_count(step.params), help=f"{step.params:,} trainable values")
    c3.metric("Memory", human_bytes(step.nbytes), help=step.memory_help or f"{step.nbytes:,} bytes")
