"""The server's memory through the worst cases a class can send, against the 690 MB budget.

    .venv/bin/python benchmarks/memory_bench.py [--heavy 25] [--skip-sessions]
    .venv/bin/python benchmarks/memory_bench.py --only texts --only sessions [--sessions 3 10 30]

Starts one real server (loopback only) and drives it with headless Chromium, one case after the
other, sampling the server's RSS every 50 ms; prints the peak of each case and of the whole run:

1. an uploaded .txt at the cap (``MAX_TEXT_BYTES``), Training on the sidebar's text, Train (until done);
2. Training at size medium, context 256 (until done or refused);
3. Why position? at d 16384 with two sentences of 300 × U+13000 and of 300 emoji (set in the URL,
   over the cap on a sentence's tokens), and with sentences of exactly the tokens it allows
   (``max_sentence_tokens``) under every method;
4. every setting that sizes a tensor at its limit: the Pipeline (V 1,000,000, d 16,384, T 8,192,
   B 128, stride 1) and Families at T 8,192 × 8 under every method with its own settings at theirs;
5. ``--heavy`` heavy views in a row (GPT-3 and LLaMA-3 presets, Families at context 8192 with
   different dims and methods): what the caches keep afterwards is the idle figure;
6. thirty sessions at once (benchmarks/ws_load_test.py, its own server), unless --skip-sessions.

Two groups drive the server over Streamlit's own websocket protocol instead (``benchmarks/ws_load_test``'s
client: no browser, so the two cores go to the server), each on a fresh server of its own:

7. ``texts``: one session at a time pastes a text at the cap (``core.serving.budget.MAX_TEXT_BYTES``) in each
   script — ASCII, CJK, emoji, mixed — on the Pipeline, and trains on it; then the texts a text box
   takes but the server refuses (78,000 emoji, CJK) and a paste of 1,000,000 emoji;
8. ``sessions``: 3, 10 and 30 sessions at once (``--sessions``), each with a text at the cap in its
   own script on its own page at its heaviest: the Pipeline at V, d, T, B's limits, Families at
   T 8,192 × 8 and d 16,384, Why position? at d 16,384 with the longest sentences, Training on the
   text (Train pressed), the others.

Each row: the server's peak RSS during the case (its high-water mark, reset before), its idle RSS a
few seconds after, the memory governor's waits and refusals (from the server's log), and what the
sessions got (their page, or the message they were shown). The warm baseline is the idle server with
every page loaded once.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.config import MAX_BATCH, MAX_CONTEXT, MAX_DIM, MAX_VOCAB  # noqa: E402
from core.order import max_sentence_tokens  # noqa: E402
from core.positional.family import FAMILIES, all_params  # noqa: E402
from core.serving.budget import MAX_TEXT_BYTES, MAX_TEXT_CHARS, SERVER_BYTES  # noqa: E402
from core.serving.memory_governor import SWEEP_AFTER_SECONDS  # noqa: E402
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


def text_file_at_the_cap() -> str:
    rng = random.Random(5)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
        for _ in range(30000)
    ]
    out, size = [], 0
    while size < MAX_TEXT_BYTES - 20:
        w = rng.choice(words)
        out.append(w)
        size += len(w) + 1
    return " ".join(out)[: MAX_TEXT_BYTES - 10]


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


# --- groups 7 and 8: texts at the cap and sessions at once, over the websocket protocol ---------------

SCRIPTS = {  # a text of each script at the cap: its UTF-8 bytes ≤ MAX_TEXT_BYTES
    "ASCII": "The cat sat on the mat; the mat was flat. ",
    "CJK": "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后",
    "emoji": "😀🎉🐍🚀💡🌍🎵📚🧠🔥",
    "mixed": "Hello, 世界! 😀 Grüße — ок, χαίρετε. ",
}
PAGE_PATHS = ["", "Why_position", "Families", "Training", "Trained_positions", "Attention", "Long_context"]
HEAVY = {  # each page at its heaviest settings
    "": {"vocab": MAX_VOCAB, "dim": MAX_DIM, "context": MAX_CONTEXT, "batch": MAX_BATCH, "stride": 1},
    "Families": {"context": MAX_CONTEXT, "dim": MAX_DIM, "extrapolate": 8},
    "Training": {"corpus": "sidebar", "steps": 60},  # a run's peak does not grow with its steps
}


def text_at_cap(script: str, k: int = 0, limit: int = MAX_TEXT_BYTES) -> str:
    """A text of ``script`` whose UTF-8 is at most ``limit`` bytes (and within 4 of it), rotated by k."""
    unit = SCRIPTS[script][k % len(SCRIPTS[script]) :] + SCRIPTS[script][: k % len(SCRIPTS[script])]
    text = unit * (limit // len(unit.encode()) + 1)
    while len(text.encode()) > limit:
        text = text[: -max(1, (len(text.encode()) - limit) // 4)]
    return text


def why_query(k: int) -> dict:
    most = max_sentence_tokens(MAX_DIM)
    a = "%20".join(["a"] * most)
    return {"dim": MAX_DIM, "context": 1, "a": a, "b": "%20".join(["a"] * (most - 1) + ["b"]), "seed": k}


class Server:
    """A fresh server for a group: its peak since ``reset`` (VmHWM), its RSS, its governor's log."""

    def __init__(self):
        self.server = start_server()
        self.pid, self.url = self.server.proc.pid, self.server.url

    def status(self, key: str) -> int:
        text = Path(f"/proc/{self.pid}/status").read_text()
        return int(next(line for line in text.splitlines() if line.startswith(key)).split()[1]) * 1024

    def reset(self) -> None:
        Path(f"/proc/{self.pid}/clear_refs").write_text("5")  # the high-water mark starts again here

    def governor_counts(self) -> tuple[int, int]:
        log = "".join(self.server.output)
        return log.count("memory governor: wait"), log.count("memory governor: refused")


