"""AppTest, made to start runs the way a server does, and the helpers every page test shares.

A server takes Streamlit's legacy ``pages/`` path only for the first script run of its process
(``st.navigation`` then turns it off, see ``ui.navigation.PAGES``), but AppTest resets that flag before
every run. Here only an AppTest's first run takes the legacy path, as a fresh server's first request.
"""

import threading
from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

_first_run = threading.local()


@pytest.fixture(autouse=True, scope="session")
def _legacy_path_only_on_the_first_run():
    run, init = AppTest._run, PagesManager.__init__

    def first_run_tracking(self, *args, **kwargs):
        _first_run.value = not getattr(self, "_has_run", False)
        self._has_run = True
        return run(self, *args, **kwargs)

    def server_like_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if not getattr(_first_run, "value", True):
            PagesManager.uses_pages_directory = False

    AppTest._run, PagesManager.__init__ = first_run_tracking, server_like_init
    yield
    AppTest._run, PagesManager.__init__ = run, init


APP = str(Path(__file__).resolve().parents[2] / "app_script.py")
PIPELINE = "pages/Pipeline.py"
START = "pages/Start.py"  # the default page, at "/"


def open_app(page: str = PIPELINE, *, first_request: bool = False, **params: str) -> AppTest:
    """The app opened directly at ``page`` with URL ``params``, as a link opens it on a running server.

    With ``first_request`` it is the first request to a fresh server instead: that run executes the page
    file itself (the legacy ``pages/`` path). Every later run starts at the entry point.
    """
    at = AppTest.from_file(APP, default_timeout=120)
    at._has_run = not first_request  # read by first_run_tracking above
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
