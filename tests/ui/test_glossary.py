"""Every word the lecture does not teach is defined where a student first meets it: each page's text, read
in reading order (``tests.ui.visible_text``), uses no glossary term before its definition, at the
defaults, under every method and under every preset; and the Glossary page lists every term."""

import re

import pytest

from core.positional.family import FAMILIES
from core.presets import PRESETS
from core.views.glossary import TERMS, define, defined_in, first_undefined, plain
from tests.ui.visible_text import undefined_words
from ui.attention.heatmaps import EVERY_FAMILY_TABS
from ui.families.close_up import close_up_parts
from ui.families.compare import SECTION_TABS as FAMILIES_TABS
from ui.long_context.views import SECTION_TABS as LONG_CONTEXT_TABS
from ui.navigation import GLOSSARY, PAGES
from ui.todays_models.views import SECTION_TABS as TODAY_TABS
from ui.trained_positions.views import KINDS
from ui.trained_positions.views import SECTION_TABS as TRAINED_TABS

EVERY_PAGE = [stop.path for stop in PAGES]
CLOSE_UP_TABS = [(m, tab) for m in FAMILIES for tab in close_up_parts(m) if len(close_up_parts(m)) > 1]
METHOD_PAGES = ["pages/Why_position.py", "pages/Pipeline.py", "pages/Attention.py", "pages/Families.py"]
CASES = (
    [(page, {}) for page in EVERY_PAGE]
    + [(page, {"method": m}) for page in METHOD_PAGES for m in FAMILIES if m != "learned"]
    + [("pages/Pipeline.py", {"preset": p}) for p in PRESETS if p != "book"]
    + [("pages/Families.py", {"preset": p}) for p in ("llama3-8b", "bloom-176b", "t5-base")]
    + [("pages/Pipeline.py", {"batch": "1", "context": "1", "vocab": "257"})]
    # a tab drawn alone (only the open one is) defines its own words
    + [
        ("pages/Families.py", {"method": m, "families_section": tab})
        for m in FAMILIES
        for tab in FAMILIES_TABS[1:]
    ]
    + [
        (
            "pages/Families.py",
            {"method": m, "families_section": FAMILIES_TABS[2], "close_up": tab.capitalize()},
        )
        for m, tab in CLOSE_UP_TABS
    ]
    + [("pages/Attention.py", {"maps": tab}) for tab in EVERY_FAMILY_TABS]
    + [("pages/Trained_positions.py", {"tables": tab}) for tab in KINDS]
    + [("pages/Trained_positions.py", {"trained_section": tab}) for tab in TRAINED_TABS]
    + [("pages/Long_context.py", {"section": tab}) for tab in LONG_CONTEXT_TABS]
    + [("pages/Todays_models.py", {"today_section": tab}) for tab in TODAY_TABS]
)


def _id(case) -> str:
    page, params = case
    return page.removeprefix("pages/").removesuffix(".py") + "".join(f"-{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_no_word_is_used_before_it_is_defined(case, open_page):
    page, params = case
    at = open_page(page, **params)
    assert not at.exception
    assert not undefined_words(at), "used before defined: " + "; ".join(undefined_words(at))


def test_the_reader_finds_a_word_used_before_its_definition():
    between = "Many more words come between the use and its definition. " * 2  # past the slack
    late = f"The cosine is 0.48. {between}{define('cosine similarity')}."
    early = f"The {define('cosine similarity', 'cosine')} is 0.48."
    assert [name for name, _ in first_undefined(late)] == ["cosine similarity"]
    assert first_undefined(early) == []
    assert first_undefined("No such word here.") == []


def test_the_words_a_text_defines_are_found_by_their_definitions():
    text = f"The {define('causal mask')} and the {define('score', 'scores')}; the word chunk, plain."
    assert set(defined_in(text)) == {"score", "causal mask"}
    assert defined_in("the causal mask, plain") == ()


def test_a_word_inside_another_words_definition_is_no_use():
    assert first_undefined(define("score")) == []  # its definition speaks of attention


def test_the_glossary_page_lists_every_term_by_topic(open_page):
    at = open_page(GLOSSARY.path)
    assert not at.exception
    text = plain("\n".join(m.value for m in at.markdown))
    assert all(f"{term.name}: {term.gloss}" in text for term in TERMS)
    assert [h.value for h in at.subheader] == list(dict.fromkeys(term.topic for term in TERMS))


def test_every_page_links_to_the_glossary(open_page):
    at = open_page("pages/Pipeline.py")
    assert GLOSSARY.title in [link.proto.label for link in at.sidebar.get("page_link")]


# What a tooltip written for a programmer says: an API's name, a formula in code, an internal key as a
# name. (An option's own name, such as a layout called "fairseq", may be said: the box shows it.)
PROGRAMMERS = re.compile(
    r"torch\.manual_seed|rotate_half|base\^|\(-i/|\bmax_length of\b|\bdtype\b"
    r"|\*\*(?:nope|learned|sinusoidal|shaw|t5|alibi|rope)\*\*"
)


@pytest.mark.parametrize("page", ["pages/Pipeline.py", "pages/Families.py", "pages/Attention.py"])
def test_every_tooltip_is_written_for_a_student(page, open_page):
    at = open_page(page)
    widgets = [
        w for kind in ("number_input", "selectbox", "toggle", "radio", "select_slider") for w in at.get(kind)
    ]
    helps = {w.label: w.help for w in widgets if w.help}
    # The sidebar's settings say theirs in captions under them (no "?" button, no Tab stop of its own).
    helps |= {f"sidebar caption {k}": c.value for k, c in enumerate(at.sidebar.caption)}
    assert helps, "no tooltip found"
    bad = {label: PROGRAMMERS.findall(text) for label, text in helps.items() if PROGRAMMERS.search(text)}
    assert not bad, bad
