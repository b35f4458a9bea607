"""Extrapolation, measured: a TinyGPT trained with RoPE on T positions, evaluated out to k·T with its
rotation frequencies replaced by a scaling's.

Each scaling takes s = k·T / T = k, as a released model sets its factor to the new length over the old:
none keeps θᵢ (plain RoPE past T), PI divides every θᵢ by s, NTK (dynamic) raises the base for the
evaluated length, YaRN blends the two per pair and scales cos and sin by its attention factor. The
scaled frequencies are ``core.positional.rope_scaling.scaled_inv_freq``'s, checked against transformers.
No fine-tuning: this is the "without training" case the papers compare against.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import torch

from core.positional.rope import rope_inv_freq
from core.positional.rope_scaling import scaled_inv_freq
from core.training.model import GPTConfig, TinyGPT
from core.training.training import EVAL_TOKENS, TrainConfig, TrainResult, per_position_loss, train

SCALINGS = {"none": "default", "PI": "linear", "NTK": "dynamic", "YaRN": "yarn"}  # name -> rope_type
TIMES = 4  # the evaluated length, in trained lengths
SHIFTS = 16  # window offsets averaged over (see extrapolation)
# The run this page trains itself: a tiny model with RoPE, T = 32 (a few seconds;
# core.serving.budget.RUN_SECONDS).
RUN = TrainConfig(method="rope", context_length=32, size="tiny", steps=200)
MEASURED_FILE = Path(__file__).resolve().parents[2] / "data" / "extrapolation_measured.json"  # RUN's numbers


def scaling_frequencies(
    rope_type: str, head_dim: int, base: float, trained: int, length: int
) -> tuple[torch.Tensor, float]:
    """The inv_freq [dh/2] and attention factor of ``rope_type`` taking a model of ``trained`` positions
    to ``length`` (factor s = length / trained), as transformers would for such a config."""
    s = length / trained
    if rope_type == "default":
        return scaled_inv_freq("default", head_dim, base, trained)
    if rope_type == "linear":
        return scaled_inv_freq("linear", head_dim, base, trained, factor=s)
    if rope_type == "dynamic":  # recomputed for the evaluated length
        return scaled_inv_freq("dynamic", head_dim, base, trained, seq_len=length, factor=s)
    if rope_type == "yarn":
        return scaled_inv_freq(
            "yarn", head_dim, base, length, factor=s, original_max_position_embeddings=trained
        )
    raise ValueError(f"scaling must be one of {', '.join(SCALINGS.values())} (not {rope_type!r}).")


def rotate_with(inv_freq: torch.Tensor, attention_factor: float = 1.0) -> Callable:
    """A RoPE ``rotate`` hook (as ``core.positional.rope.apply_rope``, interleaved pairs) with the given
    frequencies, cos and sin multiplied by ``attention_factor``: (x [..., T, dh], positions [T], base) →
    [..., T, dh]; ``base`` is ignored (``inv_freq`` replaces it)."""

    def rotate(x: torch.Tensor, positions: torch.Tensor, base: float) -> torch.Tensor:
        angles = positions.to(torch.float32)[:, None] * inv_freq.to(torch.float32)  # [T, dh/2]
        cos = (angles.cos() * attention_factor).to(x.dtype)  # [T, dh/2]
        sin = (angles.sin() * attention_factor).to(x.dtype)  # [T, dh/2]
        even, odd = x.unflatten(-1, (x.shape[-1] // 2, 2)).unbind(-1)  # [..., T, dh/2] each
        return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)

    return rotate


@contextlib.contextmanager
def rotating_with(model: TinyGPT, rotate: Callable) -> Iterator[TinyGPT]:
    """``model`` with every attention layer's RoPE hook replaced by ``rotate``, restored afterwards."""
    if model.cfg.family.rotate is None:
        raise ValueError(f"The model uses {model.cfg.method}, not RoPE: there is no rotation to scale.")
    layers = [block.attn for block in model.blocks]
    kept = [layer.family for layer in layers]
    try:
        for layer, family in zip(layers, kept, strict=True):
            layer.family = dataclasses.replace(family, rotate=rotate)
        yield model
    finally:
        for layer, family in zip(layers, kept, strict=True):
            layer.family = family


