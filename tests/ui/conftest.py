"""AppTest, made to start runs the way a server does.

A server takes Streamlit's legacy ``pages/`` path only for the first script run of its process
(``st.navigation`` then turns it off, see ``ui.sidebar.PAGES``), but AppTest resets that flag before
every run. Here only an AppTest's first run takes the legacy path, as a fresh server's first request.
"""

import threading

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
