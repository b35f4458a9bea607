"""Default training runs, one per method, on the app's long sample: time, losses, structure.

    .venv/bin/python benchmarks/training_bench.py [--steps 300] [--size small] [--context 32]

Goal: a default run (learned, small, context 32, 300 steps) in <= 60 s on two cores, with a
validation loss clearly below the unigram baseline; learned positions gain structure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.text.samples import SAMPLES  # noqa: E402
from core.text.tokenizer import encode  # noqa: E402
from core.training.model import trainable_methods  # noqa: E402
from core.training.training import TrainConfig, train  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = TrainConfig()
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--size", default=defaults.size)
    parser.add_argument("--context", type=int, default=defaults.context_length)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    args = parser.parse_args()
    ids = encode(SAMPLES["log"])
    print(
        f"text: the 'log' sample, {len(ids):,} tokens; {args.size} model, context {args.context}, "
        f"{args.steps} steps, seed {args.seed}"
    )
    print(
        f"{'method':11s} {'time':>7s} {'val loss':>9s} {'unigram':>8s} {'2T: <T':>7s} {'2T: >=T':>8s} "
        f"{'structure 0 -> end':>19s}"
    )
    for method in trainable_methods():
        cfg = TrainConfig(method, args.context, args.size, args.steps, seed=args.seed)
        r = train(ids, cfg)
        past_in = f"{r.val_loss_past_inside:.3f}" if r.val_loss_past_inside is not None else "n/a"
        past_out = f"{r.val_loss_past_outside:.3f}" if r.val_loss_past_outside is not None else "n/a"
        structure = f"{r.structure[0]:+.3f} -> {r.structure[-1]:+.3f}" if r.structure else ""
        print(
            f"{method:11s} {r.seconds:6.1f}s {r.val_loss_inside:9.3f} {r.unigram_val_loss:8.3f} "
            f"{past_in:>7s} {past_out:>8s} {structure:>19s}"
        )


if __name__ == "__main__":
    main()