def scaled_loss_by_position(
    model: TinyGPT, data: torch.Tensor, length: int, rope_type: str, max_tokens: int = EVAL_TOKENS
) -> torch.Tensor:
    """Held-out loss at each position of windows of ``length`` with ``rope_type``'s frequencies: [length]."""
    cfg = model.cfg
    head_dim = cfg.emb_dim // cfg.n_heads
    inv_freq, factor = scaling_frequencies(rope_type, head_dim, cfg.rope_base, cfg.context_length, length)
    with rotating_with(model, rotate_with(inv_freq, factor)):
        return per_position_loss(model, data, length, max_tokens)


@dataclass
class Extrapolation:
    """Loss per position (0 … k·T − 1) for each scaling, of one trained model."""

    trained: int  # T
    length: int  # k·T
    losses: dict[str, list[float]]  # scaling name (SCALINGS) -> [k·T]
    run: TrainResult | None = None
    steps: int = 0  # training steps of the model
    seconds: float = 0.0  # its training's wall time where it was measured

    def past(self, name: str) -> float:
        """The mean loss at positions ≥ T."""
        tail = self.losses[name][self.trained :]
        return sum(tail) / len(tail)

    def inside(self, name: str) -> float:
        """The mean loss at positions < T."""
        head = self.losses[name][: self.trained]
        return sum(head) / len(head)


