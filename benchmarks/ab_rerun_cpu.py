"""Server CPU per change of two trees side by side: ``python benchmarks/ab_rerun_cpu.py A B``.

This machine's speed drifts by ±30 % within minutes, more than most changes to the code move a
rerun's cost, so two runs of ``rerun_cpu.py`` an hour apart cannot tell two commits apart. Here both
trees serve at once (``A`` and ``B``: checkouts, e.g. ``git worktree add /tmp/base <commit>``), each
session opened with the book's text pasted, and every change goes to both servers in turn (A then B,
then B then A), so both meet the same moment of the machine. Each change is a value neither server
saw before (a new Dim d, Vocab V or Seed misses the caches; Batch B alternates 7 and 8). Prints each
page's mean and median server CPU ms per change and B / A. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

import tests.e2e.conftest as servers  # noqa: E402
from benchmarks.rerun_cpu import VERDICT, idle  # noqa: E402
from benchmarks.ws_load_test import Client, open_page, parse_pages  # noqa: E402

WIDGETS = {"dim": "Dim d", "vocab": "Vocab V", "seed": "Seed", "batch": "Batch B"}


def values(kind: str, k: int, pages: int) -> list[int]:
    """The values of page ``k``'s changes: new to the server (exact tables up to d ~ 660 at V 50,257)."""
    if kind == "dim":
        return list(range(80 + 16 * k, 4000, 16 * pages))
    if kind == "vocab":
        return list(range(50_300 + 50 * k, 90_000, 50 * pages))
    if kind == "seed":
        return list(range(1000 + 1000 * k, 10**6))
    return [7, 8] * 1000


async def opened(url: str, page: str) -> Client:
    """A session on ``page`` with the book's text pasted."""
    stream = url.replace("http://", "ws://") + "/_stcore/stream"
    client = Client(await connect(stream, subprotocols=["streamlit"], max_size=None), url, {}, page)
    text = VERDICT.read_text(encoding="utf-8")
    for label, value in [(None, None), ("Text", "Paste"), ("Paste text", text)]:
        if label:
            client.set(label, value)
        await client.rerun()
    return client


async def compare(urls: list[str], pids: list[int], pages: list[str], changes: int, kind: str) -> None:
    import psutil

    procs = [psutil.Process(pid) for pid in pids]
    for url in urls:
        await open_page(url)  # a fresh server's first run: the main page
    for k, page in enumerate(pages):
        clients = [await opened(url, page) for url in urls]
        cpu: list[list[float]] = [[], []]
        for n, value in enumerate(values(kind, k, len(pages))[:changes]):
            for j in (0, 1) if n % 2 == 0 else (1, 0):
                clients[j].set(WIDGETS[kind], value)
                before = await idle(procs[j], 0.2)
                await clients[j].rerun()
                cpu[j].append((await idle(procs[j], 0.2) - before) * 1000)
        for client in clients:
            await client.ws.close()
        a, b = (statistics.mean(c) for c in cpu)
        print(
            f"{page:18s} {kind:5s} A {a:5.1f} ms (median {statistics.median(cpu[0]):3.0f})  "
            f"B {b:5.1f} ms (median {statistics.median(cpu[1]):3.0f})  B / A {b / a:.2f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="tree A (a checkout)")
    parser.add_argument("b", type=Path, help="tree B (a checkout)")
    parser.add_argument("--pages", default="Pipeline,Families,Attention", help="a comma list of pages")
    parser.add_argument("--change", default="dim", choices=list(WIDGETS), help="the kind of change")
    parser.add_argument("--changes", type=int, default=16, help="changes per page and server")
    args = parser.parse_args()
    running = []
    try:
        for tree in (args.a, args.b):
            servers.ROOT = tree.resolve()  # start_server runs ``streamlit run`` in ROOT
            running.append(servers.start_server())
        urls, pids = [s.url for s in running], [s.proc.pid for s in running]
        asyncio.run(compare(urls, pids, parse_pages(args.pages), args.changes, args.change))
    finally:
        for server in running:
            server.stop()


if __name__ == "__main__":
    main()
