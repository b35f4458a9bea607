"""The Today's models page's numbers: what each layer of Llama 4 and Gemma 3 does with position, where
Qwen2.5-VL puts an image's tokens, and how much of a head turns in GPT-NeoX, Phi, GLM and DeepSeek-V3."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
import torch

from core.positional.layer_plans import (
    FULL,
    WINDOW,
    LayerPlan,
    gemma3_plan,
    gemma4_plan,
    layer_inv_freq,
    layer_mask,
    llama4_plan,
    nope_temperature,
)
from core.positional.mrope import Segment, mrope_angles, mrope_positions, pair_axes
from core.positional.partial_rope import decoupled_rope, mla_softmax_scale, partial_rotary, rotary_dims
from core.positional.rope import rope_inv_freq
from core.positional.todays_models import (
    DEEPSEEK_V3,
    GEMMA2,
    GEMMA3,
    GEMMA4,
    GPT_OSS,
    LLAMA4,
    PART_HEADS,
    QWEN_VL,
)
from core.views.glossary import define
from core.views.units import ordinal

SHOWN_TOKENS, SHOWN_CHUNK = 12, 4  # the masks drawn: 12 tokens, a chunk of 4 (8,192 in the model)
BEFORE, AFTER = (
    ["Describe", "this", "photo:"],
    ["It", "shows", "a", "cat."],
)  # text around the image: a word a token
TEMPERATURE_END = 70_000  # the temperature chart's last position (past 8 chunks of 8,192)
AXES = ("t", "h", "w")


def llama4_layers() -> list[LayerPlan]:
    """Llama 4 Scout's layers, first to last."""
    return llama4_plan(LLAMA4.layers, LLAMA4.interval, LLAMA4.chunk, LLAMA4.base)


def nope_layers() -> list[int]:
    """Llama 4 Scout's layers without position, counted from 1."""
    return [k + 1 for k, layer in enumerate(llama4_layers()) if not layer.rotates]


def temperature_frame() -> pd.DataFrame:
    """The NoPE layers' query factor against position 0 … TEMPERATURE_END: each step and its two sides."""
    steps = torch.arange(LLAMA4.floor_scale - 1, TEMPERATURE_END + 1, LLAMA4.floor_scale)  # p + 1 = k · 8,192
    positions = torch.cat((torch.tensor([0]), steps - 1, steps, torch.tensor([TEMPERATURE_END]))).unique()
    factor = nope_temperature(positions, LLAMA4.floor_scale, LLAMA4.attn_scale)
    return pd.DataFrame({"position": positions.numpy(), "query factor": factor.double().numpy()})


def small_masks(tokens: int, chunk: int) -> dict[str, torch.Tensor]:
    """[tokens, tokens] masks of a chunked and a full layer, with a chunk of ``chunk`` to draw."""
    layers = llama4_plan(4, chunk=chunk)  # the first rotates in chunks, the fourth has no position
    chunked, full = layers[0], layers[3]
    return {
        "RoPE layer (chunked)": layer_mask(chunked, tokens),
        "NoPE layer (full)": layer_mask(full, tokens),
    }


def gemma3_layers() -> list[LayerPlan]:
    """Gemma 3 27B's layers, first to last."""
    return gemma3_plan(
        GEMMA3.layers,
        GEMMA3.pattern,
        GEMMA3.window,
        GEMMA3.local_base,
        GEMMA3.global_base,
        GEMMA3.global_factor,
    )


def gpt_oss_layers() -> list[LayerPlan]:
    """gpt-oss-20b's layers: a window of 128 tokens on every other one, the whole text on the rest."""
    return gemma3_plan(GPT_OSS.layers, 2, GPT_OSS.window, GPT_OSS.base, GPT_OSS.base)


@dataclass(frozen=True)
class Wavelengths:
    """Each pair's wavelength (positions per full turn) on a sliding and on a full layer of Gemma 3."""

    frame: pd.DataFrame  # pair, wavelength, layer
    turning_in_window: dict[str, int]  # by layer kind: the pairs that turn once within the window


def gemma2_layers() -> list[LayerPlan]:
    """Gemma 2 9B's layers: Gemma 3's rule with every 2nd layer full, one base on all of them."""
    g = GEMMA2
    return gemma3_plan(g.layers, g.pattern, g.window, g.base, g.base)


def gemma4_layers() -> list[LayerPlan]:
    """Gemma 4's layers as transformers 5.23 defines them by default, first to last."""
    g = GEMMA4
    return gemma4_plan(g.layers, g.pattern, g.window, g.local_base, g.global_base, g.turned)


@dataclass(frozen=True)
class FullPairs:
    """What turns on a Gemma 4 full layer: its pairs that turn, all its pairs, the slowest turning one's
    wavelength (positions per full turn)."""

    turned: int
    pairs: int
    slowest: float


def gemma4_full_pairs() -> FullPairs:
    """A Gemma 4 full layer's pairs: how many turn and how slowly the slowest of them does."""
    full = next(p for p in gemma4_layers() if p.sees == FULL)
    theta = layer_inv_freq(full, GEMMA4.global_head_dim).double()  # [256], zeros past the turned pairs
    turning = theta[theta > 0]
    return FullPairs(len(turning), len(theta), float(2 * math.pi / turning.min()))


