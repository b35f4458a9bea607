"""Bad URL values are explained and replaced by the default, visibly, on every page."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui.test_pages import APP, open_page
from ui.url_params import accepted, defaults, problem

PAGES = [
    "pages/Pipeline.py",
    "pages/Why_position.py",
    "pages/Families.py",
    "pages/Training.py",
    "pages/Trained_positions.py",
]


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
    ],
)
def test_problem_names_what_is_wrong(key, value, why):
    assert problem(key, value).startswith(why)


@pytest.mark.parametrize(
    "key, value", [("dim", "64"), ("seed", "-1"), ("base", "500000.0"), ("method", "rope")]
)
def test_good_values_pass(key, value):
    assert problem(key, value) is None  # ranges (seed -1) are the page's validate's to explain


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize(
    "key, value", [("vocab", "inf"), ("dim", "1.5"), ("steps", "inf"), ("method", "**x**")]
)
def test_a_bad_value_is_explained_and_the_default_used(page, key, value):
    at = AppTest.from_file(APP, default_timeout=120)
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
def test_every_page_checks_the_sidebar_settings(page):
    at = open_page(page, seed="-1")
    assert "Seed must be between 0" in " ".join(e.value for e in at.error)


def test_every_url_bound_widget_travels_in_a_copied_link():
    # Copy link carries url_keys(); a widget can only bind a registered key, and every key is drawn somewhere.
    from core.config import FAMILIES
    from ui.url_keys import BOUND_KEYS, url_keys

    for page in PAGES:
        open_page(page)
    for method in FAMILIES:  # the Families controls depend on the method
        open_page("pages/Families.py", method=method)
    open_page("pages/Pipeline.py", present="true")
    assert BOUND_KEYS == set(url_keys())
    assert BOUND_KEYS - set(accepted()) == {"a", "b"}  # every other one is checked; a sentence is any text


def test_a_widget_cannot_bind_a_key_nobody_registered():
    from ui.url_keys import register_url_keys, url_bound

    with pytest.raises(KeyError, match="register_url_keys"):
        url_bound("not_a_setting")
    assert url_bound("steps")["key"] == "steps"  # registered by ui.training_views
    assert register_url_keys("b") == ("b",)
