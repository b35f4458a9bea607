"""Every page shows its own script whole and offers it as a .py and as a notebook."""

import re
from pathlib import Path

import pytest

from ui.navigation import ROUTE

# Every step of the route (a new page cannot be left out) and its script's name: pages/Why_position.py ->
# why_position.py and why_position.ipynb.
PAGES = {path: Path(path).stem.lower() for path, *_ in ROUTE}


@pytest.mark.parametrize("page", PAGES)
def test_every_view_offers_its_script_and_notebook(page, open_page):
    at = open_page(page, code=True)
    assert not at.exception
    assert "PyTorch code for this view" in [e.label for e in at.expander]
    name = PAGES[page]
    labels = {b.label for b in at.get("download_button")}
    assert {f"{name}.py", f"{name}.ipynb"} <= labels
    code = next(c.value for c in at.code if c.value.startswith('"""'))  # the whole script, docstring first
    assert "import torch" in code and "print(json.dumps(" in code
    assert not re.search(r"\bcore\.", code)  # the lesson's code, not the app's own modules
