"""Presenter mode (URL ``present=true``): large type for a projector, and charts a back row can read.

The switch sits first in the shared sidebar and is bound to the URL, so it stays on through page
switches and reloads. Presenting, every page splits itself into slides (``ui.slides.Slides``), each of
which fits a 1280 × 720 projector (``tests/e2e/test_presenter_fit.py`` measures every one); a clicker's
keys press Reveal, Previous and Next (``ui.presenter_keys``), and a prediction box hides an answer until
the class has guessed it (``ui.predict``).
"""

from __future__ import annotations

import altair as alt
import streamlit as st

from core.views.chart_specs import unvalidated
from ui.presenter_keys import KEYS

PRESENT = "present"  # the switch's widget key and URL parameter
SCREEN_HEIGHT = 720  # px: the projector a section must fit (1280 × 720)
LEAST_FONT = 16  # px: the smallest text of a chart that a back row reads on that projector
_CSS = """
<style>
html { font-size: 135%; }
[data-testid="stMainBlockContainer"] { padding-top: 4.5rem; padding-bottom: 1rem; }
h1 { font-size: 1.75rem !important; padding: 0 0 0.3rem !important; }
h3 { padding-top: 0.2rem !important; padding-bottom: 0.4rem !important; }
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.6rem; }
[data-testid="stMetricValue"] { font-size: 2.6rem; }
/* A verdict is one line: half the box's padding leaves its slide the room of a map's rows. */
[data-testid="stAlertContainer"] { padding-top: 0.5rem; padding-bottom: 0.5rem; }
/* No heading links on a slide (Copy link names the slide): Next is a few Tabs from the top. */
[data-testid="stHeaderActionElements"] { display: none; }
[data-testid="stTable"] table { font-size: 1rem; }
[data-testid="stTable"] th, [data-testid="stTable"] td { padding-top: 0.15rem; padding-bottom: 0.15rem; }
/* A token chip's ID (ui.token_chips.token_chips): 0.72rem would be 15.6 px, under a back row's 16 (more
   specific than the chips' own rule, which may come later). */
.chips .chip sub { font-size: 0.75rem; }
/* On a wide screen the title shares the header's row: the header's buttons sit in its corners. */
@media (min-width: 900px) {
  [data-testid="stMainBlockContainer"] { padding-top: 1rem; }
  [data-testid="stHeader"] { background: transparent; pointer-events: none; }
  [data-testid="stHeader"] button, [data-testid="stHeader"] a { pointer-events: auto; }
}
</style>
"""
PRESENT_HOW = (  # the Start page's sentence (Markdown): how a teacher presents
    "**To present**, turn on **Presenter mode** at the top of the sidebar: one section at a time in large "
    "type, the class predicting each answer first; a clicker's → (or Page Down, Space) reveals the answer "
    "and moves on, ← goes back, and a link with `?present=true` opens a page already presenting."
)


def presenter_toggle(bound: dict) -> None:
    """The sidebar switch, bound to the URL parameter ``present`` (``bound``: its key and binding)."""
    if st.query_params.get(PRESENT) == "1":  # links written before the switch was bound say present=1
        st.query_params[PRESENT] = "true"
        st.session_state[PRESENT] = True
    st.toggle("Presenter mode", **bound)
    # Under the switch, not behind a "?" button: a Tab stop of its own before every page (ui.settings).
    st.caption("Large type for a projector, one section at a time, and a prediction before each answer.")


def presenting() -> bool:
    """True while presenter mode is on (the URL says ``present=true``)."""
    return bool(st.session_state.get(PRESENT)) or st.query_params.get(PRESENT) in ("1", "true")


def presenter_style() -> None:
    """Large type for a projector and the clicker's keys, when presenting."""
    if presenting():
        # In the sidebar, not on the slide, where an element with a script takes room.
        st.sidebar.html(_CSS + KEYS, unsafe_allow_javascript=True)


def readable(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """``chart`` with labels a back row can read when presenting, ready to draw (every chart passes here).

    Drawing skips Altair's schema validation: ``core.views.chart_specs.unvalidated``. A chart made
    readable already (a kept one) is given back as it is, so what is kept on it serves every draw.
    """
    if chart.__dict__.get("_readable"):
        return chart
    if presenting():  # every text of the chart at least LEAST_FONT px (a builder sets none smaller)
        chart = (
            chart.configure_axis(labelFontSize=17, titleFontSize=18)
            .configure_title(fontSize=18, subtitleFontSize=LEAST_FONT)  # Families: 3 panel titles a row
            .configure_legend(labelFontSize=LEAST_FONT, titleFontSize=17)
            .configure_header(labelFontSize=LEAST_FONT, titleFontSize=17)
            .configure_text(fontSize=LEAST_FONT)  # text marks: a rule's label
            # Drawn at a given height, a chart puts its title ~10 px above its own top, where it is cut off.
            .properties(padding={"top": 14, "right": 5, "bottom": 5, "left": 5})
        )
        object.__setattr__(chart, "_readable", True)  # Altair's __setattr__ would store a field
    return unvalidated(chart)


def slide_height(height: int, normal: int | str = "content") -> int | str:
    """A chart's ``height`` for ``ui.charts.draw``: ``height`` px when presenting (sized for the
    projector's screen), else ``normal``."""
    return height if presenting() else normal
