"""Server CPU time of one rerun after a control change, per page, on a real ``streamlit run``.

    .venv/bin/python benchmarks/rerun_cpu.py [--pages all] [--groups defaults,gpt3,families8192]
        [--repeats 5] [--warmup 2]
    .venv/bin/python benchmarks/rerun_cpu.py --book [--pages all] [--repeats 5]

``--book``: the book's settings and the book's text (``the-verdict.txt``, pasted into each
session), and per page three kinds of change, each against the book's ch. 2.8 code for the same
settings measured in the same run: a Batch change (every cache hit), a Seed change (a seed no session
used before: the token table's stream is drawn again) and a new text (the-verdict rotated to start
at another character, a text no session used before, at seed 123: its windows, its tokens' rows).
The book's code runs in a child process of this benchmark (so on the same machine as the server),
warm as the server is (torch imported, GPT-2's BPE loaded, one torch thread like the server's), and
right after each of the app's changes it runs the lesson's script body once for the same settings
(so both meet the same moment of a machine whose speed drifts): tokenize and cut
the text with the book's ``GPTDatasetV1``/``DataLoader``, ``torch.manual_seed(seed)``, both
``nn.Embedding`` layers, the lookups and the add. Its cost is that process's CPU time
(``time.process_time``) over the body; the ratio app / book is printed per page and change.

One server (tests/e2e/conftest.py ``running_server``) and one websocket session at a time speaking
Streamlit's protocol (benchmarks/ws_load_test.py ``Client``). For each settings group and page a new
session opens the page, runs ``--warmup`` changes, then ``--repeats`` measured changes of the
sidebar's "Batch B" (7, 6, 5, … 1, then again: each change is a new value for the session). A
change's cost is the server process's CPU time (psutil ``cpu_times`` user + system: every thread of
the process, so Streamlit's post-run ``gc.collect``, torch's worker threads and the websocket
writes count too) from just before the change is sent until the server is idle again (its CPU time
has stopped moving for --quiet ms after the run's ``script_finished``). CPU time, not wall time, is
the stable number on a shared machine; wall time to ``script_finished`` is printed beside it.

Groups: ``defaults`` (the book's settings), ``gpt3`` (``?preset=gpt3-175b``, GPT-3's dims),
``families8192`` (the Families page at ``?context=8192``). Goals: median ≤ 60 ms per
rerun at the defaults, ≤ 150 ms at GPT-3 dims and for Families at context 8192. Prints a table per
group (median, min, max, and the mean: the kernel counts CPU time in 10 ms ticks, so one rerun's
number is a multiple of 10 ms) and the total wall time. Traffic goes to 127.0.0.1 only; each session is
bounded by --timeout seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

from benchmarks.ws_load_test import PAGES, Client, cpu_seconds, open_page, parse_pages, shown_errors  # noqa: E402
from tests.e2e.conftest import running_server  # noqa: E402

GROUPS = {  # name -> (title, query, the pages it measures: None = every chosen page)
    "defaults": ("the book's defaults", {}, None),
    "gpt3": ("GPT-3 dims (preset=gpt3-175b)", {"preset": "gpt3-175b"}, None),
    "families8192": ("Families at context 8192", {"context": 8192}, ["Families"]),
}
BATCHES = [7, 6, 5, 4, 3, 2, 1]  # the default is 8: every change is a new value, for 7 changes
SEEDS = iter(range(1000, 10**6))  # a Seed change takes a seed no session of this run used before
VERDICT = ROOT.parent / "shared" / "data" / "the-verdict.txt"  # the book's text (rasbt ch. 2)
BOOK = {"Batch B": 8, "Seed": 123}  # the book's settings (the app's defaults otherwise: V, d, T, stride)
# --book: each kind of change, its widget, its new values (each new for the session), the book's value
# to return to, and the book body's argument it sets. V only grows: the book's GPT-2 tokens need ≥ 50,257
# rows (GPT-2 pads its own to 50,304); d stays a multiple of 16 with V·d ≤ 2^25 (an exact table). The
# method has no code of its own in the book: it is compared with the book's learned table.
CHANGES = {
    "batch": ("Batch B", BATCHES, 8, "batch_size"),
    "vocab": ("Vocab V", [50304, 50260, 50400, 50600, 51000, 51200, 52000], 50257, "vocab_size"),
    "dim": ("Dim d", [128, 64, 192, 320, 384, 448, 512], 256, "output_dim"),
    "context": ("Context T", [8, 5, 6, 7, 3, 2, 16], 4, "max_length"),
    "stride": ("Stride", [1, 2, 3, 5, 6, 7, 8], 4, "stride"),
    "method": ("Positional method", ["sinusoidal", "rope", "alibi", "t5", "shaw", "nope"], "learned", None),
}
KINDS = [*CHANGES, "seed", "text"]  # --book's kinds of change
POLL = 0.02  # seconds between two reads of the server's CPU time while waiting for it to idle


async def idle(proc, quiet: float, limit: float = 30.0) -> float:
    """Wait until the server's CPU time has not moved (by more than a tick) for ``quiet`` seconds.

    Returns its CPU time then. A server that never idles within ``limit`` seconds returns anyway.
    """
    last, since, deadline = cpu_seconds(proc), time.perf_counter(), time.perf_counter() + limit
    while time.perf_counter() < deadline:
        await asyncio.sleep(POLL)
        now = cpu_seconds(proc)
        if now - last > 0.011:  # more than one 10 ms clock tick: still working
            last, since = now, time.perf_counter()
        elif time.perf_counter() - since >= quiet:
            return now
    return cpu_seconds(proc)


@dataclass
class Measured:
    """One page's changes: server CPU ms and wall ms of each, the first run's, what went wrong."""

    cpu_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    first_cpu_ms: float = 0.0  # the session's first run (what a new visitor costs)
    errors: list[str] = field(default_factory=list)
    elements: list = field(default_factory=list)  # the last run's elements, as (kind, proto)


async def measure(
    base: str, proc, page: str, query: dict, label: str, values: list, warmup: int, quiet: float
) -> Measured:
    """Open ``page`` with ``query`` in a new session, then set widget ``label`` to each of ``values``.

    The first ``warmup`` changes are not measured. Each change is timed from the server being idle
    (see ``idle``, ``quiet`` seconds) to the server being idle again after its run.
    """
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    out = Measured()
    async with connect(url, subprotocols=["streamlit"], max_size=None) as ws:
        client = Client(ws, base, dict(query), page)
        before = await idle(proc, quiet)
        out.elements = await client.rerun()
        out.first_cpu_ms = (await idle(proc, quiet) - before) * 1000
        out.errors += shown_errors(out.elements)
        for c, value in enumerate(values):
            client.set(label, value)
            before = await idle(proc, quiet)
            t = time.perf_counter()
            out.elements = await client.rerun()
            wall = time.perf_counter() - t
            after = await idle(proc, quiet)
            out.errors += [f"{label} {value}: {e}" for e in shown_errors(out.elements)]
            if c >= warmup:
                out.cpu_ms.append((after - before) * 1000)
                out.wall_ms.append(wall * 1000)
    return out


BOOK_FUNCTIONS = r"""
import json, sys, time
import torch
from torch.utils.data import DataLoader, Dataset
sys.path.insert(0, sys.argv[3])
from core.text.tokenizer import gpt2_tokenizer  # tiktoken's "gpt2" encoding, built offline
torch.set_num_threads(1)  # as the server (ui/server/runtime.py)

