"""The first page of a fresh server against a fresh ``python`` run of the book's script.

    .venv/bin/python benchmarks/cold_start.py [--repeats 5]

Alternating, ``--repeats`` times each:

* **book**: a new ``python`` process runs the book's ch. 2.8 code once (``benchmarks/rerun_cpu.py``'s
  ``GPTDatasetV1``, ``DataLoader``, both ``nn.Embedding`` layers, lookups, add) on ``the-verdict.txt``
  at its settings (V 50,257, d 256, T 4, B 8), from its imports (torch, tiktoken's GPT-2 BPE, loaded
  offline) to its exit;
* **app**: ``streamlit run`` starts a fresh server, and one session (Streamlit's websocket protocol, as
  ``benchmarks/ws_load_test.py`` speaks it) asks for the main page at the same settings and waits for its
  finished run: from the server process's start to that run's end.

Each is reported as wall time and as CPU time (the book's child process; the server process up to
the end of the first run), with the app / book ratio of the medians (goal: ≤ 1.5×).

``--python``: the interpreter both run with (default: this one). A deployed server's environment has
the app's packages alone (``requirements-local.txt``), and that matters here: when its runtime starts,
Streamlit reads the metadata of every installed package to find components (0.27 s with the
development environment's ~100 packages, about half that with the app's own).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.rerun_cpu import BOOK_FUNCTIONS  # noqa: E402
from benchmarks.ws_load_test import cpu_seconds, open_page, shown_errors  # noqa: E402
from tests.e2e.conftest import start_server  # noqa: E402

VERDICT = ROOT.parent / "shared" / "data" / "the-verdict.txt"
# The book's functions from rerun_cpu.py, run once from a cold interpreter: no warm-up, no loop.
BOOK_ONCE = BOOK_FUNCTIONS + 'text = open(sys.argv[1], encoding="utf-8").read()\nprint(body(text, 123, 8))\n'


def book_once(python: str) -> tuple[float, float]:
    """(wall s, CPU s) of a fresh ``python`` running the book's code once."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([python, "-c", BOOK_ONCE, str(VERDICT), "{}", str(ROOT)], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


async def first_page(base: str) -> None:
    if errors := shown_errors(await open_page(base)):
        raise RuntimeError(f"the first page showed errors: {errors}")


def app_once(python: str) -> tuple[float, float]:
    """(wall s, server CPU s) from a fresh server's start to its first page's finished run."""
    import psutil

    start = time.perf_counter()
    server = start_server(python=python)
    try:
        asyncio.run(first_page(server.url))
        wall = time.perf_counter() - start
        return wall, cpu_seconds(psutil.Process(server.proc.pid))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--python", default=sys.executable, help="the interpreter the server and the book run with"
    )
    args = parser.parse_args()
    if not VERDICT.exists():
        sys.exit(f"{VERDICT} is missing (the book's text)")
    book, app = [], []
    for k in range(args.repeats):
        book.append(book_once(args.python))
        app.append(app_once(args.python))
        print(
            f"run {k + 1}: book {book[-1][0]:.2f} s wall, {book[-1][1]:.2f} s CPU; "
            f"app {app[-1][0]:.2f} s wall, {app[-1][1]:.2f} s CPU",
            flush=True,
        )
    for what, i in (("wall", 0), ("CPU", 1)):
        b, a = statistics.median(r[i] for r in book), statistics.median(r[i] for r in app)
        print(f"median {what}: book {b:.2f} s, app {a:.2f} s: {a / b:.2f}x (goal <= 1.5x)")


if __name__ == "__main__":
    main()
