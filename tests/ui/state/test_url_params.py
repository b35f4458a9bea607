"""Bad URL values are explained and replaced by the default, visibly, on every page."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui.conftest import APP, ServerAppTest
from ui.navigation import PAGES as NAVIGATION
from ui.state.url_params import (
    MAX_SENTENCE_CHARS,
    MAX_WHOLE,
    SLIDE,
    WHOLE,
    accepted,
    defaults,
    parse,
    problem,
    url_text,
)

PAGES = [path for path, *_ in NAVIGATION]  # every page (Attention and Long context were left out)


def test_every_setting_has_a_default():
    assert set(accepted()) == set(defaults())


@pytest.mark.parametrize(
    "key, value, why",
    [
        ("vocab", "inf", "is not a whole number"),
        ("context", "-inf", "is not a whole number"),
        ("dim", "1.5", "is not a whole number"),
        ("dim", "abc", "is not a whole number"),
        ("dim", "0x10", "is not a whole number"),
        ("dim", "1e308", "is not a whole number"),
        ("base", "nan", "is not a finite number"),
        ("base", "inf", "is not a finite number"),
        ("method", "unknown", "is not one of nope, learned"),
        ("extrapolate", "16", "is not one of 1, 2, 4, 8"),
        ("dim", "１２", "is not a whole number"),  # int("１２") is 12: a link carries ASCII digits only
        ("dim", "٣", "is not a whole number"),
        ("seed", "1_000", "is not a whole number"),
        ("base", "1_000", "is not a number"),
        ("base", "１２", "is not a number"),
        ("base", "1e309", "is not a finite number"),  # float("1e309") is inf
        ("base", "-Infinity", "is not a finite number"),
        ("dim", "", "is empty"),
        ("dim", "  ", "is empty"),
        ("dim", "99999999999999999999999", "is beyond ±9,007,199,254,740,991"),
        ("seed", "-9007199254740992", "is beyond ±9,007,199,254,740,991"),
        ("space", "TRUE", "is not one of true, false"),
        ("slide", "0", "is not a section number"),
        ("slide", "3.0", "is not a section number"),
        ("slide", "3.2.1", "is not a section number"),
        ("slide", "-1", "is not a section number"),
        ("slide", "99999", "is not a section number"),
    ],
)
def test_problem_names_what_is_wrong(key, value, why):
    assert problem(key, value).startswith(why)


@pytest.mark.parametrize(
    "key, value", [("dim", "64"), ("seed", "-1"), ("base", "500000.0"), ("method", "rope")]
)
def test_good_values_pass(key, value):
    assert problem(key, value) is None  # ranges (seed -1) are the page's validate's to explain


@pytest.mark.parametrize(
    "key, value, canonical",
    [
        ("dim", " 64 ", "64"),
        ("dim", "+64", "64"),
        ("dim", "0064", "64"),
        ("seed", "-0", "0"),
        ("seed", str(MAX_WHOLE), "9007199254740991"),
        ("base", " 5e5 ", "5e5"),
        ("base", ".5", ".5"),
        ("base", "1e308", "1e308"),
        ("method", "rope", "rope"),
        ("slide", " 03.02 ", "3.2"),
        ("slide", "12", "12"),
    ],
)
def test_parse_writes_a_value_the_one_way_the_widget_reads_it(key, value, canonical):
    assert parse(key, value) == canonical


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize(
    "key, value", [("vocab", "inf"), ("dim", "1.5"), ("steps", "inf"), ("method", "**x**")]
)
def test_a_bad_value_is_explained_and_the_default_used(page, key, value):
    at = ServerAppTest(APP, first_request=True)
    at.query_params[key] = value
    at.run()  # the entry point checks the URL on the first run, whatever the page
    assert not at.exception
    warning = next(w.value for w in at.warning if "URL parameter" in w.value)
    assert f"URL parameter **{key}**" in warning and "using the default" in warning
    assert "**x**" not in warning  # the value is shown as text, escaped
    assert key not in at.query_params
    at.switch_page(page).run()
    assert not at.exception


@pytest.mark.parametrize("page", ["pages/Training.py", "pages/Trained_positions.py"])
def test_every_page_checks_the_sidebar_settings(page, open_page):
    at = open_page(page, seed="-1")
    assert "Seed must be between 0" in " ".join(e.value for e in at.error)


def test_every_url_bound_widget_travels_in_a_copied_link(open_page):
    # Copy link carries url_keys(); a widget can only bind a registered key, and every key is drawn somewhere.
    from core.positional.family import FAMILIES
    from ui.state.url_keys import BOUND_KEYS, url_keys
    from ui.state.url_params import TEXT_KEYS

    BOUND_KEYS.clear()  # only what these runs bind (another test may have registered a family of its own)
    for page in PAGES:
        open_page(page)
    for method in FAMILIES:  # the Families controls depend on the method
        open_page("pages/Families.py", method=method)
    open_page("pages/Pipeline.py", present="true")
    for rope_type in ("yarn", "longrope"):  # the Long context fields depend on the rope_type
        open_page("pages/Long_context.py", lc_rope_type=rope_type)
    assert BOUND_KEYS == set(url_keys())
    assert BOUND_KEYS - set(accepted()) == set(TEXT_KEYS)  # every other one is parsed; a sentence is text


def test_a_widget_cannot_bind_a_key_nobody_registered():
    from ui.state.url_keys import register_url_keys, url_bound

    with pytest.raises(KeyError, match="register_url_keys"):
        url_bound("not_a_setting")
    assert url_bound("steps")["key"] == "steps"  # registered by ui.training.views
    assert register_url_keys("b") == ("b",)


def warnings(at: AppTest) -> str:
    return " ".join(w.value for w in at.warning)


def test_an_odd_but_valid_number_is_rewritten_without_a_message(open_page):
    at = open_page("pages/Pipeline.py", dim=" +0064 ", base=" 5e5 ")
    assert not at.exception and "URL parameter" not in warnings(at)
    assert at.sidebar.number_input(key="dim").value == 64
    assert at.query_params["dim"] in ("64", ["64"])


def test_a_repeated_key_keeps_its_last_value_and_says_so(open_page):
    at = open_page("pages/Pipeline.py", dim=["abc", "inf", "64"])
    assert not at.exception
    assert "URL parameter **dim** is given 3 times: using the last, “64”." in warnings(at)
    assert at.sidebar.number_input(key="dim").value == 64


def test_a_repeated_key_whose_last_value_is_bad_takes_the_default(open_page):
    at = open_page("pages/Pipeline.py", dim=["64", "inf"])
    assert not at.exception
    assert "is given 2 times" in warnings(at) and "= “inf” is not a whole number" in warnings(at)
    assert at.sidebar.number_input(key="dim").value == defaults()["dim"]


def test_keys_that_are_no_setting_are_named_and_dropped(open_page):
    at = open_page("pages/Pipeline.py", dimm="64", **{"**x**": "1"})
    assert not at.exception
    assert "URL parameters **dimm**, **\\*\\*x\\*\\*** are not settings of this app: ignored." in warnings(at)
    assert "dimm" not in at.query_params


def test_a_sentence_longer_than_the_box_is_cut_and_says_so(open_page):
    long = "\U0001f600" * 400
    at = open_page("pages/Why_position.py", a=long)
    assert not at.exception
    assert f"URL parameter **a** has 400 characters: using its first {MAX_SENTENCE_CHARS}." in warnings(at)
    assert at.text_input(key="a").value == long[:MAX_SENTENCE_CHARS]


def _widget_values(key: str) -> list[object]:
    """Values a widget of ``key`` can hold in the session, of the types Streamlit gives them."""
    kind, default = accepted()[key], defaults()[key]
    if key in ("space", "present"):
        return [True, False]  # toggles hold bools
    if isinstance(kind, tuple):
        return list(kind)
    if kind == SLIDE:
        return ["1", "3.2", "12"]  # no widget: the slide shown, written by ui.slides.Slides
    if key in ("token", "token_a", "token_b"):
        return [
            0,
            5,
            1000,
        ]  # no widget: the followed token's place in the text (or sentence), none by default
    if kind == WHOLE:
        return [int(default), int(default) + 7, -3]
    given = [float(default)] if isinstance(default, int | float) else []  # "blank": a number left out
    return [*given, 0.5, 1e-05, 1e16, 123456.789]


@pytest.mark.parametrize("key", sorted(accepted()))
def test_the_one_writer_writes_what_the_reader_keeps(key):
    for value in _widget_values(key):
        text = url_text(key, value)
        assert parse(key, text) == text, (key, value, text)
        assert problem(key, text) is None


def test_booleans_are_written_as_the_reader_spells_them():
    # Python's str(False) is "False", which the reader refuses.
    assert url_text("space", False) == "false" and url_text("present", True) == "true"
    assert url_text("a", "The dog bites the man") == "The dog bites the man"  # sentences are text


def test_copy_link_writes_every_setting_through_the_one_writer():
    import ui.sidebar  # noqa: F401  (registers present and the settings)
    import ui.why_position.sentences  # noqa: F401  (registers a, b, space)
    from ui.state.url_keys import url_settings

    state = {"space": False, "present": True, "seed": 7, "base": 500000.0, "method": "alibi", "a": "x y"}
    assert url_settings(state) == {
        "space": "false",
        "present": "true",
        "seed": "7",
        "base": "500000.0",
        "method": "alibi",
        "a": "x y",
    }
    assert url_settings({"seed": 2**60}) == {}  # a value no reader takes is left out: the reader's default


def _read_settings_without_widgets():
    import streamlit as st

    from ui.state.url_params import url_value

    st.write(repr([url_value("head", 1), url_value("causal", True), url_value("base", 10000.0)]))


@pytest.mark.parametrize(
    "given, read",
    [
        ({}, [1, True, 10000.0]),  # no URL: the defaults
        ({"head": " +3 ", "causal": "false", "base": "500"}, [3, False, 500.0]),  # read as parse writes
        ({"head": "1.5", "causal": "maybe", "base": "inf"}, [1, True, 10000.0]),  # bad: the defaults
    ],
)
def test_a_page_reads_another_pages_settings_from_the_url_with_the_one_parser(given, read):
    at = AppTest.from_function(_read_settings_without_widgets)
    for key, value in given.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    assert at.markdown[0].value == repr(read)
