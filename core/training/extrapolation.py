"""Extrapolation, measured: a TinyGPT trained with RoPE on T positions, evaluated out to k·T with its
rotation frequencies replaced by a scaling's (issue 24).

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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import torch

from core.positional.rope import rope_inv_freq
from core.positional.rope_scaling import scaled_inv_freq
from core.training.model import TinyGPT
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
    every loss). Training it costs ~3 s of CPU, which every fresh server paid on this page's first run
    while a class opening the page together waited behind it."""
    saved = json.loads(path.read_text())
    return Extrapolation(
        saved["trained"], saved["length"], saved["losses"], None, saved["steps"], saved["seconds"]
    )


def findings(e: Extrapolation) -> list[str]:
    """Sentences derived from the losses: each scaling's loss past T against none, and the best."""
    T, L = e.trained, e.length
    past = {name: e.past(name) for name in e.losses}
    best = min(past, key=past.get)
    words = [
        f"Trained on {T} positions, evaluated on {L}: plain RoPE (none) has loss {e.inside('none'):.3f} "
        f"before position {T} and {past['none']:.3f} from {T} on."
    ]
    for name in ("PI", "NTK", "YaRN"):
        if name in past:
            diff = past[name] - past["none"]
            verb = "lower" if diff < 0 else "higher"
            words.append(f"{name}: {past[name]:.3f} past {T} ({abs(diff):.3f} {verb} than none).")
    words.append(f"Lowest past {T}: {best}.")
    return words


def plain_inv_freq(model: TinyGPT) -> torch.Tensor:
    """The model's own θᵢ: [dh/2]."""
    return rope_inv_freq(model.cfg.emb_dim // model.cfg.n_heads, model.cfg.rope_base)
