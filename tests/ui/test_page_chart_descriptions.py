"""Every chart a page draws says what it shows: a description of its own (a screen reader's name for it),
the page's own sentence where it writes one beside the chart."""

import pytest

from core.positional.family import FAMILIES
from tests.core.prose import prose_problems
from tests.ui.drawn_charts import drawn
from tests.ui.every_tab import every_tab
from ui.attention.heatmaps import EVERY_FAMILY_TABS
from ui.families.compare import SECTION_TAB as FAMILIES_TAB
from ui.families.compare import SECTION_TABS as FAMILIES_TABS
from ui.long_context.views import SECTION_TABS

PAGES = [
    ("pages/Pipeline.py", {}),
    ("pages/Families.py", {}),
    ("pages/Families.py", {"method": "rope"}),
    ("pages/Families.py", {"method": "alibi"}),
    ("pages/Families.py", {"method": "t5"}),
    ("pages/Families.py", {"method": "shaw"}),
    ("pages/Families.py", {"method": "sinusoidal"}),
    ("pages/Attention.py", {}),
    ("pages/Attention.py", {"a": "dog", "b": "dog"}),
    ("pages/Long_context.py", {}),
    ("pages/Trained_positions.py", {}),
    ("pages/Trained_positions.py", {"present": "true", "slide": "3.2"}),
    ("pages/Families.py", {"present": "true", "slide": "2.1"}),
    ("pages/Attention.py", {"present": "true", "slide": "4"}),
]


def descriptions(at) -> list[str]:
    """Each chart's sentence: what follows it for a screen reader (its spec keeps a fixed name)."""
    return [d.said for d in drawn(at)]


@pytest.mark.parametrize(("page", "params"), PAGES, ids=[f"{p}?{q}" for p, q in PAGES])
def test_every_chart_on_a_page_has_a_description_of_its_own(page, params, open_page):
    at = open_page(page, **params)
    assert not at.exception
    said = descriptions(at)
    assert said, "the page draws charts"
    assert all(isinstance(s, str) and len(s) > 30 for s in said), said
    assert len(set(said)) == len(said), said  # two charts never share a name
    assert not prose_problems("\n".join(said)), prose_problems("\n".join(said))


def test_a_heatmaps_description_ends_with_the_note_written_under_it(open_page):
    at = open_page("pages/Pipeline.py", context="64", dim="512")
    notes = [c.value for c in at.caption if c.value.startswith("Downsampled for drawing")]
    heatmaps = [s for s in descriptions(at) if "a heatmap of" in s]
    assert len(heatmaps) == 3 and notes
    for said, note in zip(heatmaps, notes, strict=True):
        assert said.endswith(note)
        assert "values from " in said


def test_families_panels_and_matrices_say_the_findings_the_page_lists(open_page):
    at = every_tab(open_page, "pages/Families.py", FAMILIES_TAB, FAMILIES_TABS)  # each section drawn alone
    findings = [
        line.removeprefix("- ")
        for m in at.markdown
        if m.value.startswith("**What to look at.**")
        for line in m.value.splitlines()[1:]
    ]
    said = descriptions(at)
    assert len(findings) >= 10
    assert all(finding in said for finding in findings)  # each finding is one chart's name, word for word


def test_attentions_small_multiples_say_each_familys_signature(open_page):
    signatures = []
    for tab in EVERY_FAMILY_TABS:  # only the open tab's maps are drawn
        at = open_page("pages/Attention.py", maps=tab)
        said = set(descriptions(at))
        labels = tuple(f"{f.label} changes " for f in FAMILIES.values())
        shown = [c.value for c in at.caption if c.value.startswith(labels)]
        assert shown and all(s in said for s in shown)
        signatures += shown
    assert len(signatures) == len(FAMILIES)


def test_long_contexts_charts_say_the_pages_findings(open_page):
    at = open_page("pages/Long_context.py")
    said = descriptions(at)
    page = " ".join(m.value for m in at.markdown)
    pairs = next(s for s in said if s.startswith("Positions per full turn"))
    assert "trained L = " in pairs  # its own numbers, then the page's sentence word for word
    assert pairs[pairs.index("Of the ") :] in page
    at = open_page("pages/Long_context.py", section=SECTION_TABS[3])  # the measured run's tab
    said, page = descriptions(at), " ".join(m.value for m in at.markdown)
    measured = next(s for s in said if s.startswith("Before position"))
    assert measured.split(" A dashed line")[0] in page
