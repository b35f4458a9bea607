"""The server's memory through the worst cases a class can send, against the 690 MB budget.

    .venv/bin/python benchmarks/memory_bench.py [--heavy 25] [--skip-sessions]

Starts one real server (loopback only) and drives it with headless Chromium, one case after the
other, sampling the server's RSS every 50 ms; prints the peak of each case and of the whole run:

1. a 1 MB uploaded .txt, Training on the sidebar's text, Train with the defaults (until done);
2. Training at size medium, context 256 (until done or refused);
3. Why position? at d 16384 with two sentences of 300 × U+13000 and of 300 emoji (the URLs from
   issue 14), and with sentences of exactly the tokens it allows (``max_sentence_tokens``) under
   every method;
4. every setting that sizes a tensor at its limit: the Pipeline (V 1,000,000, d 16,384, T 8,192,
   B 128, stride 1) and Families at T 8,192 × 8 under every method with its own settings at theirs;
5. ``--heavy`` heavy views in a row (GPT-3 and LLaMA-3 presets, Families at context 8192 with
   different dims and methods): what the caches keep afterwards is the idle figure;
6. thirty sessions at once (benchmarks/ws_load_test.py, its own server), unless --skip-sessions.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.budget import SERVER_BYTES  # noqa: E402
from core.config import FAMILIES, MAX_BATCH, MAX_CONTEXT, MAX_DIM, MAX_VOCAB  # noqa: E402
from core.order import max_sentence_tokens  # noqa: E402
from core.positional.family import all_params  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, start_server  # noqa: E402
from tests.e2e.conftest import app_ready as wait_for_app  # noqa: E402


class Sampler:
    """The server's RSS every 50 ms; ``peak()`` since the last ``reset()``."""

    def __init__(self, pid: int):
        self.process, self._peak, self._stop = psutil.Process(pid), 0, threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            try:
                self._peak = max(self._peak, self.process.memory_info().rss)
            except psutil.Error:
                return

    def reset(self) -> None:
        self._peak = self.process.memory_info().rss

    def peak(self) -> int:
        return self._peak

    def now(self) -> int:
        return self.process.memory_info().rss

    def stop(self) -> None:
        self._stop.set()


def megabytes(n: int) -> str:
    return f"{n / 1e6:,.0f} MB"


def one_megabyte_text() -> str:
    rng = random.Random(5)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
        for _ in range(30000)
    ]
    out, size = [], 0
    while size < 1_000_000 - 20:
        w = rng.choice(words)
        out.append(w)
        size += len(w) + 1
    return " ".join(out)[: 1_000_000 - 10]


