"""What a student waits for in the browser: ``python benchmarks/browser_wait.py [--runs N] [--pages ...]``.

Serves the app and a bare Streamlit page (``bare_app.py``: one number input, one line of text) the same
way, side by side, and drives both in headless Chromium (Debian's). For each page it measures:

* **open**: a fresh tab's navigation to the page's last DOM change once the script has finished and
  every chart has drawn (the page "settled": no DOM change for a second);
* **change**: a new Seed typed in the sidebar (three in a row, each a value not seen before), from the
  key press to the last DOM change of the rerun.

Prints a table in milliseconds with each page's ratio to the bare page measured in the same run, and the
medians. The pages are opened in turn with the bare page between them, so both meet the same moment of
a drifting machine. ``--against DIR`` serves a second checkout of the app (a baseline, e.g. ``git
worktree add /tmp/before <commit>``) and measures its pages in the same rounds. Traffic stays on
127.0.0.1.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.e2e.conftest import CHROMIUM  # noqa: E402  (the browser the tests drive, launched alike)
from tests.e2e.conftest import CHROMIUM_ARGS as ARGS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAGES = [
    "",
    "Why_position",
    "Pipeline",
    "Attention",
    "Families",
    "Long_context",
    "Todays_models",
    "Training",
    "Trained_positions",
]
QUIET_MS = 1000  # no DOM change for this long: the page has settled
CHANGES = 3  # Seed changes per page
# Records the time of the page's last DOM change (ms since navigation start).
OBSERVE = """
window.__last = performance.now();
new MutationObserver(() => { window.__last = performance.now(); })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""
SETTLED = """(quiet) => {
  const app = document.querySelector('[data-testid=stApp]');
  const charts = [...document.querySelectorAll('[data-testid=stVegaLiteChart]')];
  return app && app.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-testid=stSkeleton], [data-stale=true]')
    && charts.every(c => c.querySelector('canvas, svg'))
    && performance.now() - window.__last > quiet;
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(script: str, root: Path = ROOT):
    """``streamlit run script`` in ``root`` on a free port, as the tests serve the app; yields its address."""
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", script, "--server.headless=true"]
    command += [f"--server.port={port}", "--server.address=127.0.0.1", "--server.fileWatcherType=none"]
    command += ["--browser.gatherUsageStats=false"]
    proc = subprocess.Popen(
        command, cwd=root, env={**os.environ}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(url + "/_stcore/health", timeout=1)
                break
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def settle(page) -> float:
    """Wait until the page has settled; the time of its last DOM change (ms since navigation start)."""
    page.wait_for_function(SETTLED, arg=QUIET_MS, timeout=180_000, polling=100)
    return page.evaluate("window.__last")


def measure(browser, url: str, seeds: list[int]) -> tuple[float, list[float]]:
    """One fresh tab at ``url``: its open time, then each Seed change's (ms)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    context.add_init_script(OBSERVE)
    page = context.new_page()
    try:
        page.goto(url)
        opened = settle(page)
        box = page.get_by_role("spinbutton", name="Seed", exact=True)
        changes = []
        for seed in seeds:
            box.fill(str(seed))
            start = page.evaluate("performance.now()")
            box.press("Enter")
            page.wait_for_function("(t) => window.__last > t", arg=start, timeout=60_000, polling=20)
            changes.append(settle(page) - start)
        return opened, changes
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="rounds over the pages (medians over rounds)")
    parser.add_argument("--pages", nargs="*", default=PAGES, help="URL paths ('' is the Start page)")
    parser.add_argument("--heatmaps", type=int, default=13, help="a second bare page with this many heatmaps")
    parser.add_argument(
        "--against", type=Path, help="another checkout of the app (a baseline), served and measured alongside"
    )
    args = parser.parse_args()
    rows: dict[str, list[tuple[float, list[float]]]] = {}
    bare: dict[str, list[tuple[float, list[float]]]] = {"bare": [], f"bare + {args.heatmaps} heatmaps": []}
    seed = 1000
    with contextlib.ExitStack() as stack:
        apps = {"": stack.enter_context(serve("streamlit_app.py"))}
        if args.against:
            apps["baseline "] = stack.enter_context(serve("streamlit_app.py", args.against.resolve()))
        base = stack.enter_context(serve("benchmarks/bare_app.py"))
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for app in apps.values():  # the app's first runs warm its caches, as a class's server is warm
            for page in args.pages:
                measure(browser, f"{app}/{page}", [])
        for _ in range(args.runs):
            for page in args.pages:
                for name, url in (
                    ("bare", base),
                    (f"bare + {args.heatmaps} heatmaps", f"{base}/?heatmaps={args.heatmaps}"),
                ):
                    bare[name].append(measure(browser, url, list(range(seed, seed + CHANGES))))
                    seed += CHANGES
                for label, app in apps.items():
                    rows.setdefault(label + (page or "Start"), []).append(
                        measure(browser, f"{app}/{page}", list(range(seed, seed + CHANGES)))
                    )
                    seed += CHANGES
        browser.close()

    def med(samples: list[tuple[float, list[float]]]) -> tuple[float, list[float]]:
        opens = statistics.median(s[0] for s in samples)
        changes = [statistics.median(s[1][k] for s in samples) for k in range(CHANGES)]
        return opens, changes

    base_open, base_changes = med(bare["bare"])
    base_change = statistics.median(base_changes)
    print(f"{'page':<28} {'open ms':>9} {'× bare':>7}   changes ms (× bare)")
    for name, samples in {**bare, **rows}.items():
        opened, changes = med(samples)
        ratios = [c / base_change for c in changes]
        shown = ", ".join(f"{c:.0f} ({r:.1f}×)" for c, r in zip(changes, ratios, strict=True))
        print(f"{name:<28} {opened:>9.0f} {opened / base_open:>6.2f}×   {shown}")
    for label in ("baseline ", "") if args.against else ("",):
        own = {name: s for name, s in rows.items() if name.startswith("baseline ") == bool(label)}
        changes = [c / base_change for s in own.values() for c in med(s)[1]]
        page_opens = [med(s)[0] / base_open for s in own.values()]
        print(
            f"\n{label or 'this tree '}open: worst {max(page_opens):.2f}× the bare page (goal 2×); change: "
            f"median {statistics.median(changes):.2f}× (goal 2.5×), worst {max(changes):.2f}× (goal 5×)"
        )


if __name__ == "__main__":
    main()
