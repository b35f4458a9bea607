"""Thirty students at once: real browser sessions against one `streamlit run` on loopback.

    .venv/bin/python benchmarks/load_test.py [--sessions 30] [--changes 3] [--timeout 600]

Each session is a headless Chromium page (Debian's chromium, one browser, one context per
session so nothing is shared). It opens the pipeline with its own context length, then changes
the batch size ``--changes`` times; after every change it waits until the page shows that
session's own shape. Reports errors (exceptions shown, wrong shapes, time-outs), the p50/p95/max
time from a control change to the finished rerun, and the server's peak RSS (VmHWM). Traffic goes
to 127.0.0.1 only; the run is bounded by --sessions × --changes and by --timeout seconds.
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

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, running_server  # noqa: E402

DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


async def session(browser, base: str, k: int, changes: int, times: list[float], errors: list[str]) -> None:
    from playwright.async_api import expect

    context_length = 4 + k  # every session has its own shapes
    ctx = await browser.new_context(viewport={"width": 1200, "height": 900})
    page = await ctx.new_page()
    try:
        await page.goto(f"{base}/?context={context_length}", timeout=300_000)
        await page.wait_for_selector(DONE, timeout=300_000)
        metric = page.get_by_test_id("stMetricValue")
        await expect(metric.filter(has_text=f"8 × {context_length} × 256").first).to_be_visible(
            timeout=300_000
        )
        box = page.get_by_role("spinbutton", name="Batch B", exact=True)
        for c in range(changes):
            batch = 2 + (k + c) % 6
            t = time.perf_counter()
            await box.fill(str(batch))
            await box.press("Enter")
            await expect(metric.filter(has_text=f"{batch} × {context_length} × 256").first).to_be_visible(
                timeout=300_000
            )
            await page.wait_for_selector(DONE, timeout=300_000)
            times.append(time.perf_counter() - t)
        if await page.get_by_test_id("stException").count():
            errors.append(f"session {k}: an exception is shown")
        if context_length != 4 and f"context={context_length}" not in page.url:  # 4 is the default: no param
            errors.append(f"session {k}: the URL lost its own settings ({page.url})")
    except Exception as exc:  # counted, not raised: the report lists every failure
        errors.append(f"session {k}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        await ctx.close()


async def run(sessions: int, changes: int, timeout: float) -> None:
    from playwright.async_api import async_playwright

    with running_server() as base:
        import psutil  # the server process is the only child listening on the port

        server = max(psutil.Process().children(recursive=True), key=lambda p: p.memory_info().rss)
        times: list[float] = []
        errors: list[str] = []
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            start = time.perf_counter()
            tasks = [session(browser, base, k, changes, times, errors) for k in range(sessions)]
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=timeout)
            wall = time.perf_counter() - start
            await browser.close()
        status = Path(f"/proc/{server.pid}/status").read_text()
        proc_status = next(line for line in status.splitlines() if line.startswith("VmHWM"))
    times.sort()
    p95 = times[max(0, int(round(0.95 * len(times))) - 1)] if times else float("nan")
    print(f"{sessions} sessions × {changes} changes on one server, {wall:.1f} s in all")
    print(f"errors: {len(errors)}")
    for e in errors:
        print("  " + e)
    if times:
        print(
            f"control change -> finished rerun: p50 {statistics.median(times):.2f} s, p95 {p95:.2f} s, "
            f"max {times[-1]:.2f} s over {len(times)} changes"
        )
    print(f"server peak RSS: {int(proc_status.split()[1]) / 1024:.0f} MB (goal <= 690 MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--changes", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    asyncio.run(run(args.sessions, args.changes, args.timeout))


if __name__ == "__main__":
    main()
