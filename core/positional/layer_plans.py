"""Position layer by layer in today's models: which layers rotate, with which base, and what each sees.

The families elsewhere give every layer the same position. Models since 2024 mix layers:

* **Llama 4** (iRoPE): every ``interval``-th layer is a NoPE layer (no position at all) that sees the whole
  text; the others rotate (RoPE) and see only their own chunk of ``chunk`` tokens. A NoPE layer's query
  is scaled up with the position (``nope_temperature``), so attention stays sharp over long texts.
* **Gemma 3**: five sliding-window layers to one full layer; a sliding layer sees the last ``window``
  tokens and rotates with a small base, a full layer sees everything and rotates with a large base
  (its positions divided by a linear factor on the 4B, 12B and 27B models).
* **Gemma 4**: Gemma 3's five to one, its last layer always full; a full layer turns only the first
  quarter of its pairs, at the whole head's frequencies (proportional RoPE), the rest carry no position.

Each function matches ``transformers`` 5.23 (``Llama4TextConfig``, ``Llama4TextAttention.forward``,
``Gemma3TextConfig``, ``Gemma3RotaryEmbedding``, ``Gemma4TextConfig``, ``Gemma4TextRotaryEmbedding``,
``masking_utils``): ``tests/core/positional/
test_layer_plans.py`` checks them against it.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from core.positional.rope import rope_inv_freq

FULL, CHUNK, WINDOW = "full", "chunk", "window"  # what a layer's query sees besides the causal mask


@dataclass(frozen=True)
class LayerPlan:
    """One layer: whether it rotates (and with which base and linear factor), and what it sees."""

    rotates: bool
    sees: str  # FULL, CHUNK or WINDOW
    span: int | None = None  # the chunk's or the window's tokens
    base: float | None = None  # the RoPE base of a layer that rotates
    factor: float = 1.0  # positions divided by it before they turn (linear scaling)
    turned: float = 1.0  # the share of a head's pairs that turn, the first ones (the rest: frequency 0)


def llama4_rotates(layers: int, interval: int = 4) -> list[int]:
    """Llama 4's ``no_rope_layers``: 1 for a layer that rotates, 0 for every ``interval``-th (from 1)."""
    return [int((i + 1) % interval != 0) for i in range(layers)]


def gemma3_is_full(layers: int, pattern: int = 6) -> list[bool]:
    """Gemma 3's layer types: True for every ``pattern``-th layer (from 1), full; the others slide."""
    return [(i + 1) % pattern == 0 for i in range(layers)]


def llama4_plan(
    layers: int,
    interval: int = 4,
    chunk: int = 8192,
    base: float = 500_000.0,
    no_rope_layers: list[int] | None = None,
) -> list[LayerPlan]:
    """Llama 4's layers: ``no_rope_layers[i]`` 1 rotates and sees its chunk, 0 is NoPE and sees all; by
    default every ``interval``-th layer (4, 8, …, counted from 1) is NoPE."""
    rope = no_rope_layers or llama4_rotates(layers, interval)
    return [
        LayerPlan(True, CHUNK, chunk, base) if rotates else LayerPlan(False, FULL)
        for rotates in rope[:layers]
    ]


def gemma3_plan(
    layers: int,
    pattern: int = 6,
    window: int = 1024,
    local_base: float = 10_000.0,
    global_base: float = 1_000_000.0,
    global_factor: float = 1.0,
) -> list[LayerPlan]:
    """Gemma 3's layers: every ``pattern``-th (counted from 1) is full, with the global base and its
    linear factor; the others slide a window of ``window`` tokens, with the local base."""
    full = LayerPlan(True, FULL, None, global_base, global_factor)
    return _full_or_sliding(gemma3_is_full(layers, pattern), full, window, local_base)


def gemma4_plan(
    layers: int,
    pattern: int = 6,
    window: int = 512,
    local_base: float = 10_000.0,
    global_base: float = 1_000_000.0,
    turned: float = 0.25,
) -> list[LayerPlan]:
    """Gemma 4's layers: Gemma 3's rule, the last layer full whatever the count, and a full layer turning
    only the first ``turned`` of its pairs."""
    is_full = gemma3_is_full(layers, pattern)
    if is_full:
        is_full[-1] = True  # as Gemma4TextConfig forces it
    full = LayerPlan(True, FULL, None, global_base, turned=turned)
    return _full_or_sliding(is_full, full, window, local_base)


def _full_or_sliding(is_full: list[bool], full: LayerPlan, window: int, local_base: float) -> list[LayerPlan]:
    """Layer by layer, ``full`` where ``is_full`` says so, else a sliding window of ``window`` tokens."""
    return [full if f else LayerPlan(True, WINDOW, window, local_base) for f in is_full]


def layer_inv_freq(plan: LayerPlan, head_dim: int) -> torch.Tensor:
    """[head_dim/2] the layer's rotation frequencies (its base, divided by its linear factor); a pair past
    the share that turns has frequency 0 (proportional RoPE: the first pairs keep a whole head's)."""
    if not plan.rotates:
        raise ValueError("A NoPE layer does not rotate: it has no frequencies.")
    inv_freq = rope_inv_freq(head_dim, plan.base) / plan.factor
    inv_freq[int(plan.turned * head_dim // 2) :] = 0.0
    return inv_freq


def chunked_mask(T: int, chunk: int) -> torch.Tensor:
    """[T, T] True where query i may look at key j: j ≤ i, both in the same chunk of ``chunk`` tokens."""
    i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
    return (j <= i) & (i // chunk == j // chunk)


def sliding_mask(T: int, window: int) -> torch.Tensor:
    """[T, T] True where query i may look at key j: j ≤ i, among the last ``window`` tokens."""
    i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
    return (j <= i) & (j > i - window)


def layer_mask(plan: LayerPlan, T: int) -> torch.Tensor:
    """[T, T] what the layer's queries may look at: causal, and in the same chunk or the window."""
    if plan.sees == CHUNK:
        return chunked_mask(T, plan.span)
    if plan.sees == WINDOW:
        return sliding_mask(T, plan.span)
    return torch.ones(T, T, dtype=torch.bool).tril()


def nope_temperature(
    positions: torch.Tensor, floor_scale: int = 8192, attn_scale: float = 0.1
) -> torch.Tensor:
    """Llama 4's factor on a NoPE layer's query at each absolute position p:
    1 + attn_scale · ln(1 + ⌊(p + 1) / floor_scale⌋); 1 for the first floor_scale − 1 positions."""
    return torch.log1p(torch.floor((positions.float() + 1.0) / floor_scale)) * attn_scale + 1.0