def train_until_done(page, seconds: float) -> str:
    """Press Train; wait for the results (or a refusal) at most ``seconds``."""
    if page.get_by_test_id("stAlertContentError").count():
        return "refused: " + page.get_by_test_id("stAlertContentError").first.inner_text()[:90]
    page.get_by_role("button", name="Train", exact=True).click()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.get_by_text("Validation loss", exact=True).count():
            return "trained"
        time.sleep(0.5)
    return f"still training after {seconds:.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--heavy", type=int, default=25)
    parser.add_argument("--skip-sessions", action="store_true")
    parser.add_argument(
        "--only",
        choices=("upload", "medium", "why", "limits", "heavy"),
        action="append",
        help="run only these cases",
    )
    args = parser.parse_args()
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    def wanted(name: str) -> bool:
        return not args.only or name in args.only

    server = start_server()
    proc, base = server.proc, server.url
    sampler = Sampler(proc.pid)
    rows = []

    def case(name: str, action) -> None:
        sampler.reset()
        start = time.perf_counter()
        note = action() or ""
        rows.append((name, sampler.peak(), sampler.now(), time.perf_counter() - start, note))
        print(flush=True)
        print(f"{name:<58} peak {megabytes(rows[-1][1]):>7}  after {megabytes(rows[-1][2]):>7}  {note}")

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            page.goto(base)
            wait_for_app(page)
            for path in ("Why_position", "Families", "Training", "Trained_positions"):
                print(f"loading {path}", flush=True)
                page.goto(f"{base}/{path}")
                wait_for_app(page)
            rows.append(("idle, every page loaded once", sampler.now(), sampler.now(), 0.0, ""))
            print(f"{'idle, every page loaded once':<58} rss {megabytes(sampler.now())}")
            upload = ROOT / "test-results" / "one_megabyte.txt"
            upload.parent.mkdir(exist_ok=True)
            upload.write_text(one_megabyte_text())

            def upload_and_train():
                page.goto(base)
                wait_for_app(page)
                page.get_by_test_id("stSidebar").get_by_text("Upload", exact=True).click()
                page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(upload))
                page.get_by_text("uploaded file one_megabyte.txt").wait_for(timeout=120_000)
                page.get_by_test_id("stSidebar").get_by_role(
                    "link", name="Watch positions being learned"
                ).click()
                page.get_by_role("heading", name="Watch positions being learned").wait_for()
                page.get_by_text("The text chosen in the sidebar").click()
                wait_for_app(page)
                return train_until_done(page, 180)

            if wanted("upload"):
                case("1 MB upload, Train on the sidebar's text", upload_and_train)

            def medium_256():
                page.goto(f"{base}/Training?size=medium&train_context=256")
                wait_for_app(page)
                return train_until_done(page, 180)

            if wanted("medium"):
                case("Training size=medium, train_context=256", medium_256)

            def visit(*paths: str):
                """Open each path; the case's note is each page's first error or warning, if any."""

                def action():
                    notes = []
                    for path in paths:
                        page.goto(f"{base}{path}")
                        try:
                            wait_for_app(page, timeout=180_000)
                        except PlaywrightTimeout:
                            notes.append(f"no page after 180 s: {path[:60]}")
                            continue
                        print(f"  {path[:60]:<60} rss {megabytes(sampler.now()):>7}", flush=True)
                        alerts = page.locator(
                            '[data-testid="stAlertContentError"], [data-testid="stException"]'
                        )
                        if alerts.count():
                            notes.append(alerts.first.inner_text()[:70].replace("\n", " "))
                    return " | ".join(notes)

                return action

            why = f"/Why_position?dim={MAX_DIM}&context=1"
            for glyph, name in (("\U00013000", "U+13000"), ("\U0001f600", "emoji U+1F600")):
                text = quote(glyph * 300)
                if wanted("why"):
                    case(
                        f"Why position? d 16384, 2 × 300 × {name}",
                        visit(f"{why}&method=learned&a={text}&b={text}"),
                    )
            most = max_sentence_tokens(MAX_DIM)  # " a" is one GPT-2 token; the page adds the leading space
            a, b = quote(" ".join(["a"] * most)), quote(" ".join(["a"] * (most - 1) + ["b"]))
            if wanted("why"):
                case(
                    f"Why position? d 16384, 2 × {most} tokens, every method",
                    visit(*(f"{why}&method={m}&a={a}&b={b}&seed={k}" for k, m in enumerate(FAMILIES))),
                )
            limits = {p.key: p.high for p in all_params().values() if p.high is not None}
            own = "&".join(f"{k}={v}" for k, v in limits.items())
            if wanted("limits"):
                case(
                    "Pipeline at V, d, T, B at their limits, stride 1",
                    visit(
                        f"/?vocab={MAX_VOCAB}&dim={MAX_DIM}&context={MAX_CONTEXT}&batch={MAX_BATCH}"
                        "&stride=1&sample=log"
                    ),
                )
                case(
                    "Families T 8192 × 8, d 16384, own settings at limits",
                    visit(
                        *(
                            f"/Families?context={MAX_CONTEXT}&dim={MAX_DIM}&extrapolate=8&method={m}&{own}"
                            for m in FAMILIES
                        )
                    ),
                )
            heavy = [
                "/?preset=gpt3-175b&sample=log",
                "/?preset=llama3-8b&sample=log",
                "/Families?context=8192&dim=16384&method=learned",
                "/Families?context=8192&dim=4096&method=sinusoidal",
                "/Families?context=8192&dim=12288&method=rope",
                "/Why_position?preset=gpt3-175b",
            ]

            def heavy_views():
                for k in range(args.heavy):
                    before = sampler.peak()
                    sampler.reset()
                    page.goto(f"{base}{heavy[k % len(heavy)]}&seed={k}")
                    wait_for_app(page, timeout=180_000)
                    print(f"  {heavy[k % len(heavy)]:<52} peak {megabytes(sampler.peak()):>7}", flush=True)
                    sampler._peak = max(before, sampler.peak())

            if wanted("heavy"):
                case(f"{args.heavy} heavy views in a row (distinct seeds)", heavy_views)
            time.sleep(2)
            rows.append(("idle after the heavy views", sampler.now(), sampler.now(), 0.0, ""))
            print(f"{'idle after the heavy views':<58} rss {megabytes(sampler.now())}")
            browser.close()
    finally:
        sampler.stop()
        proc.terminate()
        proc.wait(timeout=20)
    if not args.skip_sessions and not args.only:
        print("thirty sessions at once (benchmarks/ws_load_test.py):")
        subprocess.run([sys.executable, str(ROOT / "benchmarks/ws_load_test.py")], check=False)
    worst = max(r[1] for r in rows)
    print(
        f"\nworst peak {megabytes(worst)} (budget {megabytes(SERVER_BYTES)}): "
        + ("within the budget" if worst <= SERVER_BYTES else "OVER THE BUDGET")
    )


if __name__ == "__main__":
    main()
