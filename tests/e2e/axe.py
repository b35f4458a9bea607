"""axe-core (bundled by ``axe-playwright-python``, injected into the page: no network) on a page as
drawn now: WCAG 2.0, 2.1 and 2.2 at level A and AA, one h1, and every text a chart draws as SVG at
least 4.5:1 on white (axe leaves a chart's SVG text out). Every violation found, of any impact, is
also written to ``test-results/axe/<where>.json``."""

from __future__ import annotations

import json
import os
import re

import pytest

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # requirements-dev.txt installs it (make setup-dev)
    if os.environ.get("CI"):
        raise
    Axe = None

from tests.contrast import AA_TEXT, contrast, over
from tests.e2e.conftest import SHOTS

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]  # axe's tags for WCAG 2.0–2.2, A and AA
BLOCKING = ("serious", "critical")
_AXE = Axe() if Axe else None
# The page's whole height: axe reads a text's background at its place on the screen, so every text must
# be on it. Streamlit scrolls inside stMain, not the window.
HEIGHT_JS = """() => Math.max(...['stAppScrollToBottomContainer', 'stMain', 'stSidebarContent']
  .map(id => document.querySelector(`[data-testid=${id}]`)).filter(Boolean).map(e => e.scrollHeight))"""
# Every text of a chart drawn as SVG.
_CHART_TEXT_JS = """() => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg text')]
  .filter(t => t.textContent.trim())
  // its words, its fill, the fill's opacity
  .map(t => { const s = getComputedStyle(t);
    return [t.textContent.trim().slice(0, 40), s.fill, +s.fillOpacity]; })"""


def violations(page, where: str) -> list[dict]:
    """axe's violations of ``TAGS`` on the page as drawn now, recorded under ``where``."""
    if _AXE is None:
        pytest.skip("axe-playwright-python is missing: make setup-dev")
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    if not page.evaluate("() => typeof window.axe === 'object'"):  # once a page: the script is 0.6 MB
        page.evaluate(_AXE.axe_script)
    found = page.evaluate("(options) => axe.run(document, options)", options)["violations"]
    folder = SHOTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9]+", "_", where).strip("_")
    (folder / f"{name}.json").write_text(json.dumps(found, indent=1))
    return found


def faint_chart_text(page, where: str) -> list[str]:
    """Every text a chart draws under 4.5:1 on the page's white (charts have no background of their own)."""
    return [
        f"{where}: chart text “{text}” is {fill} at {contrast(over(fill, '#ffffff', opacity)):.2f}:1"
        for text, fill, opacity in page.evaluate(_CHART_TEXT_JS)
        if contrast(over(fill, "#ffffff", opacity)) < AA_TEXT
    ]


def headings(page, where: str) -> list[str]:
    """A complaint unless the page has exactly one h1."""
    titles = page.locator("h1").all_inner_texts()
    return [] if len(titles) == 1 else [f"{where}: {len(titles)} h1 ({titles})"]


def blocking(found: list[dict], where: str) -> list[str]:
    """One line per node of each serious or critical violation: where, rule, impact, target, html."""
    return [
        f"{where}: {v['id']} ({v['impact']}) at {' '.join(map(str, node['target']))}: "
        f"{' '.join(node['html'].split())[:160]}"
        for v in found
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]


def problems(page, name: str, where: str) -> list[str]:
    """Everything above, on the page as drawn now (axe's violations recorded as ``name``)."""
    return blocking(violations(page, name), where) + headings(page, where) + faint_chart_text(page, where)
