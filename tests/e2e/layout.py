"""Reusable checks of what a browser actually draws: sizes, widths, cut-off boxes and dialogs.

AppTest sees every element a script sends; only a browser shows whether it was drawn. These checks
read the laid-out page (``getBoundingClientRect``), as ``shared/tools/shoot`` does.
"""

from __future__ import annotations

VIEWPORTS = {"desktop": (1400, 2400), "phone": (390, 844)}
MIN_CHART_WIDTH = {"desktop": 400, "phone": 300}  # px a chart's drawing needs to be read

_PROBLEMS_JS = """(minChart) => {
  const out = [];
  const box = e => e.getBoundingClientRect();
  const name = e => e.getAttribute('data-testid') || e.tagName;
  document.querySelectorAll('[data-testid="stHtml"], [data-testid="stImage"] img').forEach(e => {
    const b = box(e), styleOnly = /<style/i.test(e.innerHTML || '');
    if ((b.width < 2 || b.height < 2) && !styleOnly) out.push('drawn with no size: ' + name(e));
  });
  document.querySelectorAll('.vega-embed').forEach(e => {
    const c = e.querySelector('canvas, svg'); const w = c ? box(c).width : 0;
    if (w < minChart) out.push('chart only ' + Math.round(w) + 'px wide');
  });
  const shown = e => e.offsetParent !== null && !e.closest('details:not([open])') && box(e).width > 100;
  const boxes = '[data-testid="stCode"] pre, pre.code-line, [data-testid="stTable"]';
  document.querySelectorAll(boxes).forEach(e => {
    if (shown(e) && e.scrollWidth > e.clientWidth + 4) out.push('cut off at the right: ' + name(e));
  });
  const main = document.querySelector('[data-testid="stMain"]');
  if (main && main.scrollWidth > main.clientWidth + 4) out.push('page wider than the screen');
  document.querySelectorAll('[role="dialog"]').forEach(e => out.push('dialog: ' + e.innerText.slice(0, 60)));
  return out;
}"""


def layout_problems(page, min_chart_width: int) -> list[str]:
    """What a screenshot can hide: no-size elements, narrow charts, cut-off code or tables, dialogs."""
    return page.evaluate(_PROBLEMS_JS, min_chart_width)


def drawn_size(locator) -> tuple[float, float]:
    """The width and height the browser gave an element (0, 0 when it is not laid out)."""
    box = locator.bounding_box()
    return (box["width"], box["height"]) if box else (0.0, 0.0)


def settle_layout(page, min_chart_width: int, timeout: float = 30_000) -> None:
    """Wait until ``layout_problems`` finds nothing, or ``timeout`` ms pass (the caller then asserts them).

    Vega sizes a chart to its container only after drawing it, so a check right after the first draw
    can see a narrow chart that is about to widen.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"({_PROBLEMS_JS})({min_chart_width}).length === 0", timeout=timeout)
    except PlaywrightTimeout:
        pass  # the caller's assertion shows the problems
