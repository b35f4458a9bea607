"""Train the tiny GPT on a text and record how its positions are learned.

    python -m core.training --method learned --context 32 --size small --steps 400 --text sample:log

prints the run's metrics as JSON (see ``TrainResult.summary``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import torch

from core.positional.family import FAMILIES
from core.serving.budget import RUN_SECONDS, TRAIN_BYTES
from core.similarity import cosine_matrix, pair_distances
from core.text.data import TextTooShort
from core.training.adamw import AdamW
from core.training.model import (
    SIZES,
    GPTConfig,
    TinyGPT,
    first_block_state,
    init_weights,
    num_parameters,
    trainable_methods,
)

VAL_FRACTION = 0.1
RECORDS = 25  # validation losses and table snapshots per run (bounds a result's memory)
EVAL_TOKENS = 16_384  # held-out tokens the final evaluation reads at most (a 1 MB text holds ~40,000)
RECORD_EVAL_TOKENS = 2_048  # held-out tokens each of the RECORDS evaluations during training reads
LOGIT_ELEMENTS = 2**22  # logits computed at once in an evaluation (16 MB of float32)
# Cost model of one run on one CPU core, fitted with benchmarks/training_bench.py on the machine the app
# is developed on (a 2-core AMD EPYC): matrix products at ~60 GFLOP/s, and ~10 ns per logit element
# (softmax, cross-entropy, their grads). A prediction, not a clock: TrainConfig.validate refuses a run
# predicted over RUN_SECONDS, and nothing stops a run at 60 s, so on a slower core an accepted run just
# takes longer (and the queue's waits are longer than it shows).
FLOPS_PER_SECOND = 60e9
SECONDS_PER_LOGIT = 10e-9
MB = 10**6


MAX_TRAIN_TOKENS = 20_000  # a longer text is cut here: its vocabulary sets the model's logits' memory
TOKENS_PER_STEP = 1024  # the page's batch: 32 windows of 32 tokens, 4 windows of 256


def batch_size_for(context_length: int) -> int:
    """Windows per step so that a step reads about ``TOKENS_PER_STEP`` tokens (at least 4 windows).

    Longer windows with the same batch would multiply the attention maps' memory by T².
    """
    return max(4, TOKENS_PER_STEP // context_length)


@dataclass(frozen=True)
class TrainConfig:
    """One training run; equal configs on equal text give identical results (CPU, fixed seed)."""

    method: str = "learned"  # one of core.training.model.trainable_methods()
    context_length: int = 32  # T: the trained length
    size: str = "small"  # a key of core.training.model.SIZES
    steps: int = 300  # optimizer steps
    batch_size: int = 32  # windows per step
    lr: float = 3e-3  # AdamW learning rate (cosine decay to 10%)
    seed: int = 123  # init and batch order

    def validate(self, num_tokens: int, vocab_size: int | None = None) -> None:
        """Raise ``ValueError`` if the run cannot start on a text of ``num_tokens`` tokens.

        With ``vocab_size`` (the text's distinct tokens) it also refuses a run that would take longer
        than ``RUN_SECONDS`` or more memory than ``TRAIN_BYTES`` (``core.serving.budget``).
        """
        if self.method not in trainable_methods():
            names = ", ".join(f"{FAMILIES[m].label} ({m})" for m in trainable_methods())
            raise ValueError(f"Training supports {names}, not {self.method!r}.")
        if self.size not in SIZES:
            raise ValueError(f"Model size must be one of {', '.join(SIZES)}.")
        if not 4 <= self.context_length <= 256:
            raise ValueError(f"The training context must be between 4 and 256 (it is {self.context_length}).")
        if not 1 <= self.steps <= 5000:
            raise ValueError(f"Steps must be between 1 and 5,000 (it is {self.steps}).")
        needed = math.ceil(2 * (self.context_length + 1) / VAL_FRACTION)
        if num_tokens < needed:
            raise TextTooShort(
                f"The text has {num_tokens:,} tokens; training with context {self.context_length} needs at "
                f"least {needed:,} (10% are held out, and the held-out part must fit windows of twice the "
                "context). Pick the long sample, paste a longer text, or lower the context."
            )
        if vocab_size is None:
            return
        seconds = estimated_seconds(self, vocab_size, num_tokens)
        nbytes = estimated_bytes(self, vocab_size, num_tokens)
        if seconds > RUN_SECONDS:
            fixed = estimated_seconds(
                dataclasses.replace(self, steps=0), vocab_size, num_tokens
            )  # evaluations
            most = int((RUN_SECONDS - fixed) / ((seconds - fixed) / self.steps))
            raise ValueError(
                f"This run would take about {seconds:,.0f} s of the server's CPU, which the whole class "
                f"shares; a run may take at most {RUN_SECONDS} s. "
                + (f"Lower the steps to at most {most:,}, " if most >= 1 else "Lower ")
                + "the context or the model size."
            )
        if nbytes > TRAIN_BYTES:
            raise ValueError(
                f"This run would need about {nbytes / 1e6:,.0f} MB of memory; a run may take at most "
                f"{TRAIN_BYTES / 1e6:,.0f} MB on the shared server. Lower the context or the model size, "
                "or use a text with fewer distinct tokens."
            )


def _forward_flops(cfg: TrainConfig, vocab_size: int, tokens: int, length: int) -> float:
    """Matrix-product FLOPs of one forward pass over ``tokens`` tokens in windows of ``length``."""
    d, _, n_layers = SIZES[cfg.size]
    return 2 * tokens * (12 * n_layers * d * d + d * vocab_size) + 2 * tokens * n_layers * length * d


def estimated_seconds(cfg: TrainConfig, vocab_size: int, num_tokens: int) -> float:
    """Seconds of one CPU core a run takes (steps, the RECORDS evaluations and the final ones)."""
    T, held_out = cfg.context_length, int(num_tokens * VAL_FRACTION)
    step_tokens = cfg.batch_size * T
    step = 3 * _forward_flops(cfg, vocab_size, step_tokens, T) / FLOPS_PER_SECOND
    step += 3 * step_tokens * vocab_size * SECONDS_PER_LOGIT
    record, final = min(held_out, RECORD_EVAL_TOKENS), min(held_out, EVAL_TOKENS)
    evals = [(record, T)] * (RECORDS + 1) + [(final, T), (final, 2 * T)]
    evaluation = sum(
        _forward_flops(cfg, vocab_size, n, length) / FLOPS_PER_SECOND + n * vocab_size * SECONDS_PER_LOGIT
        for n, length in evals
    )
    return cfg.steps * step + evaluation


def _eval_logit_elements(cfg: TrainConfig, vocab_size: int, num_tokens: int) -> int:
    """The most logit elements one evaluation chunk holds (``per_position_loss``)."""
    held_out = num_tokens - int(num_tokens * (1 - VAL_FRACTION))
    fixed = FAMILIES[cfg.method].fixed_length  # a learned table is evaluated in windows of T only
    most = 0
    for length in [cfg.context_length] if fixed else [cfg.context_length, 2 * cfg.context_length]:
        windows = (min(held_out, EVAL_TOKENS + 1) - 1) // length
        chunk = max(1, LOGIT_ELEMENTS // (length * vocab_size))
        most = max(most, min(windows, chunk) * length * vocab_size)
    return most


def estimated_bytes(cfg: TrainConfig, vocab_size: int, num_tokens: int) -> int:
    """Peak bytes of one run (``train``) on ``num_tokens`` tokens of ``vocab_size`` distinct IDs: the bound
    ``TrainConfig.validate`` holds a run to, and what the train queue reserves from the memory governor.

    The model's parameters with their gradients and AdamW's two moments (16 bytes each), plus the larger
    of a step's working set and an evaluation chunk's logits. A step's working set: activations, a
    score-bias family's (ALiBi's) biased scores of its B windows (or of the first loss's 8), and its
    logits, 12.5 bytes an element with their log-softmax and gradient, or 8.4 for the first loss's 8
    windows, which has no backward pass. Fitted on this machine's peaks (glibc,
    ``docs/measurements.md``) and checked against fresh ones
    by ``tests/core/serving/test_memory_governor.py``.
    """
    d, heads, layers = SIZES[cfg.size]
    T, V = cfg.context_length, vocab_size
    params = 12 * layers * d * d + V * d + T * d
    windows = max(cfg.batch_size, 8)
    biased = FAMILIES[cfg.method].attention_bias is not None  # its [H, T, T] bias kept for backward
    logits = max(12.5 * cfg.batch_size * T * V, 8.4 * 8 * T * V)
    step = 1.7 * MB + 72 * windows * T * d * layers + logits
    step += 2.8 * windows * heads * T * T * layers * biased
    evaluation = 2.3 * MB + 12.5 * _eval_logit_elements(cfg, V, num_tokens)
    return int(16 * params + max(step, evaluation))


def compact_vocab(token_ids: list[int]) -> tuple[torch.Tensor, list[int]]:
    """Renumber GPT-2 IDs 0…U−1 by the tokens the text uses: ([N] new IDs, the U GPT-2 IDs).

    A 50,257-row table for a text that uses ~1,000 tokens would be mostly dead weight on a CPU.
    """
    vocab = sorted(set(token_ids))
    index = {t: i for i, t in enumerate(vocab)}
    return torch.tensor([index[t] for t in token_ids], dtype=torch.long), vocab


def unigram_loss(train: torch.Tensor, val: torch.Tensor, vocab_size: int) -> float:
    """Cross-entropy (nats) of ``val`` under add-one-smoothed token frequencies of ``train``."""
    counts = torch.bincount(train, minlength=vocab_size).double() + 1.0  # [V]
    log_p = torch.log(counts / counts.sum())  # [V]
    return float(-log_p[val].mean())


def neighbour_likeness(table: torch.Tensor) -> tuple[float, float]:
    """Mean cosine of neighbouring positions (|i − j| = 1) and of distant ones (|i − j| ≥ T/2)."""
    T = table.shape[0]
    sim = cosine_matrix(table)  # [T, T]
    gap = pair_distances(torch.arange(T))  # [T, T]
    return float(sim[gap == 1].mean()), float(sim[gap >= T // 2].mean())


def position_structure(table: torch.Tensor) -> float:
    """Mean cosine of neighbouring positions minus that of distant ones (|i − j| ≥ T/2).

    About 0 for a random table; positive once neighbours have become alike.
    """
    T = table.shape[0]
    sim = cosine_matrix(table)  # [T, T]
    gap = pair_distances(torch.arange(T))  # [T, T]
    return float(sim[gap == 1].mean() - sim[gap >= T // 2].mean())


def similarity_picture(table: torch.Tensor) -> str:
    """What a learned table's cosine-similarity matrix shows, read from its numbers: the diagonal alone,
    a band along it, or blocks of early and late positions that point opposite ways."""
    T = table.shape[0]
    if T < 4:
        return f"With {T} positions there is too little of the matrix to see a pattern in."
    sim = cosine_matrix(table)  # [T, T]
    gap = pair_distances(torch.arange(T))  # [T, T]
    near, far = neighbour_likeness(table)
    half = T // 2
    early = float(sim[:half, :half][gap[:half, :half] > 0].mean())  # within positions 0 … half−1
    late = float(sim[half:, half:][gap[half:, half:] > 0].mean())  # within half … T−1
    across = float(sim[:half, half:].mean())
    if near - far < 0.1:
        return (
            f"Only the diagonal stands out: neighbours (mean cosine {near:+.2f}) are no more alike than "
            f"positions {half} or more apart ({far:+.2f})."
        )
    if across <= -0.1 and min(early, late) >= 0.1:
        return (
            f"Two blocks: positions 0–{half - 1} are alike among themselves (mean cosine {early:+.2f}), so "
            f"are {half}–{T - 1} ({late:+.2f}), and the two halves point opposite ways ({across:+.2f}); "
            f"neighbours {near:+.2f}, positions {half} or more apart {far:+.2f}."
        )
    return (
        f"A band along the diagonal: neighbours (mean cosine {near:+.2f}) are more alike than positions "
        f"{half} or more apart ({far:+.2f})."
    )


def windows(data: torch.Tensor, length: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Non-overlapping evaluation windows: inputs and next-token targets, [N, length] each."""
    n = (len(data) - 1) // length
    x = data[: n * length].view(n, length)  # [N, L]
    y = data[1 : n * length + 1].view(n, length)  # [N, L]
    return x, y


