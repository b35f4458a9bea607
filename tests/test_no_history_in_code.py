"""Code says why, not when: no comment, docstring or string refers to an issue by number.

The reason a mechanism exists belongs in the code in a clause, and what a test guards in the test's own
words; which issue asked for it belongs in git's history, and what it saved in ``docs/measurements.md``.
Checked: the product (core/, ui/, pages/ and the two entry scripts), the tests, benchmarks/ and tools/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = [
    *sorted(p for folder in ("core", "ui", "pages") for p in (ROOT / folder).rglob("*.py")),
    ROOT / "app_script.py",
    ROOT / "streamlit_app.py",
]
# The tests, benchmarks and tools, but not this file, whose examples are references on purpose.
SUPPORT = sorted(
    p
    for folder in ("tests", "benchmarks", "tools")
    for p in (ROOT / folder).rglob("*.py")
    if p != Path(__file__).resolve()
)
ISSUE = re.compile(r"\bissues?\s*#?\s*\d+", re.IGNORECASE)


def issue_references(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every reference to an issue by number in ``text``."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if ISSUE.search(line)]


@pytest.mark.parametrize(
    "line",
    ["# cached (issue 26)", '"""Kept (Issue #14: out of memory)."""', "# see issues 15 and 22", "# ISSUE 3"],
)
def test_an_issue_reference_is_found(line):
    assert issue_references(line) == [(1, line)]


@pytest.mark.parametrize(
    "line", ["# no issue here", "# the issue is 2 threads", "tissue 4", "# issues: none."]
)
def test_prose_about_an_issue_is_not_a_reference(line):
    assert issue_references(line) == []


def references_in(paths: list[Path]) -> list[str]:
    """``path:line: text`` of every reference to an issue by number in ``paths``."""
    return [
        f"{path.relative_to(ROOT)}:{n}: {line}"
        for path in paths
        for n, line in issue_references(path.read_text(encoding="utf-8"))
    ]


def test_product_code_names_no_issue():
    assert len(PRODUCT) > 20 and all(p.is_file() for p in PRODUCT)
    found = references_in(PRODUCT)
    assert not found, "say why in a clause, without the issue's number:\n" + "\n".join(found)


def test_tests_benchmarks_and_tools_name_no_issue():
    assert {p.relative_to(ROOT).parts[0] for p in SUPPORT} == {"tests", "benchmarks", "tools"}
    found = references_in(SUPPORT)
    assert not found, "say what the code checks or measures, without the issue's number:\n" + "\n".join(found)
