"""The heaviest view: the Families page at context 8192, per method, on a real server.

    .venv/bin/python benchmarks/families_bench.py [--no-browser] [--apptest] [--repeats 3]

Prints, for each close-up method at context 8192 (used length ×8 = 65,536 positions), on one
``streamlit run`` (tests/e2e/conftest.py) driven over Streamlit's websocket protocol
(benchmarks/rerun_cpu.py ``measure``): the server's CPU time of the session's first run on the page
and of a rerun after a "Seed" change (a new seed: nothing cached but the tokenizer; median of
--repeats, after one unmeasured change), the largest and the total chart payload the server sends
(protobuf bytes of the Vega-Lite elements; goal < 1 MB per view), and, in headless Chromium on a
fresh server, the time until the page has finished drawing. ``--apptest`` adds AppTest's rerun time
for comparison: AppTest skips the server's post-run ``gc.collect`` and the websocket writes, so it
shows far less than a server spends.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

METHODS = ["learned", "sinusoidal", "shaw", "t5", "alibi", "rope"]
QUERY = {"context": "8192", "extrapolate": "8"}


def apptest(method: str) -> float:
    """AppTest's median rerun time after a seed change (no server: no post-run GC, no websocket)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app_script.py"), default_timeout=300)
    for key, value in {**QUERY, "method": method}.items():
        at.query_params[key] = value
    at.run()  # the entry point first: it draws the sidebar (the seed) before the page
    at.switch_page("pages/Families.py").run()
    assert not at.exception and not at.error
    times = []
    for seed in (1, 2, 3):  # a new seed: nothing cached but the tokenizer
        at.number_input(key="seed").set_value(seed)
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


async def server_runs(repeats: int, quiet: float) -> dict[str, object]:
    """Per method: the rerun_cpu ``Measured`` of seed changes on the Families page (one server)."""
    import psutil
    from websockets.asyncio.client import connect

    from benchmarks.rerun_cpu import measure
    from benchmarks.ws_load_test import Client
    from tests.e2e.conftest import running_server

    out = {}
    with running_server() as server:
        proc = psutil.Process(server.proc.pid)
        url = server.url.replace("http://", "ws://") + "/_stcore/stream"
        async with connect(url, subprotocols=["streamlit"]) as ws:
            await Client(ws, server.url, {}).rerun()  # a fresh server's first run: the main page
        for method in METHODS:
            seeds = list(range(1, repeats + 2))  # the first change is not measured
            query = {**QUERY, "method": method}
            out[method] = await measure(server.url, proc, "Families", query, "Seed", seeds, 1, quiet)
    return out


def browser_times() -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, app_ready, running_server

    out = {}
    with running_server() as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for method in METHODS:
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            query = "&".join(f"{k}={v}" for k, v in {**QUERY, "method": method}.items())
            t = time.perf_counter()
            page.goto(f"{server.url}/Families?{query}")
            app_ready(page, timeout=300_000)
            page.wait_for_function(
                "document.querySelectorAll('[data-testid=stVegaLiteChart] canvas, "
                "[data-testid=stVegaLiteChart] svg').length >= 5",
                timeout=120_000,
            )
            out[method] = time.perf_counter() - t
            assert page.get_by_test_id("stException").count() == 0
            page.close()
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--apptest", action="store_true", help="also AppTest's rerun time")
    parser.add_argument("--repeats", type=int, default=3, help="measured seed changes per method")
    parser.add_argument("--quiet", type=float, default=250, help="ms without CPU use that count as idle")
    args = parser.parse_args()
    start = time.perf_counter()
    runs = asyncio.run(server_runs(args.repeats, args.quiet / 1000))
    drawn = {} if args.no_browser else browser_times()
    print(
        f"Families page, context 8192, used length 65,536 ({', '.join(f'{k}={v}' for k, v in QUERY.items())})"
    )
    print("server CPU ms: the first run of a new session, and a rerun after a Seed change (median)")
    print(
        f"{'method':12s} {'first run':>10s} {'rerun':>7s} {'(min-max)':>11s} {'wall':>8s} "
        f"{'largest chart':>14s} {'all charts':>11s} {'browser draw':>13s}"
        + (f" {'AppTest':>9s}" if args.apptest else "")
    )
    errors = 0
    for method in METHODS:
        m = runs[method]
        sizes = [el.ByteSize() for kind, el in m.elements if kind == "vega_lite_chart"] or [0]
        shown = f"{drawn[method]:.1f} s" if method in drawn else "-"
        row = (
            f"{method:12s} {m.first_cpu_ms:7.0f} ms {statistics.median(m.cpu_ms):4.0f} ms "
            f"{f'{min(m.cpu_ms):.0f}-{max(m.cpu_ms):.0f}':>11s} {statistics.median(m.wall_ms):5.0f} ms "
            f"{max(sizes) / 1000:11.1f} kB {sum(sizes) / 1000:8.1f} kB {shown:>13s}"
        )
        if args.apptest:
            row += f" {apptest(method) * 1000:6.0f} ms"
        print(row)
        for e in m.errors:
            print(f"  error: {e[:120]}")
        errors += len(m.errors)
    print(f"errors: {errors}; total wall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
