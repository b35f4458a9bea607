"""Every page shows its own script whole and offers it as a .py and as a notebook."""

import pytest

PAGES = {
    "pages/Pipeline.py": "pipeline",
    "pages/Why_position.py": "why_position",
    "pages/Attention.py": "attention",
    "pages/Families.py": "families",
    "pages/Training.py": "training",
    "pages/Trained_positions.py": "trained_positions",
}


@pytest.mark.parametrize("page", PAGES)
def test_every_view_offers_its_script_and_notebook(page, open_page):
    at = open_page(page)
    assert not at.exception
    assert "PyTorch code for this view" in [e.label for e in at.expander]
    name = PAGES[page]
    labels = {b.label for b in at.get("download_button")}
    assert {f"{name}.py", f"{name}.ipynb"} <= labels
    code = next(c.value for c in at.code if c.value.startswith('"""'))  # the whole script, docstring first
    assert "import torch" in code and "print(json.dumps(" in code
    assert "core." not in code  # the lesson's code, not the app's own modules
