"""The heaviest view: the Families page at context 8192, per method.

    .venv/bin/python benchmarks/families_bench.py [--no-browser]

Prints, for each close-up method at context 8192 (used length ×8 = 65,536 positions):
the page's rerun time under AppTest (median of 3, after a first run), the largest and the total
chart payload it sends (protobuf bytes of the Vega-Lite elements; goal < 1 MB per view), and,
in headless Chromium on a fresh server, the time until the page has finished drawing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

METHODS = ["learned", "sinusoidal", "shaw", "t5", "alibi", "rope"]
QUERY = {"context": "8192", "extrapolate": "8"}


def apptest(method: str) -> tuple[float, int, int]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=300)
    for key, value in {**QUERY, "method": method}.items():
        at.query_params[key] = value
    at.switch_page("pages/Families.py").run()
    assert not at.exception and not at.error
    times = []
    for seed in (1, 2, 3):  # a new seed: nothing cached but the tokenizer
        at.number_input(key="seed").set_value(seed)
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
    sizes = [c.proto.ByteSize() for c in at.get("vega_lite_chart")]
    return statistics.median(times), max(sizes), sum(sizes)


def browser_times() -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, running_server, wait_for_app

    out = {}
    with running_server() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for method in METHODS:
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            query = "&".join(f"{k}={v}" for k, v in {**QUERY, "method": method}.items())
            t = time.perf_counter()
            page.goto(f"{base}/Families?{query}")
            wait_for_app(page, timeout=300_000)
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
    args = parser.parse_args()
    drawn = {} if args.no_browser else browser_times()
    print(
        f"Families page, context 8192, used length 65,536 ({', '.join(f'{k}={v}' for k, v in QUERY.items())})"
    )
    print(f"{'method':12s} {'rerun':>9s} {'largest chart':>14s} {'all charts':>11s} {'browser draw':>13s}")
    for method in METHODS:
        rerun, largest, total = apptest(method)
        shown = f"{drawn[method]:.1f} s" if method in drawn else "-"
        print(
            f"{method:12s} {rerun * 1000:7.0f} ms {largest / 1000:11.1f} kB "
            f"{total / 1000:8.1f} kB {shown:>13s}"
        )


if __name__ == "__main__":
    main()