@torch.no_grad()
def per_position_loss(
    model: TinyGPT, data: torch.Tensor, length: int, max_tokens: int = EVAL_TOKENS
) -> torch.Tensor:
    """Mean cross-entropy at each position of windows of ``length`` tokens: [length].

    Reads at most ``max_tokens`` of ``data`` and computes the logits a few windows at a time, so the
    memory an evaluation takes is bounded whatever the text's length and vocabulary (all logits of a
    1 MB text at once would take over a gigabyte).
    """
    x, y = windows(data[: max_tokens + 1], length)  # [N, L] each
    vocab = model.head.out_features
    chunk = max(1, LOGIT_ELEMENTS // (length * vocab))  # windows per forward pass
    total = torch.zeros(length, dtype=torch.float64)
    for k in range(0, len(x), chunk):
        logits = model(x[k : k + chunk])  # [n, L, V]
        loss = torch.nn.functional.cross_entropy(logits.transpose(1, 2), y[k : k + chunk], reduction="none")
        total += loss.sum(dim=0, dtype=torch.float64)  # [L]
    return (total / len(x)).float()


@dataclass
class TrainResult:
    """Everything the page draws; ``summary()`` is what the command line prints."""

    config: TrainConfig
    vocab_size: int
    num_parameters: int
    unigram_val_loss: float
    steps: list[int] = field(default_factory=list)  # where the losses below were taken
    train_loss: list[float] = field(default_factory=list)
    val_loss: list[float] = field(default_factory=list)
    structure: list[float] = field(default_factory=list)  # learned only: position_structure
    snapshots: list[torch.Tensor] = field(default_factory=list)  # learned only: [T, d] tables
    val_loss_inside: float = math.nan  # windows of T tokens
    val_loss_past_inside: float | None = None  # windows of 2T: positions < T (None: cannot run)
    val_loss_past_outside: float | None = None  # windows of 2T: positions ≥ T
    # Validation loss at each position of windows of 2T (0 … 2T−1); of T for a learned table, which has
    # no row past T: how each method extrapolates, position by position.
    loss_by_position: list[float] = field(default_factory=list)
    seconds: float = 0.0
    stopped: bool = False
    # What the Attention page reads of the trained model (core.training.model.first_block_state): its
    # token table, positional module and block 1's layer norm and qkv; and the GPT-2 IDs it knows.
    first_block: dict[str, torch.Tensor] = field(default_factory=dict)
    vocab: list[int] = field(default_factory=list)

    def summary(self) -> dict:
        """Metrics as plain numbers (no tensors)."""
        out = {
            k: v for k, v in self.__dict__.items() if k not in ("snapshots", "config", "first_block", "vocab")
        }
        return {"config": self.config.__dict__, **out}


def comparison_rows(results: dict[str, TrainResult | None], context_length: int) -> list[dict[str, str]]:
    """One table row per method: validation loss in windows of T and, past it, in windows of 2T.

    Args:
        results: each method's finished run on the same text and settings, or None (not trained yet).
        context_length: T, the trained length.

    Returns:
        Rows of display strings (losses to 3 decimals; "—" where a method has no run yet), each method
        named by its family's label. A learned table cannot run a window of 2T at all (no row for
        position T or later), so neither of its 2T cells has a loss: both say the same why.
    """
    T = context_length
    rows = []
    for method, r in results.items():
        fixed = FAMILIES[method].fixed_length  # a learned table has no row for position T or later
        fmt = (lambda x: f"{x:.3f}") if r else (lambda x: "—")
        why = f"cannot run a window of {2 * T}"
        rows.append(
            {
                "method": FAMILIES[method].label,
                f"validation loss, windows of {T}": fmt(r and r.val_loss_inside),
                f"windows of {2 * T}: positions < {T}": why if fixed else fmt(r and r.val_loss_past_inside),
                f"windows of {2 * T}: positions ≥ {T}": why if fixed else fmt(r and r.val_loss_past_outside),
                "status": "done" if r else "not trained yet",
            }
        )
    return rows


def cosine_decay(step: int, steps: int) -> float:
    """The learning rate's factor after ``step`` of ``steps`` updates: 1 down to 0.1 along a half cosine."""
    return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * step / steps))


