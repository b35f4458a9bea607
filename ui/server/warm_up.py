"""A fresh server's work before it takes its first session, for a class that opens the link at once.

``streamlit_app.py`` runs it in the server's start-up (the lifespan of Streamlit's ``st.App``), before
the server answers:

* ``warm_up()``: every module the script and the pages import (torch, pandas, Altair, the app's own)
  and GPT-2's BPE;
* ``warm_up_run()``: one run of the main page at its defaults in a session of its own that no client
  sees (Streamlit's script check, ``Runtime.does_script_run_without_error``). It compiles the script,
  fills the shared caches for the default text and settings, builds the page's chart templates, and
  ends Streamlit's legacy multipage path (see ``ui.navigation``) before any student's run.

Without it, the first session of a fresh server would pay all of that inside its first run, and
thirty sessions opening the link together would wait for it.
"""

from __future__ import annotations

import ast
import importlib
import logging
import time
from pathlib import Path

from ui.server.first_imports import imports_without_collection

ROOT = Path(__file__).resolve().parents[2]


def page_imports() -> list[str]:
    """The modules that ``app_script.py`` and every page import, in the order they name them."""
    names: list[str] = []
    for script in [ROOT / "app_script.py", *sorted((ROOT / "pages").glob("*.py"))]:
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.append(node.module)
    return list(dict.fromkeys(names))


def warm_up() -> None:
    """Import what the pages import (without the cyclic collector, then frozen: ``ui.server.first_imports``)
    and build GPT-2's encoding."""
    with imports_without_collection():
        for name in page_imports():
            importlib.import_module(name)
    from ui.server.cache import warm_tokenizer

    warm_tokenizer()


async def warm_up_run() -> bool:
    """The main page run once at its defaults, in a session no client sees; whether it ran without an
    error (if not, the server still starts, and the log says why)."""
    from streamlit.runtime import Runtime

    ok, why = await Runtime.instance().does_script_run_without_error()
    if not ok:
        logging.getLogger(__name__).warning("the warm-up run of the main page did not succeed: %s", why)
    return ok


async def warmed_up_server() -> None:
    """``warm_up()`` then ``warm_up_run()``, and a line in the server's log that says so."""
    start = time.perf_counter()
    warm_up()
    ran = await warm_up_run()
    print(
        f"  Warmed up in {time.perf_counter() - start:.1f} s: the pages' imports, GPT-2's BPE"
        + (" and the main page's first run." if ran else "; the main page's first run failed."),
        flush=True,
    )