class GPTDatasetV1(Dataset):  # rasbt ch. 2.6, as printed
    def __init__(self, txt, tokenizer, max_length, stride):
        self.input_ids = []
        self.target_ids = []
        token_ids = tokenizer.encode(txt, allowed_special={"<|endoftext|>"})
        for i in range(0, len(token_ids) - max_length, stride):
            self.input_ids.append(torch.tensor(token_ids[i:i + max_length]))
            self.target_ids.append(torch.tensor(token_ids[i + 1:i + max_length + 1]))
    def __len__(self):
        return len(self.input_ids)
    def __getitem__(self, idx):
        return self.input_ids[idx], self.target_ids[idx]

def create_dataloader_v1(txt, batch_size, max_length, stride, shuffle=False, drop_last=True):
    tokenizer = gpt2_tokenizer()  # the book: tiktoken.get_encoding("gpt2"), which downloads
    dataset = GPTDatasetV1(txt, tokenizer, max_length, stride)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)

def body(raw_text, seed, batch_size, vocab_size=50257, output_dim=256, max_length=4, stride=4):  # ch. 2.8
    torch.manual_seed(seed)
    dataloader = create_dataloader_v1(raw_text, batch_size=batch_size, max_length=max_length,
                                      stride=stride, shuffle=False)
    inputs, targets = next(iter(dataloader))
    token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
    token_embeddings = token_embedding_layer(inputs)
    pos_embedding_layer = torch.nn.Embedding(max_length, output_dim)
    pos_embeddings = pos_embedding_layer(torch.arange(max_length))
    input_embeddings = token_embeddings + pos_embeddings
    return input_embeddings.shape
