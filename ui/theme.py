"""Text colours the app sets once, each at least 4.5:1 on white (WCAG AA for text): every chart's labels
and titles (an Altair theme, enabled on import) and the code highlighter's (``CODE_CSS``, every page).

Streamlit's theme (``.streamlit/config.toml``) sets the rest; ``tests/ui/test_theme_contrast.py`` checks
them all.
"""

from __future__ import annotations

import altair as alt

TEXT = "#141312"  # the theme's textColor: body text, and a chart's titles
MUTED = "#55524e"  # a chart's axis and legend labels, its subtitle: 7.8:1, lighter than the titles
CHART_TEXT = {  # Streamlit's chart theme draws them #808495, 3.7:1; a chart's own colours still win
    "axis": {"labelColor": MUTED, "titleColor": TEXT},
    "legend": {"labelColor": MUTED, "titleColor": TEXT},
    "header": {"labelColor": MUTED, "titleColor": TEXT},
    "title": {"color": TEXT, "subtitleColor": MUTED},
}


# An Altair theme, not a config set on each chart (``ui.presenter.readable``): Altair merges it into a
# spec as it converts the chart, where a kept chart's spec is built once (``core.views.browser_spec``),
# while a chart's copy with a config of its own would be converted again on every rerun. A theme other
# than Altair's "default" is kept as it is (that one is turned off, as Streamlit does, for its sizes).
@alt.theme.register("explorer", enable=True)
def _chart_theme() -> alt.theme.ThemeConfig:
    return alt.theme.ThemeConfig(config={part: dict(values) for part, values in CHART_TEXT.items()})


# Streamlit colours code tokens from a fixed palette, 2.2-3.8:1 on its code background (#fcfcfb) for
# strings, numbers, keywords, operators and comments, and line numbers at 2.6:1; the theme has no option
# for them. The same hues, darker; the code block (``stCode``) and its ``pre`` make these rules outrank
# Streamlit's.
CODE_TOKENS = {
    ".token.keyword, .token.tag, .token.function, .token.class-name, .token.selector": "#1d4ed8",
    ".token.string, .token.char, .token.attr-value, .token.boolean, .token.constant, .token.symbol, "
    ".token.inserted": "#15803d",
    ".token.number, .token.regex": "#0f766e",
    ".token.attr-name, .token.property, .token.variable": "#0369a1",
    ".token.operator, .token.entity, .token.decorator, .token.atrule": "#c2410c",
    ".token.comment, .token.prolog, .token.doctype, .token.cdata, .token.punctuation, .token.unchanged, "
    ".linenumber": "#5b6170",
    ".token.important, .token.deleted": "#b91c1c",
}
CODE_CSS = (
    "<style>\n"
    + "\n".join(
        f'[data-testid="stCode"] pre :is({tokens}) {{ color: {color}; }}'
        for tokens, color in CODE_TOKENS.items()
    )
    + "\n</style>"
)