def extrapolation(
    model: TinyGPT, data: torch.Tensor, times: int = TIMES, shifts: int = SHIFTS
) -> Extrapolation:
    """Evaluate a RoPE model on windows of ``times``·T with each scaling of ``SCALINGS``.

    A short held-out text makes few windows of k·T (the ship's log: 7 of 128), so each position's loss
    is the mean over the windows starting at ``shifts`` evenly spaced offsets: every token is read at
    ``shifts`` different positions, and the curve shows position, not which token sits there.
    """
    T = model.cfg.context_length
    length = times * T
    offsets = sorted({o * length // shifts for o in range(shifts)})
    losses = {}
    for name, rope_type in SCALINGS.items():
        curves = [scaled_loss_by_position(model, data[o:], length, rope_type) for o in offsets]
        losses[name] = torch.stack(curves).mean(dim=0).tolist()  # [k·T]
    return Extrapolation(T, length, losses)


def measure(token_ids: list[int], cfg: TrainConfig = RUN, times: int = TIMES) -> Extrapolation:
    """Train ``cfg`` (RoPE) on ``token_ids`` and evaluate the model past its trained length."""
    if cfg.method != "rope":
        raise ValueError(f"Extrapolation is measured for RoPE (the config trains {cfg.method}).")
    if times < 1:
        raise ValueError(f"The evaluated length must be at least the trained one (×{times}).")
    kept: dict[str, Extrapolation] = {}
    run = train(token_ids, cfg, on_done=lambda model, data: kept.update(e=extrapolation(model, data, times)))
    return dataclasses.replace(kept["e"], run=run, steps=cfg.steps, seconds=run.seconds)


def write_measured(e: Extrapolation, path: Path = MEASURED_FILE) -> None:
    """Save a measured run's numbers (``tools/measure_extrapolation.py``): what ``measured()`` reads."""
    fields = {"trained": e.trained, "length": e.length, "steps": e.steps, "seconds": round(e.seconds, 2)}
    path.write_text(json.dumps({**fields, "torch": torch.__version__, "losses": e.losses}, indent=1) + "\n")


def measured(path: Path = MEASURED_FILE) -> Extrapolation:
    """The shipped run: ``RUN`` trained on the ship's log and evaluated past its length, as
    ``measure`` computed it (``tests/core/training/test_extrapolation.py`` trains it again and compares
    every loss). Trained on the server, it would take seconds of CPU on every fresh server's first run
    of this page, with a class that opens the page together waiting behind it."""
    saved = json.loads(path.read_text())
    return Extrapolation(
        saved["trained"], saved["length"], saved["losses"], None, saved["steps"], saved["seconds"]
    )


SHOWN = {"none": "plain RoPE", "PI": "position interpolation", "NTK": "dynamic NTK", "YaRN": "YaRN"}
SAME = 5e-4  # losses closer than this print the same to three decimals


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def lowest_past(e: Extrapolation) -> str:
    """The scaling (a ``SCALINGS`` name) with the lowest mean loss past the trained length."""
    return min(e.losses, key=e.past)


def findings(e: Extrapolation) -> list[str]:
    """What the measured losses show, in sentences derived from them: the loss before and past T unscaled,
    every scaling past T from lowest up, and what the scalings do before T."""
    T, L = e.trained, e.length
    inside, past = e.inside("none"), e.past("none")
    trend = "rises to" if past > inside + SAME else "falls to" if past < inside - SAME else "stays at"
    words = [
        f"Before position {T} every distance is one the model was trained on; there, unscaled, its mean "
        f"loss is {inside:.3f}. From position {T} to {L - 1} it {trend} {past:.3f}."
    ]
    ranking = sorted(e.losses, key=e.past)
    shown = ", ".join(f"{SHOWN.get(n, n)} {e.past(n):.3f}" for n in ranking)
    words.append(f"Past position {T}, from lowest up: {shown}.")
    best = ranking[0]
    if best == "none":
        others = len(e.losses) - 1
        words.append(
            f"In this one run plain RoPE comes out lowest: without further training, none of the {others} "
            "scalings helps this model."
        )
    else:
        below = past - e.past(best)
        words.append(
            f"In this one run {SHOWN.get(best, best)} comes out lowest, {below:.3f} below plain RoPE."
        )
    raised = [n for n in e.losses if n != "none" and e.inside(n) > inside + SAME]
    if raised:
        worst = max(raised, key=e.inside)
        every = len(raised) == len(e.losses) - 1 and len(raised) > 1
        who = "Every scaling" if every else _listed([SHOWN.get(n, n) for n in raised])
        verb = "raises" if every or len(raised) == 1 else "raise"
        words.append(
            f"{who} also {verb} the loss before position {T} ({SHOWN.get(worst, worst)}: "
            f"{e.inside(worst):.3f} instead of {inside:.3f}), where every distance was seen in training: new "
            "frequencies give each distance a new angle, short distances too, and the model learned to read "
            "the old ones."
        )
    return words


def verdict(e: Extrapolation) -> str:
    """The measured run's answer to "does scaling make the model read well past its trained length?", for
    the page's story: derived from which scaling comes out lowest past T."""
    best = lowest_past(e)
    ask = "Does that make the model read well past L? On a tiny model, measured at the end of this page, "
    learn = (
        "released models train further on long texts after changing their frequencies (Llama 3.1 and "
        "DeepSeek-V3 did), so that they learn to read the new angles; the tiny run does not."
    )
    if best == "none":
        return (
            f"{ask}not by itself: without further training, plain RoPE, unscaled, comes out lowest past "
            f"its trained length. Scaling alone is not enough: {learn}"
        )
    return (
        f"{ask}{SHOWN.get(best, best)} comes out lowest past its trained length, even without further "
        f"training. Even so, {learn}"
    )


def run_intro(e: Extrapolation, cfg: TrainConfig = RUN) -> str:
    """What the measured run is, for a student: the model, the text, what was measured and how to read it.

    Every number is derived from ``cfg`` (the run's shape) and ``e`` (its lengths and steps).
    """
    from core.text.samples import SAMPLES
    from core.training.model import SIZES
    from core.training.training import VAL_FRACTION

    emb_dim, heads, layers = SIZES[cfg.size]
    head_dim = emb_dim // heads
    theta = rope_inv_freq(head_dim, GPTConfig(1, cfg.context_length).rope_base).double()  # [dh/2]
    slow = int((e.trained * theta < 2 * math.pi).sum())
    example = ",".join(SAMPLES["log"].splitlines()[0].split(",")[:2])  # its first entry, to a comma
    s = e.length // e.trained
    return (
        f"A tiny GPT-style model with RoPE ({layers} layer{'s' * (layers != 1)}, {heads} heads of {head_dim} "
        f"dimensions, so {head_dim // 2} pairs each) was trained here for {e.steps} steps on windows of "
        f"T = {e.trained} tokens of a ship's log: a long, repetitive text this app writes from a few word "
        f"lists (“{example}, …”). Within {e.trained} positions {slow} of its {head_dim // 2} pairs never "
        f"finish a turn. It is then tested on the last {VAL_FRACTION:.0%} of the log, which it never trained "
        f"on, in windows of {e.length} = {s}·T tokens, once with each scaling (s = {s}) and no further "
        "training. Each line is its loss at each position of the window: how badly it predicts the next "
        "token there (lower is better). Their authors report that on large models dynamic NTK and YaRN lower "
        "the loss past the trained length even without further training."
    )


def plain_inv_freq(model: TinyGPT) -> torch.Tensor:
    """The model's own θᵢ: [dh/2]."""
    return rope_inv_freq(model.cfg.emb_dim // model.cfg.n_heads, model.cfg.rope_base)
