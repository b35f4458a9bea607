"""The README stays a first page, and every relative link in it and in docs/ leads somewhere.

A first page: at most 150 lines, with the two commands (start the app; run every test, as CI does) in
its first 40. A link: a Markdown link or image, or an HTML ``src``/``href``, whose target is a file of
the repository (and, with a ``#fragment`` into a Markdown file, one of that file's headings).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
FIRST_PAGE_LINES = 150
COMMANDS_WITHIN_LINES = 40
RUN_COMMAND = "make run"  # the Makefile's own first line names it beside `make test`

FENCE = re.compile(r"^(```|~~~)[^\n]*\n.*?^\1[ \t]*$", re.M | re.S)
INLINE_CODE = re.compile(r"`+[^`\n]*`+")
MARKDOWN_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"<(?:img|a|source)\b[^>]*?\b(?:src|href)\s*=\s*[\"']([^\"']+)[\"']", re.I)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto:, … (not the repository's)
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def prose(markdown: str) -> str:
    """The text outside code: a link written inside backticks or a fenced block is an example."""
    return INLINE_CODE.sub("", FENCE.sub("", markdown))


def anchors(markdown: str) -> set[str]:
    """Each heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens,
    ``-1``, ``-2`` … after a repeated one."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", markdown)):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(document: Path) -> list[str]:
    """The relative links of ``document`` whose file, or whose heading, does not exist."""
    text = document.read_text(encoding="utf-8")
    body = prose(text)
    broken = []
    for target in [*MARKDOWN_LINK.findall(body), *HTML_LINK.findall(body)]:
        if SCHEME.match(target) or target.startswith("//"):
            continue
        path, _, fragment = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        if not resolved.exists():
            broken.append(f"{target}: no file {resolved}")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved.read_text("utf-8")):
            broken.append(f"{target}: no heading #{fragment} in {resolved.name}")
    return broken


def code_lines(markdown: str) -> dict[str, int]:
    """Each line of a fenced code block, with the line number it is on (its first occurrence)."""
    found: dict[str, int] = {}
    for block in FENCE.finditer(markdown):
        first = markdown.count("\n", 0, block.start()) + 1
        for offset, line in enumerate(block.group(0).splitlines()[1:-1], start=1):
            found.setdefault(line.strip(), first + offset)
    return found


def ci_test_command() -> str:
    """The test command CI runs: the command line of ``.ci/run`` that is a ``make`` call."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    commands = [line.strip() for line in lines if re.match(r"\s*make\b", line)]
    assert len(commands) == 1, f".ci/run should run exactly one make command, runs {commands}"
    return commands[0]


@pytest.mark.parametrize("document", DOCUMENTS, ids=[str(d.relative_to(ROOT)) for d in DOCUMENTS])
def test_every_relative_link_leads_to_a_file(document):
    assert broken_links(document) == []


def test_a_link_to_a_missing_file_or_heading_is_found(tmp_path):
    (tmp_path / "there.md").write_text("# Here it is\n\n## Here it is\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md) [ok](there.md#here-it-is-1) ![ok](there.md) [web](https://example.org/x)\n"
        "`[example](nowhere.md)`\n\n```\n[example](nowhere.md)\n```\n"
        '[gone](missing.md) ![gone](img/missing.png) [gone](there.md#elsewhere) <img src="gone.png">\n'
    )
    broken = broken_links(page)
    assert [entry.split(":")[0] for entry in broken] == [
        "missing.md",
        "img/missing.png",
        "there.md#elsewhere",
        "gone.png",
    ]


def test_the_readme_is_a_first_page():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= FIRST_PAGE_LINES, f"README.md has {len(lines)} lines; move detail to docs/"


@pytest.mark.parametrize("command", [RUN_COMMAND, ci_test_command()])
def test_the_readme_shows_both_commands_early(command):
    found = code_lines(README.read_text(encoding="utf-8"))
    assert command in found, f"README.md shows no code line `{command}`"
    assert found[command] <= COMMANDS_WITHIN_LINES, f"`{command}` is on line {found[command]} of README.md"


def test_the_run_command_is_a_make_target():
    target = RUN_COMMAND.split()[1]
    assert re.search(rf"^{target}:", (ROOT / "Makefile").read_text(), re.M)