def gemma3_kinds() -> dict[str, LayerPlan]:
    """Gemma 3's two kinds of layer, by the name the page gives them: its first sliding and full ones."""
    layers = gemma3_layers()
    return {"sliding layer": layers[0], "full layer": next(p for p in layers if p.sees == FULL)}


def gemma3_wavelengths() -> Wavelengths:
    kinds = gemma3_kinds()
    frames, turning = [], {}
    for name, plan in kinds.items():
        wavelength = (2 * math.pi / layer_inv_freq(plan, GEMMA3.head_dim).double()).numpy()
        frames.append(pd.DataFrame({"pair": range(len(wavelength)), "wavelength": wavelength, "layer": name}))
        turning[name] = int((wavelength <= GEMMA3.window).sum())
    return Wavelengths(pd.concat(frames, ignore_index=True), turning)


@dataclass(frozen=True)
class WindowScores:
    """A vector's score with itself r tokens back, on a sliding and on a full layer of Gemma 3."""

    frame: pd.DataFrame  # distance, score, layer: the sliding layer's rows stop at its window
    at_edge: dict[str, float]  # by layer kind: the score at the window's last distance (window − 1)
    past: float  # the full layer's score at the chart's last distance, which a sliding layer never sees


def window_scores(longest: int = 2 * GEMMA3.window) -> WindowScores:
    """The score of the all-ones head with itself r tokens back, r = 0 … ``longest`` − 1, over the same
    score at r = 0: RoPE turns each pair of q and k by r·θᵢ apart, so q·k / q·q is the mean of cos(r·θᵢ)
    over the pairs (1 at r = 0). A sliding layer sees no key past its window: its curve stops there."""
    r = torch.arange(longest, dtype=torch.float64)
    frames, at_edge, past = [], {}, 0.0
    for name, plan in gemma3_kinds().items():
        score = torch.cos(r[:, None] * layer_inv_freq(plan, GEMMA3.head_dim).double()).mean(-1)  # [R]
        seen = int(min(plan.span, longest)) if plan.sees == WINDOW else longest
        frames.append(pd.DataFrame({"distance": r[:seen].long(), "score": score[:seen], "layer": name}))
        at_edge[name] = float(score[GEMMA3.window - 1])
        past = float(score[-1]) if plan.sees == FULL else past
    return WindowScores(pd.concat(frames, ignore_index=True), at_edge, past)


# An example of text and an image: the text before it, the image's patches (frames, rows, columns before
# the 2 × 2 merge), the text after it.
IMAGE_GRID = (1, 4, 6)
VIDEO_GRID, VIDEO_SECONDS = (2, 4, 4), 1.0  # two frames of 4 × 4 patches, each standing for 1 second
MIDDLE = ["and", "this", "video:"]  # the text between the image and the video


def _grid_labels(kind: str, grid: tuple[int, int, int]) -> list[str]:
    frames, rows, columns = grid[0], grid[1] // QWEN_VL.merge, grid[2] // QWEN_VL.merge
    frame = [f", frame {f}" for f in range(frames)] if kind == "video" else [""]
    return [f"{kind}{f}, row {r}, column {c}" for f in frame for r in range(rows) for c in range(columns)]


def vl_tokens(before: list[str], after: list[str], video: bool = True) -> pd.DataFrame:
    """Every token of ``before``, an image of IMAGE_GRID patches, then (``video``) MIDDLE and a video of
    VIDEO_GRID, then ``after``, each with its (t, h, w)."""
    segments = [Segment("text", len(before)), Segment("image", grid=IMAGE_GRID)]
    labels = [*before, *_grid_labels("image", IMAGE_GRID)]
    if video:
        segments += [Segment("text", len(MIDDLE)), Segment("video", grid=VIDEO_GRID, seconds=VIDEO_SECONDS)]
        labels += [*MIDDLE, *_grid_labels("video", VIDEO_GRID)]
    t, h, w = mrope_positions(
        [*segments, Segment("text", len(after))], QWEN_VL.merge, QWEN_VL.tokens_per_second
    )
    return pd.DataFrame({"token": [*labels, *after], "t": t.tolist(), "h": h.tolist(), "w": w.tolist()})


def last_image_token(before: list[str]) -> tuple[int, int, int]:
    """The (t, h, w) of the image's last token (its bottom-right one) after the text ``before``."""
    tokens = vl_tokens(before, AFTER[:1], video=False)
    last = tokens[tokens["token"].str.startswith("image")].iloc[-1]
    return int(last["t"]), int(last["h"]), int(last["w"])


def pair_axes_frame() -> pd.DataFrame:
    """The axis each rotation pair follows, in Qwen2.5-VL (blocks) and Qwen3-VL (taking turns)."""
    blocks = pair_axes(QWEN_VL.section)
    turns = pair_axes(QWEN_VL.interleaved_section, interleaved=True)
    return pd.DataFrame(
        {
            "pair": range(len(blocks)),
            QWEN_VL.name: [AXES[a] for a in blocks.tolist()],
            QWEN_VL.interleaved_name: [AXES[a] for a in turns.tolist()],
        }
    )