"""
BOOK_CODE = (
    BOOK_FUNCTIONS
    + r"""
text = open(sys.argv[1], encoding="utf-8").read()
gpt2_tokenizer().encode("warm")  # loaded once, as the server's tokenizer is
body(text, 123, 8)  # a warm process, as the server is after its first run
for line in sys.stdin:  # body's settings and a text shift a line: its CPU ms, then again at once
    run = json.loads(line)
    shift = run.pop("shift")
    ms = []
    for _ in range(2):
        t = time.process_time()
        body(text[shift:] + text[:shift], **run)
        ms.append((time.process_time() - t) * 1000)
    print(json.dumps(ms), flush=True)
"""
)


class BookCode:
    """The book's ch. 2.8 code in a warm child process: ``cpu_ms(settings)`` runs its body for
    ``settings`` (``body``'s arguments and a text ``shift``) and returns that run's CPU ms and a second
    run's right after it. The first follows the app's change it compares with, so both meet the same
    moment of the machine (and both find their caches as the other process left them); the second is
    the book's code with everything hot, as back-to-back runs measure it."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", BOOK_CODE, str(VERDICT), "-", str(ROOT)],  # argv[3]: the project
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def cpu_ms(self, settings: dict) -> tuple[float, float]:
        import json

        self.proc.stdin.write(json.dumps(settings) + "\n")
        self.proc.stdin.flush()
        first, again = json.loads(self.proc.stdout.readline())
        return first, again

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def rotated(text: str, shift: int) -> str:
    """``text`` starting at character ``shift`` (the part before it moved to the end): a new text."""
    return text[shift:] + text[:shift]


async def measure_book(
    base: str,
    proc,
    page: str,
    repeats: int,
    warmup: int,
    quiet: float,
    shifts,
    kinds: list[str],
    book_code: BookCode,
) -> tuple[dict[str, Measured], dict[str, list[tuple[float, float]]]]:
    """Open ``page`` with the book's text pasted; measure each kind of change (``CHANGES``, a Seed, a new
    text; those in ``kinds``), each returned to the book's value before the next kind.

    Returns the app's measurements per change and, per change, the book code's CPU ms for the same
    settings (``BookCode.cpu_ms``: right after the app's change, and again at once).
    """
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    verdict = VERDICT.read_text(encoding="utf-8")
    out = {c: Measured() for c in kinds}
    book = {c: [] for c in kinds}
    async with connect(url, subprotocols=["streamlit"], max_size=None) as ws:
        client = Client(ws, base, {}, page)
        for label, value in [(None, None), ("Text", "Paste"), ("Paste text", verdict)]:
            if label:
                client.set(label, value)
            await client.rerun()
        await idle(proc, quiet)

        async def change(kind: str, label: str, value, measured: bool) -> None:
            client.set(label, value)
            before = await idle(proc, quiet)
            t = time.perf_counter()
            elements = await client.rerun()
            wall = time.perf_counter() - t
            after = await idle(proc, quiet)
            out[kind].errors += [f"{label}: {e}" for e in shown_errors(elements)]
            if measured:
                out[kind].cpu_ms.append((after - before) * 1000)
                out[kind].wall_ms.append(wall * 1000)

        book_settings = {"seed": 123, "batch_size": 8, "shift": 0}
        for kind, (label, values, back, argument) in CHANGES.items():
            if kind not in kinds:
                continue
            for c in range(warmup + repeats if kind == "batch" else repeats):
                value = values[c % len(values)]
                await change(kind, label, value, c >= warmup or kind != "batch")
                if c >= warmup or kind != "batch":
                    settings = {**book_settings, **({argument: value} if argument else {})}
                    book[kind].append(book_code.cpu_ms(settings))
            await change(kind, label, back, False)
        for _ in range(repeats if "seed" in kinds else 0):
            seed = next(SEEDS)
            await change("seed", "Seed", seed, True)
            book["seed"].append(book_code.cpu_ms({**book_settings, "seed": seed}))
        if "seed" in kinds:
            await change("seed", "Seed", BOOK["Seed"], False)
        for _ in range(repeats if "text" in kinds else 0):
            shift = next(shifts)
            await change("text", "Paste text", rotated(verdict, shift), True)
            book["text"].append(book_code.cpu_ms({**book_settings, "shift": shift}))
    return out, book


async def run_book(args) -> None:
    """The ``--book`` report: per page, Batch, Seed and new-text changes against the book's code."""
    import itertools

    pages = parse_pages(args.pages)
    shifts = itertools.count(97, 211)  # each new text starts at another character
    start = time.perf_counter()
    print(
        f"app: {app_version()}; {args.repeats} changes of each kind per page, after {args.warmup} batch ones"
    )
    rows, book_code = [], BookCode()
    with running_server() as server:
        import psutil

        proc = psutil.Process(server.proc.pid)
        await open_page(server.url)  # a fresh server's first run: the main page
        for page in pages:
            quiet = args.quiet / 1000
            work = measure_book(
                server.url, proc, page, args.repeats, args.warmup, quiet, shifts, args.changes, book_code
            )
            try:
                app, book = await asyncio.wait_for(work, args.timeout)
            except TimeoutError:
                print(f"{page}: timed out after {args.timeout:.0f} s", flush=True)
                continue
            for kind, m in app.items():
                rows.append((page, kind, m, book[kind]))
                print(book_row(*rows[-1]), flush=True)
        status = Path(f"/proc/{server.proc.pid}/status").read_text()
        hwm = next(line for line in status.splitlines() if line.startswith("VmHWM"))
    book_code.close()
    print("\nserver CPU ms per rerun (median [min–max] of the changes) against the book's code for the same")
    print("settings (median [min–max]), and the ratio of the medians:")
    print(
        f"{'page':18s} {'change':6s} {'app':>16s} {'book':>16s} {'ratio':>6s} {'again':>5s} {'ratio':>6s}",
        end="",
    )
    print(f" {'app wall':>9s}")
    for row in rows:
        print(book_row(*row))
    rss = int(hwm.split()[1]) / 1024
    print(f"\nserver peak RSS {rss:.0f} MB; total wall time {time.perf_counter() - start:.1f} s")


def book_row(page: str, kind: str, m: Measured, book: list[tuple[float, float]]) -> str:
    """One line of the ``--book`` table: the app, the book right after it and the ratio, the book's
    immediate repeat (hot) and the ratio to that."""
    if not m.cpu_ms:
        return f"{page:18s} {kind:6s} no measurement: {m.errors[:1]}"
    first, again = [b[0] for b in book], [b[1] for b in book]
    app, ref, hot = statistics.median(m.cpu_ms), statistics.median(first), statistics.median(again)
    errors = f"  {len(m.errors)} error(s): {m.errors[0][:80]}" if m.errors else ""
    return (
        f"{page:18s} {kind:6s} {app:5.0f} [{min(m.cpu_ms):3.0f}–{max(m.cpu_ms):4.0f}] "
        f"{ref:5.0f} [{min(first):3.0f}–{max(first):4.0f}] {app / ref:5.2f}× "
        f"{hot:5.0f} {app / hot:5.2f}× {statistics.median(m.wall_ms):6.0f} ms" + errors
    )


def app_version() -> str:
    """The commit measured, and whether the tree had changes (outside benchmarks/) then."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!benchmarks"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return f"{ROOT} (not a git checkout)"
    changed = [line for line in changed if line.strip()]
    return head + (f" + {len(changed)} uncommitted file(s)" if changed else " (clean)")


async def run(args) -> None:
    pages = parse_pages(args.pages)
    start = time.perf_counter()
    print(f"app: {app_version()}; {args.repeats} changes measured after {args.warmup} per page")
    with running_server() as server:
        import psutil

        proc = psutil.Process(server.proc.pid)
        await open_page(server.url)  # a fresh server's first run: the main page
        before, t = await idle(proc, args.quiet / 1000), time.perf_counter()
        await asyncio.sleep(2)
        rate = (cpu_seconds(proc) - before) / (time.perf_counter() - t) * 1000
        print(f"idle server: {rate:.1f} ms of CPU per second")
        for group in args.groups.split(","):
            title, query, only = GROUPS[group]
            print(f"\n{title}: server CPU ms per rerun after a Batch B change")
            print(f"{'page':18s} {'median':>7s} {'min':>6s} {'max':>6s} {'mean':>6s} {'wall median':>12s}")
            for page in pages:
                if only is not None and page not in only:
                    continue
                values = [BATCHES[c % len(BATCHES)] for c in range(args.warmup + args.repeats)]
                work = measure(
                    server.url, proc, page, query, "Batch B", values, args.warmup, args.quiet / 1000
                )
                try:
                    m = await asyncio.wait_for(work, args.timeout)
                    cpu, wall, errors = m.cpu_ms, m.wall_ms, m.errors
                except TimeoutError:
                    cpu, wall, errors = [], [], [f"timed out after {args.timeout:.0f} s"]
                row = f"{page:18s}"
                if cpu:
                    row += (
                        f" {statistics.median(cpu):7.0f} {min(cpu):6.0f} {max(cpu):6.0f} "
                        f"{statistics.mean(cpu):6.0f} {statistics.median(wall):9.0f} ms"
                    )
                print(row + (f"  {len(errors)} error(s): {errors[0][:100]}" if errors else ""), flush=True)
        status = Path(f"/proc/{server.proc.pid}/status").read_text()
        hwm = next(line for line in status.splitlines() if line.startswith("VmHWM"))
    rss = int(hwm.split()[1]) / 1024
    print(f"\nserver peak RSS {rss:.0f} MB; total wall time {time.perf_counter() - start:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="all", help="'all', or a comma list of: " + ", ".join(PAGES))
    parser.add_argument("--groups", default=",".join(GROUPS), help="a comma list of: " + ", ".join(GROUPS))
    parser.add_argument("--repeats", type=int, default=5, help="measured changes per page (median of these)")
    parser.add_argument("--warmup", type=int, default=2, help="changes per page before the measured ones")
    parser.add_argument("--quiet", type=float, default=250, help="ms without CPU use that count as idle")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per page and group, at most")
    parser.add_argument(
        "--book", action="store_true", help="Batch, Seed and new-text changes against the book's code"
    )
    parser.add_argument(
        "--changes",
        default=",".join(KINDS),
        type=lambda v: v.split(","),
        help="with --book, a comma list of the changes to measure: " + ", ".join(KINDS),
    )
    args = parser.parse_args()
    asyncio.run(run_book(args) if args.book else run(args))


if __name__ == "__main__":
    main()