def _record(result: TrainResult, model: TinyGPT, val_data: torch.Tensor, step: int, loss: float) -> None:
    """Add one record to ``result``: the step, its train loss, the validation loss on the first
    ``RECORD_EVAL_TOKENS`` held-out tokens and, for a learned table, a snapshot [T, d] and its structure."""
    model.eval()
    result.steps.append(step)
    result.train_loss.append(loss)
    val = per_position_loss(model, val_data, result.config.context_length, RECORD_EVAL_TOKENS)
    result.val_loss.append(float(val.mean()))
    table = model.position_table()  # [T, d] of a learned table, else None
    if table is not None:
        table = table.detach().clone()  # [T, d]
        result.snapshots.append(table)
        result.structure.append(position_structure(table))
    model.train()


def _step(
    model: TinyGPT,
    optimizer: AdamW,
    train_data: torch.Tensor,
    cfg: TrainConfig,
    step: int,
    g: torch.Generator,
) -> torch.Tensor:
    """Update ``step`` of ``cfg.steps`` on B random windows of ``train_data``: their loss before it."""
    T = cfg.context_length
    starts = torch.randint(0, len(train_data) - T - 1, (cfg.batch_size,), generator=g)  # [B]
    index = starts[:, None] + torch.arange(T + 1)  # [B, T+1]
    batch = train_data[index]  # [B, T+1]
    loss = model.loss(batch[:, :-1], batch[:, 1:])
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.lr = cfg.lr * cosine_decay(step - 1, cfg.steps)  # as LambdaLR: step k uses decay(k - 1)
    optimizer.step()
    return loss


