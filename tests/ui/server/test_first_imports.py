"""The server's first imports without the collector (ui.server.first_imports), and a real fresh server's."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ui.server import first_imports

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def fresh_process(monkeypatch):
    """ui.server.first_imports as a new server process has it: nothing imported yet."""
    monkeypatch.setattr(first_imports, "_done", False)
    assert gc.isenabled()
    yield
    gc.enable()
    gc.unfreeze()


def test_the_first_imports_run_without_the_collector_and_what_they_made_is_frozen(fresh_process):
    frozen = gc.get_freeze_count()
    with first_imports.imports_without_collection():
        assert not gc.isenabled()
        made = [[] for _ in range(1000)]  # what an import leaves alive
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen + len(made)
    assert all(o is not made for o in gc.get_objects())  # no collection walks it


def test_later_runs_freeze_nothing(fresh_process, monkeypatch):
    with first_imports.imports_without_collection():
        pass
    # Counted by thread, not by gc.get_freeze_count(): another thread's run may freeze meanwhile
    # (ui.server.runtime)
    freezes, me = [], threading.get_ident()
    monkeypatch.setattr(gc, "freeze", lambda: freezes.append(threading.get_ident()))
    with first_imports.imports_without_collection():
        assert gc.isenabled()  # the collector stays on: a run's objects may yet become garbage
        alive = [[] for _ in range(1000)]
    assert me not in freezes and alive


def test_a_run_that_finds_the_collector_off_leaves_it_so(fresh_process):
    gc.disable()  # another run is importing
    with first_imports.imports_without_collection():
        assert not gc.isenabled()
    assert not gc.isenabled()  # the run that turned it off turns it on again
    assert not first_imports._done  # and that run still does the freeze


def test_the_collector_is_on_again_when_an_import_fails(fresh_process):
    with pytest.raises(ImportError), first_imports.imports_without_collection():
        import not_a_module  # noqa: F401
    assert gc.isenabled()


def test_the_entry_point_imports_torch_pandas_and_altair_within_the_block():
    # A fresh interpreter, as a fresh server has: the block must come before torch is imported,
    # which it is not if any module imported ahead of it imports torch.
    code = (
        "import sys, gc\n"
        "from ui.server.first_imports import imports_without_collection\n"
        "assert 'torch' not in sys.modules and 'pandas' not in sys.modules and 'altair' not in sys.modules\n"
        "with imports_without_collection():\n"
        "    from ui.app import end_run, start_run\n"
        "    assert not gc.isenabled()\n"
        "assert gc.isenabled() and gc.get_freeze_count() > 200_000\n"
        "assert {'torch', 'pandas', 'altair'} <= set(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    entry = (ROOT / "app_script.py").read_text()
    assert entry.index("with imports_without_collection():") < entry.index("from ui.app import")
