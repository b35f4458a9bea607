"""benchmarks/ws_load_test.py's classroom, through the lecture hall's proxy.

    .venv/bin/python deploy/hall_load.py --processes 2 --sessions 60 --think 5 10 --duration 60 --change seed

Starts a lecture hall (deploy/lecture_hall.py) on loopback ports, then runs ws_load_test's sessions
against nginx instead of one server. Each session is one browser: its websocket carries its own
"hall" cookie, so nginx spreads the sessions over the processes as it would a class's browsers.
Reports ws_load_test's times and errors, each process's CPU time and peak RSS, and how many
sessions nginx's access log shows on each process. Traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from benchmarks import ws_load_test as wl  # noqa: E402
from deploy.lecture_hall import LectureHall, free_port  # noqa: E402

_cookies = itertools.count()
_connect = wl.connect


def _connect_as_a_browser(url, **kwargs):
    """ws_load_test's connect, with a cookie of this session's own (as a browser keeps nginx's)."""
    return _connect(url, additional_headers={"Cookie": f"hall=session-{next(_cookies)}"}, **kwargs)


async def run(args, hall: LectureHall) -> None:
    pages = wl.parse_pages(args.pages)
    procs = [psutil.Process(p.pid) for p in hall.processes.values()]
    result: dict = {
        "first": {},
        "times": {},
        "errors": [],
        "warm": asyncio.Event(),
        "go": asyncio.Event(),
        "stop": asyncio.Event(),
        "ready": set(),
        "think": bool(args.think),
        "sessions": args.sessions,
        "train": {"samples": [], "fragment_times": []},
        "proc": procs[0],  # ws_load_test notes the load's start with one process's CPU time
    }
    base = f"http://{hall.listen}"
    cpu0 = [wl.cpu_seconds(p) for p in procs]
    start = time.perf_counter()
    load: dict[str, float] = {}

    async def when_the_load_starts() -> None:  # every session has set up: only changes from here on
        await result["go"].wait()
        load["cpu"], load["start"] = sum(wl.cpu_seconds(p) for p in procs), time.perf_counter()

    watch = asyncio.ensure_future(when_the_load_starts())
    await asyncio.gather(
        *(wl.bounded(base, k, pages[k % len(pages)], args, result) for k in range(args.sessions))
    )
    wall = time.perf_counter() - start
    watch.cancel()
    every = [t for v in result["times"].values() for t in v]
    print(
        f"{args.sessions} sessions via nginx to {len(procs)} process(es), {args.change} changes, "
        f"think {args.think}, {wall:.1f} s"
    )
    print(f"errors: {len(result['errors'])}")
    for e in result["errors"][:20]:
        print("  " + e)
    if every:
        print(f"control change -> finished rerun: {wl.spread(every)} over {len(every)} changes")
    if load and every:
        used = sum(wl.cpu_seconds(p) for p in procs) - load["cpu"]
        span = time.perf_counter() - load["start"]
        print(
            f"during the load ({span:.0f} s): {used:.1f} s of CPU over all processes, "
            f"{used / len(every) * 1000:.0f} ms per change; machine load average {os.getloadavg()[0]:.1f}"
        )
    log = (hall.run / "access.log").read_text().splitlines()
    streams = Counter(line.split("upstream=")[1].split()[0] for line in log if "/_stcore/stream" in line)
    for port, proc in zip(hall.processes, procs, strict=True):
        used = wl.cpu_seconds(proc) - cpu0[procs.index(proc)]
        hwm = next(
            x for x in Path(f"/proc/{proc.pid}/status").read_text().splitlines() if x.startswith("VmHWM")
        )
        print(
            f"  process :{port}: {streams.get(f'127.0.0.1:{port}', 0)} sessions, CPU {used:.1f} s "
            f"({used / wall:.2f} cores), peak RSS {int(hwm.split()[1]) / 1024:.0f} MB"
        )


def main() -> None:
    parser = wl.class_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--processes", type=int, default=2)
    parser.set_defaults(change="seed")  # the change that misses every cache
    args = parser.parse_args()
    args.train, args.burst = False, False
    wl.connect = _connect_as_a_browser
    ports: list[int] = []
    while len(ports) < args.processes:
        if (port := free_port()) not in ports:
            ports.append(port)
    with tempfile.TemporaryDirectory() as run_dir:
        hall = LectureHall(ports, f"127.0.0.1:{free_port()}", Path(run_dir))
        hall.start()
        try:
            asyncio.run(run(args, hall))
        finally:
            hall.stop()


if __name__ == "__main__":
    main()
