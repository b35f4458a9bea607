"""What keeps a change cheap in the browser: a rerun's elements keep their places, so the browser updates
them instead of drawing them anew, and every table is an HTML table, drawn with the page."""

import pytest
from streamlit.testing.v1 import AppTest

from ui.navigation import PAGES


def places(at: AppTest) -> list[str]:
    """The kind of each element at the top of the page, in order (a block's kind for a block)."""
    return [getattr(node, "type", type(node).__name__) for node in at.main.children.values()]


@pytest.mark.parametrize("stop", PAGES, ids=lambda stop: stop.title)
def test_a_change_keeps_every_element_in_its_place(stop, open_page):
    # Opened without settings in its link, the page draws a note that only a link's first run checks.
    at = open_page(stop.path)
    opened = places(at)
    at.query_params["seed"] = "7"  # a browser's bound widget writes its new value into the address
    at.sidebar.number_input(key="seed").set_value(7).run()
    assert not at.exception
    assert places(at) == opened


@pytest.mark.parametrize("stop", PAGES, ids=lambda stop: stop.title)
def test_tables_are_html_tables(stop, open_page):
    at = open_page(stop.path)
    assert not at.exception
    assert not at.dataframe  # a data grid redraws its screen readers' copy 0.2 s after every change
