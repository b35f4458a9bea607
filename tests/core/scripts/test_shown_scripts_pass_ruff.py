"""The script every page shows, as it shows it, passes the project's own ruff config.

The text depends on the settings (seeds, long values, a pasted text, long sentences), so each page is
opened at several and the code block it draws is checked, not a script built here.
"""

from pathlib import Path

import pytest

from core.config import MAX_SEED
from ui.navigation import ROUTE

ROOT = Path(__file__).resolve().parents[3]
LONG_WORD = "Supercalifragilistic" * 6  # 120 characters and no space: a literal must still be split
LONG_VALUES = {"vocab": "1000000", "dim": "12288", "seed": str(MAX_SEED), "method": "t5"}
# Each page's own settings at long values, on top of LONG_VALUES.
PAGE_VALUES = {
    "Pipeline": {"text": f"{LONG_WORD} and a few words, then {LONG_WORD[:99]}.", "context": "64"},
    "Why_position": {"a": f"The {LONG_WORD} sat", "b": f"sat the {LONG_WORD}", "space": "false"},
    "Families": {"base": "500000.123456789", "clip": "8192", "max_distance": "65536", "heads": "128"},
    "Training": {
        "method": "alibi",
        "corpus": "sidebar",
        "sample": "log",
        "train_context": "64",
        "steps": "999",
    },
    "Attention": {"method": "shaw", "clip": "8192"},
}
SETTINGS = {
    "defaults": {},
    "max-seed-rope": {"seed": str(MAX_SEED), "method": "rope", "context": "16"},
    "long-values": LONG_VALUES,
}
CASES = [
    pytest.param(
        path,
        name,
        {**params, **(PAGE_VALUES.get(url, {}) if name == "long-values" else {})},
        id=f"{url}-{name}",
    )
    for path, _, _, url, *_ in ROUTE
    if (ROOT / path).is_file()
    for name, params in SETTINGS.items()
]


def shown_script(at) -> str:
    """The whole script the page draws (its docstring first), as shown (a file ends with a newline)."""
    scripts = [c.value for c in at.code if c.value.startswith('"""')]
    assert len(scripts) == 1, "one script per page"
    return scripts[0].rstrip("\n") + "\n"


@pytest.mark.parametrize("page, name, params", CASES)
def test_the_script_as_shown_passes_ruff(page, name, params, open_page, ruff):
    at = open_page(page, code=True, **params)
    assert not at.exception
    assert ruff(shown_script(at)) == ""


def test_ruff_here_fails_a_line_too_long(ruff):
    """The check can fail: one character over the project's 110 columns is a finding (E501)."""
    assert ruff("x = 1\n") == ""
    assert "E501" not in ruff(f"x = {'1' * 106}\n")  # 110 characters
    assert "E501" in ruff(f"x = {'1' * 107}\n")  # 111
