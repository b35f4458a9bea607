"""Run the whole test suite N times in a row while other processes keep both cores busy.

    python benchmarks/suite_under_load.py --runs 3 [--workers 2] [-- PYTEST ARGS]

Prints each run's wall time and pytest's summary line, then how many runs failed. The load is
``--workers`` processes that spin in pure Python (as ``stress --cpu N``), started before the first
run and stopped after the last; each also stops by itself after ``--max-seconds``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import subprocess
import sys
import time


def spin(deadline: float) -> None:
    """Keep one core busy until ``deadline`` (time.monotonic)."""
    x = 0
    while time.monotonic() < deadline:
        x = (x * 1103515245 + 12345) % 2**31


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=3600.0)
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    deadline = time.monotonic() + args.max_seconds
    load = [mp.Process(target=spin, args=(deadline,), daemon=True) for _ in range(args.workers)]
    for p in load:
        p.start()
    failed = 0
    try:
        for k in range(1, args.runs + 1):
            start = time.perf_counter()
            run = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args.pytest_args],
                capture_output=True,
                text=True,
            )
            seconds = time.perf_counter() - start
            summary = next((line for line in reversed(run.stdout.splitlines()) if line.strip()), "")
            failed += run.returncode != 0
            print(f"run {k}: {seconds:6.1f} s wall, exit {run.returncode}: {summary}", flush=True)
            if run.returncode != 0:
                print(
                    "\n".join(line for line in run.stdout.splitlines() if line.startswith("FAILED")),
                    flush=True,
                )
    finally:
        for p in load:
            p.terminate()
    print(f"{args.runs - failed} of {args.runs} runs passed under {args.workers} busy processes")


if __name__ == "__main__":
    main()
