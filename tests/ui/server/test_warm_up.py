"""The server's warm-up before it answers (ui.server.warm_up), and its launcher (streamlit_app.py)."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from streamlit.web.server.app_discovery import discover_asgi_app

from ui.server import warm_up

ROOT = Path(__file__).resolve().parents[3]


def run(coroutine):
    """``coroutine``'s result, run in a thread of its own: a browser test earlier in the session leaves
    Playwright's event loop running in this one (``asyncio.run`` refuses to start there)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_streamlit_run_finds_the_app_that_warms_up_and_serves_the_script():
    found = discover_asgi_app(ROOT / "streamlit_app.py")
    assert found.is_asgi_app and found.import_string == "streamlit_app:app"
    import streamlit_app

    assert streamlit_app.app.script_path == Path("app_script.py")
    assert (ROOT / "app_script.py").is_file()
    assert streamlit_app.app._user_lifespan is streamlit_app.warmed_up


def test_the_warm_up_imports_the_script_and_every_page_names():
    names = warm_up.page_imports()
    # one from the script and a few from different pages, each named by that file alone
    pages = ["ui.attention.heatmaps", "ui.long_context.views", "ui.training.views"]
    assert {"ui.app", "ui.navigation", *pages} <= set(names)
    assert {"dataclasses", "streamlit"} <= set(names)  # third-party and standard modules named too
    assert len(names) == len(set(names))


def test_a_fresh_interpreter_warmed_up_has_every_page_import_and_gpt2s_bpe():
    code = (
        "import sys, gc\n"
        "from ui.server.warm_up import page_imports, warm_up\n"
        "assert 'torch' not in sys.modules and 'altair' not in sys.modules\n"
        "warm_up()\n"
        "missing = [name for name in page_imports() if name not in sys.modules]\n"
        "assert not missing, missing\n"
        # what the imports made is frozen (ui.server.first_imports): far more than the collector still walks
        "assert gc.isenabled() and gc.get_freeze_count() > 100 * len(gc.get_objects())\n"
        "from ui.server.cache import counts\n"
        "assert counts('core.text.tokenizer._gpt2_encoding').builds == 1  # GPT-2's BPE, built once\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


class _FailingRuntime:
    async def does_script_run_without_error(self):
        return False, "error"


def test_a_failed_warm_up_run_is_logged_and_the_server_starts_all_the_same(monkeypatch, caplog):
    from streamlit.runtime import Runtime

    monkeypatch.setattr(Runtime, "instance", classmethod(lambda cls: _FailingRuntime()))
    with caplog.at_level(logging.WARNING, logger="ui.server.warm_up"):
        assert run(warm_up.warm_up_run()) is False
    assert "did not succeed: error" in caplog.text


@pytest.mark.slow
def test_a_fresh_server_has_run_the_main_page_before_it_answers():
    from benchmarks.ws_load_test import open_page, shown_errors
    from tests.e2e.conftest import running_server

    with running_server() as server:  # returns once /_stcore/health answers: after the start-up
        deadline = time.monotonic() + 10  # the line was printed then; its reader thread may lag
        while "Warmed up in" not in "".join(server.output) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "and the main page's first run." in "".join(server.output)
        assert not shown_errors(run(open_page(server.url)))
