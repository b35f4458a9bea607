"""The one place a chart is drawn: a spec that stays the same while only its numbers change, so the
browser updates the chart's data in place instead of building it again (``core.views.browser_spec``)."""

from __future__ import annotations

import html

import streamlit as st

from core.views.browser_spec import browser_spec
from ui.presenter import readable


def draw(chart, where=None, *, width: int | str = "stretch", height: int | str = "content") -> None:
    """``chart`` in ``where`` (a column, a tab; the page by default), as tall as ``height``.

    Its accessible name is fixed (its title); what it shows, written from its numbers, follows it as a
    sentence a screen reader reads and the screen does not draw.
    """
    where = st if where is None else where
    drawn = browser_spec(readable(chart))
    where.vega_lite_chart(spec=drawn.spec, width=width, height=height)
    if drawn.said:
        where.markdown(f'<p class="chart-said">{html.escape(drawn.said)}</p>', unsafe_allow_html=True)