async def ws_session(srv: Server, page: str, query: dict, text: str | None, train: bool, limit: float):
    """One student: open ``page`` with ``query``, paste ``text``, press Train if asked; what they got."""
    from websockets.asyncio.client import connect

    from benchmarks.ws_load_test import Client, finished_run, progress, shown_errors

    async with connect(
        srv.url.replace("http://", "ws://") + "/_stcore/stream", max_size=None, subprotocols=["streamlit"]
    ) as ws:
        client = Client(ws, srv.url, dict(query), page)
        elements = await client.rerun()
        waited = False
        if text is not None:
            client.set("Text", "Paste")
            await client.rerun()
            client.set("Paste text", text)
            elements = await client.rerun()
        if train and not shown_errors(elements) and "Train" in client.buttons:
            client.press("Train")
            elements = await client.rerun()
            deadline = time.monotonic() + limit
            while not finished_run(elements) and client.auto_rerun and time.monotonic() < deadline:
                waited |= any(kind == "alert" and "Waiting for memory" in el.body for kind, el in elements)
                await asyncio.sleep(client.auto_rerun[0])
                elements = await client.rerun_fragment(client.auto_rerun[1])
            if not finished_run(elements) and progress(elements) is None and not shown_errors(elements):
                return "training did not finish in time"
        texts = [el.body for kind, el in elements if kind == "alert"]
        waited |= any("Waiting for memory" in t for t in texts)
        errors = shown_errors(elements)
        if errors:
            return "message: " + errors[0][7:90]
        return "page" + (" (waited for memory)" if waited else "")


def run_case(srv: Server, name: str, sessions: list[tuple], rows: list, limit: float = 240) -> None:
    """Run ``sessions`` (page, query, text, train) at once; add a row: peak, idle, governor, outcomes."""
    waits0, refused0 = srv.governor_counts()
    srv.reset()
    start = time.perf_counter()

    async def all_at_once():
        return await asyncio.gather(
            *(asyncio.wait_for(ws_session(srv, *s, limit), limit + 60) for s in sessions),
            return_exceptions=True,
        )

    outcomes = asyncio.run(all_at_once())
    peak, seconds = srv.status("VmHWM"), time.perf_counter() - start
    time.sleep(3)  # the server settles: trims after the last run
    waits, refused = srv.governor_counts()
    kinds = Counter(o if isinstance(o, str) else f"error: {type(o).__name__}" for o in outcomes)
    rows.append((name, peak, srv.status("VmRSS"), waits - waits0, refused - refused0, seconds, dict(kinds)))
    print(
        f"{name:<60} peak {megabytes(peak):>7}  idle after {megabytes(rows[-1][2]):>7}  "
        f"waits {waits - waits0}  refused {refused - refused0}  {seconds:5.1f} s  {dict(kinds)}",
        flush=True,
    )


def warm(srv: Server) -> int:
    """Every page once (the fresh server's first run is the main page's); the warm baseline's RSS."""
    for page in PAGE_PATHS:
        asyncio.run(ws_session(srv, page, {}, None, False, 60))
    time.sleep(3)
    return srv.status("VmRSS")


SESSION_TTL = 120  # s: Streamlit keeps a closed session this long (server.disconnectedSessionTTL)


def idle_after_sessions_left(srv: Server) -> int:
    """The server's RSS once the group's sessions are gone (their texts with them) and the idle server
    has swept (``core.serving.memory_governor.SWEEP_AFTER_SECONDS``: a minute, and after the sessions'
    TTL)."""
    time.sleep(max(SESSION_TTL, SWEEP_AFTER_SECONDS[-1]) + 20)
    return srv.status("VmRSS")


def idle_row(srv: Server, group: str, baseline: int, rows: list) -> None:
    """Add and print the row of the server's idle RSS once ``group``'s sessions are gone."""
    idle = idle_after_sessions_left(srv)
    name = f"idle after the {group} group, its sessions gone"
    rows.append((name, idle, idle, 0, 0, 0.0, {}))
    print(f"{name:<60} rss {megabytes(idle)} ({megabytes(idle - baseline)} over the warm baseline)")