def _final_losses(result: TrainResult, model: TinyGPT, val_data: torch.Tensor) -> None:
    """The trained model's validation losses, in windows of T and (but for a learned table) of 2T."""
    T = result.config.context_length
    model.eval()
    inside = per_position_loss(model, val_data, T)  # [T]
    result.val_loss_inside = float(inside.mean())
    result.loss_by_position = inside.tolist()
    if not model.cfg.family.fixed_length:  # a learned table has no row for position T or later
        past = per_position_loss(model, val_data, 2 * T)  # [2T]
        result.val_loss_past_inside = float(past[:T].mean())
        result.val_loss_past_outside = float(past[T:].mean())
        result.loss_by_position = past.tolist()


def train(
    token_ids: list[int],
    cfg: TrainConfig,
    on_progress: Callable[[TrainResult, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_done: Callable[[TinyGPT, torch.Tensor], None] | None = None,
) -> TrainResult:
    """Train a ``TinyGPT`` on the text's tokens; the last 10% are held out for validation.

    Args:
        token_ids: GPT-2 IDs of the text.
        on_progress: called with the result so far and the step, ``RECORDS`` times per run.
        should_stop: polled every step; training ends early (``stopped``) when it returns True.
        on_done: called with the trained model (in eval mode) and the held-out IDs (compact vocabulary),
            for an evaluation the result does not keep (``core.training.extrapolation``).
    """
    cfg.validate(len(token_ids), len(set(token_ids)))
    start = time.perf_counter()
    data, vocab = compact_vocab(token_ids)
    split = int(len(data) * (1 - VAL_FRACTION))
    train_data, val_data = data[:split], data[split:]
    emb_dim, n_heads, n_layers = SIZES[cfg.size]
    model_cfg = GPTConfig(len(vocab), cfg.context_length, emb_dim, n_heads, n_layers, cfg.method)
    g = torch.Generator().manual_seed(cfg.seed)
    model = TinyGPT(model_cfg)
    init_weights(model, g)
    optimizer = AdamW(model.parameters(), lr=cfg.lr, weight_decay=0.01)  # torch.optim.AdamW's update
    result = TrainResult(
        cfg, len(vocab), num_parameters(model), unigram_loss(train_data, val_data, len(vocab))
    )

    def record(step: int, loss: float) -> None:
        _record(result, model, val_data, step, loss)
        if on_progress:
            on_progress(result, step)

    T = cfg.context_length
    every = max(1, cfg.steps // RECORDS)
    record(0, float(model.loss(*windows(train_data[: 8 * T + 1], T)).detach()))
    for step in range(1, cfg.steps + 1):
        if should_stop and should_stop():
            result.stopped = True
            break
        loss = _step(model, optimizer, train_data, cfg, step, g)
        if step % every == 0 or step == cfg.steps:
            record(step, float(loss.detach()))
    _final_losses(result, model, val_data)
    result.first_block, result.vocab = first_block_state(model), vocab
    result.seconds = time.perf_counter() - start
    if on_done:  # not counted in seconds: the training's time
        on_done(model, val_data)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Train the tiny GPT and print its metrics as JSON.")
    defaults = TrainConfig()
    parser.add_argument("--method", default=defaults.method, choices=trainable_methods())
    parser.add_argument("--context", type=int, default=defaults.context_length)
    parser.add_argument("--size", default=defaults.size, choices=list(SIZES))
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--batch", type=int, default=defaults.batch_size)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--text", default="sample:log", help="sample:NAME (cat, lesson, log) or a path")
    args = parser.parse_args(argv)
    from core.text.samples import SAMPLES
    from core.text.tokenizer import encode

    if args.text.startswith("sample:"):
        text = SAMPLES[args.text.removeprefix("sample:")]
    else:
        text = Path(args.text).read_text(encoding="utf-8")
    cfg = TrainConfig(args.method, args.context, args.size, args.steps, args.batch, args.lr, args.seed)
    try:
        result = train(encode(text), cfg)
    except ValueError as exc:
        sys.exit(f"error: {exc}")
    json.dump(result.summary(), sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
