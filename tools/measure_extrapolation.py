"""Train the Long context page's tiny RoPE model and save its measured extrapolation for the app to ship.

    python tools/measure_extrapolation.py

Trains ``core.training.extrapolation.RUN`` on the ship's log (``core.text.samples``), evaluates it past
its trained length with each scaling (``measure``) and writes ``data/extrapolation_measured.json``
(``write_measured``), which the page reads (``measured``) instead of training on a fresh server's first
run. The run is seeded and uses one thread, as the server does (``ui.server.runtime``; another
thread count sums in another order): the tests train it again and compare every loss.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.text.samples import SAMPLES  # noqa: E402
from core.text.tokenizer import encode  # noqa: E402
from core.training.extrapolation import MEASURED_FILE, measure, write_measured  # noqa: E402


def main() -> None:
    torch.set_num_threads(1)
    e = measure(encode(SAMPLES["log"]))
    write_measured(e)
    print(f"{MEASURED_FILE}: {e.steps} steps in {e.seconds:.1f} s, losses at {e.length} positions")


if __name__ == "__main__":
    main()
