"""A page whose sections are tabs draws only the open one (``ui.open_tabs``): ``every_tab`` opens it once
per tab, as links to each would, and reads the runs together as the whole page a reader scrolls through."""

from __future__ import annotations

from collections.abc import Callable, Sequence


class EveryTab:
    """AppTest runs read as one page: each element list (``metric``, ``caption``, ``get(kind)`` ...) is
    the runs' lists in turn; ``runs[k]`` is the run with tab k open."""

    def __init__(self, runs: list):
        self.runs = runs

    def get(self, kind: str) -> list:
        return [e for at in self.runs for e in at.get(kind)]

    def __getattr__(self, name: str) -> list:
        return [e for at in self.runs for e in getattr(at, name)]


def every_tab(open_page: Callable, page: str, key: str, labels: Sequence[str], **params) -> EveryTab:
    """``page`` opened with each of ``labels`` as its open tab (URL parameter ``key``) and ``params``."""
    return EveryTab([open_page(page, **params, **{key: label}) for label in labels])