def texts_group(rows: list) -> None:
    srv = Server()
    try:
        baseline = warm(srv)
        rows.append(("warm server, every page loaded once", baseline, baseline, 0, 0, 0.0, {}))
        print(f"{'warm server, every page loaded once':<60} rss {megabytes(baseline)}", flush=True)
        for script in SCRIPTS:
            text = text_at_cap(script)
            size = f"{len(text):,} chars, {len(text.encode()):,} bytes"
            run_case(srv, f"{script} at the cap ({size}): Pipeline", [("", {}, text, False)], rows)
            run_case(
                srv,
                f"{script} at the cap: Training on it (Train)",
                [("Training", HEAVY["Training"], text, True)],
                rows,
            )
        for script in ("emoji", "CJK"):
            over = SCRIPTS[script] * (MAX_TEXT_CHARS // len(SCRIPTS[script]) + 1)  # the box's most characters
            run_case(
                srv,
                f"{script}, the text box's {MAX_TEXT_CHARS:,} characters (over the cap)",
                [("", {}, over[:MAX_TEXT_CHARS], False)],
                rows,
            )
        million = "😀" * 1_000_000  # far over the cap; the server keeps the box's first MAX_TEXT_CHARS
        run_case(srv, "1,000,000 emoji pasted", [("", {}, million, False)], rows)
        idle_row(srv, "texts", baseline, rows)
    finally:
        srv.server.stop()


def sessions_group(counts: list[int], rows: list) -> None:
    srv = Server()
    try:
        baseline = warm(srv)
        rows.append(("warm server, every page loaded once", baseline, baseline, 0, 0, 0.0, {}))
        print(f"{'warm server, every page loaded once':<60} rss {megabytes(baseline)}", flush=True)
        scripts = list(SCRIPTS)
        for n in counts:
            for label, pages in (
                ("Pipeline", [""]),
                ("Training, Train pressed", ["Training"] if n <= 10 else []),  # runs train one at a time
                ("every page", PAGE_PATHS),
            ):
                if not pages:
                    continue
                sessions = []
                for k in range(n):
                    page = pages[k % len(pages)]
                    query = {
                        **HEAVY.get(page, {}),
                        **(why_query(k) if page == "Why_position" else {}),
                        "seed": 100 * n + k,
                    }
                    sessions.append((page, query, text_at_cap(scripts[k % 4], k), page == "Training"))
                run_case(
                    srv,
                    f"{n} sessions at once, texts at the cap, {label} at its heaviest",
                    sessions,
                    rows,
                    limit=300,
                )
        idle_row(srv, "sessions", baseline, rows)
    finally:
        srv.server.stop()


def print_table(rows: list) -> None:
    """The rows as a Markdown table (docs/measurements.md)."""
    print("\n| case | peak RSS | idle after | waits | refused | sessions got |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, peak, idle, waits, refused, _, kinds in rows:
        got = ", ".join(f"{v} × {k}" for k, v in kinds.items())
        print(f"| {name} | {megabytes(peak)} | {megabytes(idle)} | {waits} | {refused} | {got} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--heavy", type=int, default=25)
    parser.add_argument("--skip-sessions", action="store_true")
    parser.add_argument(
        "--only",
        choices=("upload", "medium", "why", "limits", "heavy", "texts", "sessions"),
        action="append",
        help="run only these cases",
    )
    parser.add_argument("--sessions", type=int, nargs="+", default=[3, 10], help="sessions at once")
    args = parser.parse_args()
    if args.only and set(args.only) <= {"texts", "sessions"}:
        rows = []
        if "texts" in args.only:
            texts_group(rows)
        if "sessions" in args.only:
            sessions_group(args.sessions, rows)
        print_table(rows)
        worst = max(r[1] for r in rows)
        print(
            f"\nworst peak {megabytes(worst)} (budget {megabytes(SERVER_BYTES)}): "
            + ("within the budget" if worst <= SERVER_BYTES else "OVER THE BUDGET")
        )
        return
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
            upload = ROOT / "test-results" / "at_the_cap.txt"
            upload.parent.mkdir(exist_ok=True)
            upload.write_text(text_file_at_the_cap())

            def upload_and_train():
                page.goto(base)
                wait_for_app(page)
                page.get_by_test_id("stSidebar").get_by_text("Upload", exact=True).click()
                page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(upload))
                page.get_by_text("uploaded file at_the_cap.txt").wait_for(timeout=120_000)
                page.get_by_test_id("stSidebar").get_by_role(
                    "link", name="Watch positions being learned"
                ).click()
                page.get_by_role("heading", name="Watch positions being learned").wait_for()
                page.get_by_text("The text chosen in the sidebar").click()
                wait_for_app(page)
                return train_until_done(page, 180)

            if wanted("upload"):
                case(
                    f"upload at the cap ({MAX_TEXT_BYTES:,} bytes), Train on the sidebar's text",
                    upload_and_train,
                )

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
