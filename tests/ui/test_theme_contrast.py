"""Text colours set once for the whole app reach WCAG AA (4.5:1): the theme's text, captions and inline
code (``.streamlit/config.toml``), the code highlighter's tokens and every chart's labels and titles
(``ui.theme``). A later theme change cannot bring back grey captions."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.contrast import AA_TEXT, contrast, over
from ui.theme import CODE_TOKENS, MUTED, TEXT

ROOT = Path(__file__).resolve().parents[2]
THEME = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["theme"]
# Streamlit 1.67's light theme: the page, the sidebar, a code span or block, as the browser computes them.
PAGE, SIDEBAR, CODE = "#ffffff", "#f8f8f7", "#fcfcfb"
CAPTION_OPACITY = 0.6  # Streamlit draws a caption at this opacity (theme.opacities.secondary): not an option
# The keys of a chart's config that colour a text, by config part (``ui.theme`` sets them).
TEXT_COLORS = {
    "axis": ("labelColor", "titleColor"),
    "legend": ("labelColor", "titleColor"),
    "header": ("labelColor", "titleColor"),
    "title": ("color", "subtitleColor"),
}


@pytest.mark.parametrize("background", [PAGE, SIDEBAR])
def test_text_and_captions_reach_aa(background):
    text = THEME["textColor"]
    assert contrast(text, background) >= AA_TEXT
    caption = over(text, background, CAPTION_OPACITY)
    assert contrast(caption, background) >= AA_TEXT, f"a caption is {caption} on {background}"


def test_inline_code_in_a_caption_reaches_aa():
    # The caption's opacity fades the code's text and its background alike.
    code = over(THEME["codeTextColor"], PAGE, CAPTION_OPACITY)
    background = over(THEME.get("codeBackgroundColor", CODE), PAGE, CAPTION_OPACITY)
    assert contrast(code, background) >= AA_TEXT
    assert contrast(THEME["codeTextColor"], THEME.get("codeBackgroundColor", CODE)) >= AA_TEXT


def test_the_charts_and_the_theme_share_one_text_colour():
    assert TEXT.lower() == THEME["textColor"].lower()
    assert contrast(MUTED) >= AA_TEXT


@pytest.mark.parametrize("tokens", CODE_TOKENS)
def test_every_code_token_reaches_aa(tokens):
    assert contrast(CODE_TOKENS[tokens], THEME.get("codeBackgroundColor", CODE)) >= AA_TEXT, tokens


@pytest.mark.parametrize("params", [{}, {"present": "true", "slide": "2"}])
def test_every_chart_drawn_has_dark_labels_and_titles(open_page, params):
    """Each chart a page draws, normal and presenting (Families: the most charts)."""
    at = open_page("pages/Families.py", **params)
    charts = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    assert charts
    for spec in charts:
        config = spec.get("config", {})
        for part, keys in TEXT_COLORS.items():
            for key in keys:
                color = config.get(part, {}).get(key)
                assert color and contrast(color) >= AA_TEXT, f"config.{part}.{key} is {color}"