def row_below_turns() -> torch.Tensor:
    """[P] how far each pair turns between two patches one row apart (the same anywhere in the image)."""
    positions = mrope_positions([Segment("image", grid=IMAGE_GRID)], QWEN_VL.merge)
    angles = mrope_angles(
        positions, rope_inv_freq(QWEN_VL.head_dim, QWEN_VL.base), pair_axes(QWEN_VL.section)
    )
    columns = IMAGE_GRID[2] // QWEN_VL.merge
    return angles[columns] - angles[0]  # (row 1, column 0) against (row 0, column 0)


@dataclass(frozen=True)
class KeptScores:
    """A vector's score with itself by distance, for heads that turn all, a quarter or a third of it."""

    frame: pd.DataFrame  # distance, score, head
    lowest: dict[str, float]  # by head: the lowest score over the distances


def kept_scores(longest: int = 512, base: float = 10_000.0) -> KeptScores:
    """The all-ones head's score with itself r tokens back over its score at 0, r = 0 … ``longest`` − 1:
    a head of 96 that turns all its numbers, GPT-NeoX's that turns 24 of 96 and DeepSeek-V3's that turns
    64 of 192 (``decoupled_rope``). The numbers that pass through keep their share at every distance."""
    r, neox = torch.arange(longest), PART_HEADS[0]
    turns = {
        f"all {neox.head_dim} turn (RoPE)": (neox.head_dim, lambda x, p: partial_rotary(x, p, 1.0, base)),
        f"{neox.name}: {rotary_dims(neox.head_dim, neox.fraction)} of {neox.head_dim} turn": (
            neox.head_dim,
            lambda x, p: partial_rotary(x, p, neox.fraction, base),
        ),
        f"{DEEPSEEK_V3.name}: {DEEPSEEK_V3.turned} of {DEEPSEEK_V3.passed + DEEPSEEK_V3.turned} turn": (
            DEEPSEEK_V3.passed + DEEPSEEK_V3.turned,
            lambda x, p: decoupled_rope(x, p, DEEPSEEK_V3.passed, base),
        ),
    }
    frames, lowest = [], {}
    for name, (head, turn) in turns.items():
        q = turn(torch.ones(longest, head, dtype=torch.float64), r)  # [R, head] at r
        k = turn(torch.ones(1, head, dtype=torch.float64), torch.zeros(1, dtype=torch.long))[0]  # at 0
        score = q @ k / head  # [R]; 1 at r = 0
        frames.append(pd.DataFrame({"distance": r, "score": score, "head": name}))
        lowest[name] = float(score.min())
    return KeptScores(pd.concat(frames, ignore_index=True), lowest)


def heads_frame() -> pd.DataFrame:
    """Per model, a head's numbers that turn with position and those that pass through unchanged."""
    rows = [
        (h.name, h.head_dim, rotary_dims(h.head_dim, h.fraction), "neighbours" if h.neighbours else "halves")
        for h in PART_HEADS
    ]
    rows.append((DEEPSEEK_V3.name, DEEPSEEK_V3.passed + DEEPSEEK_V3.turned, DEEPSEEK_V3.turned, "neighbours"))
    frame = pd.DataFrame(rows, columns=["model", "numbers per head", "turned", "pairs"])
    frame.insert(3, "passed through", frame["numbers per head"] - frame["turned"])
    return frame


def deepseek_scale() -> tuple[float, float]:
    """DeepSeek-V3's softmax scale, and 1/√(head numbers) it grows from."""
    head = DEEPSEEK_V3.passed + DEEPSEEK_V3.turned
    return mla_softmax_scale(head, DEEPSEEK_V3.factor, DEEPSEEK_V3.mscale_all_dim), head**-0.5


def answer_words() -> tuple[str, str]:
    """The page's answer in plain words, and its number (Llama 4 Scout's layers without position)."""
    nope, gemma = nope_layers(), gemma3_layers()
    full = sum(layer.sees == FULL for layer in gemma)
    number = f"{len(nope)} of {LLAMA4.layers}"
    rotating, g = LLAMA4.layers - len(nope), GEMMA3
    head = DEEPSEEK_V3.passed + DEEPSEEK_V3.turned
    words = (
        f"No. In {LLAMA4.name}, {len(nope)} of its {LLAMA4.layers} layers "
        f"(every {ordinal(LLAMA4.interval)}) are "
        f"{define('NoPE')} layers and see the whole text; the other {rotating} turn with RoPE "
        f"inside their {define('chunk')}. {g.name} turns {len(gemma) - full} layers with base "
        f"{g.local_base:,.0f} and {full} with base {g.global_base:,.0f}. {QWEN_VL.name} gives an image's "
        f"tokens three positions each, and {DEEPSEEK_V3.name} turns {DEEPSEEK_V3.turned} of the {head} "
        f"numbers of each {define('head')}."
    )
    return words, number
