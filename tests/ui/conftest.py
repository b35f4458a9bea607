"""AppTest, made to start runs the way a server does, and the helpers every page test shares.

A server takes Streamlit's legacy ``pages/`` path only for the first script run of its process
(``st.navigation`` then turns it off, see ``ui.navigation.PAGES``), but AppTest resets that flag before
every run. ``ServerAppTest`` (what ``open_app`` returns) takes the legacy path only on a first request
to a fresh server, and starts every other run at the entry point, as a server does.
"""

from contextlib import contextmanager
from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from ui.code_view import OPEN


@contextmanager
def _entry_point_runs():
    """While it is open, a run starts at the entry point: the flag AppTest resets is set as the first
    run's ``st.navigation`` leaves it in a server (Streamlit offers no public way to set it)."""
    init = PagesManager.__init__

    def server_like_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = server_like_init
    try:
        yield
    finally:
        PagesManager.__init__ = init


class ServerAppTest(AppTest):
    """An AppTest whose runs start as a server's do; only this class's runs are changed, and only
    while they run (``_run`` is the one method every run, widget changes included, goes through)."""

    def __init__(self, script_path: str, *, first_request: bool = False, default_timeout: float = 120):
        super().__init__(script_path, default_timeout=default_timeout)
        self._legacy_run_due = first_request

    def _run(self, *args, **kwargs):
        if self._legacy_run_due:  # a fresh server's first request runs the page file itself
            self._legacy_run_due = False
            return super()._run(*args, **kwargs)
        with _entry_point_runs():
            return super()._run(*args, **kwargs)


APP = str(Path(__file__).resolve().parents[2] / "app_script.py")
PIPELINE = "pages/Pipeline.py"
START = "pages/Start.py"  # the default page, at "/"


def open_app(
    page: str = PIPELINE, *, first_request: bool = False, code: bool = False, **params: str
) -> AppTest:
    """The app opened directly at ``page`` with URL ``params``, as a link opens it on a running server.

    With ``first_request`` it is the first request to a fresh server instead: that run executes the page
    file itself (the legacy ``pages/`` path). Every later run starts at the entry point. With ``code`` the
    page's "PyTorch code for this view" is open, as after a student's click (closed, it is not built).
    """
    at = ServerAppTest(APP, first_request=first_request)
    at.session_state[OPEN] = code
    for key, value in params.items():
        at.query_params[key] = value
    if page != START:
        at.switch_page(page)
    return at.run()


def error_text(at: AppTest) -> str:
    """Every ``st.error`` message on the page, in one string."""
    return " ".join(e.value for e in at.error)


@pytest.fixture
def open_page():
    """``open_page(page, **params)``: an AppTest of the app opened at ``page`` (see ``open_app``)."""
    return open_app


@pytest.fixture
def errors():
    """``errors(at)``: every error message on the page, in one string."""
    return error_text


def answer_block(at):
    """The page's answer box (``ui.answer.show_answer``), or None."""

    def find(node):
        for child in getattr(node, "children", {}).values():
            if getattr(child.proto, "id", "").endswith("-answer"):
                return child
            if (found := find(child)) is not None:
                return found
        return None

    return find(at.main)


def page_metrics(at) -> list:
    """The page's metrics below its answer box (the evidence), in order."""
    box = answer_block(at)
    inside = {id(m) for m in box.get("metric")} if box is not None else set()
    return [m for m in at.metric if id(m) not in inside]
