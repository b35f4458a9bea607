"""The Today's models page as a script: each layer's position in Llama 4 and Gemma 3, Qwen2.5-VL's three
positions per token, and the part of a head that turns."""

from __future__ import annotations

import json

from core.positional.layer_plans import chunked_mask, gemma3_is_full, llama4_rotates, nope_temperature
from core.positional.mrope import Segment, _grid_positions, mrope_positions, pair_axes
from core.positional.partial_rope import mla_softmax_scale, rotary_dims
from core.positional.rope import _check_dim, rope_inv_freq
from core.positional.todays_models import DEEPSEEK_V3, GEMMA2, GEMMA3, GEMMA4, LLAMA4, PART_HEADS, QWEN_VL
from core.positional.todays_views import (
    AFTER,
    BEFORE,
    IMAGE_GRID,
    MIDDLE,
    SHOWN_CHUNK,
    SHOWN_TOKENS,
    VIDEO_GRID,
    VIDEO_SECONDS,
)
from core.scripts import Cell, Script
from core.scripts.common import import_block, reads, source


def _gemma4() -> dict[str, float]:
    """Gemma 4's settings the script reads: its layers, and a full layer's head, share turned and base."""
    g = GEMMA4
    return {
        "layers": g.layers,
        "pattern": g.pattern,
        "head": g.global_head_dim,
        "turned": g.turned,
        "base": g.global_base,
    }


def _settings() -> str:
    heads = ", ".join(f'"{h.name}": ({h.head_dim}, {h.fraction})' for h in PART_HEADS)
    return f"""# Each released model's config.json, as transformers 5.23 reads it
llama4 = {{"layers": {LLAMA4.layers}, "interval": {LLAMA4.interval}, "chunk": {LLAMA4.chunk}}}
floor_scale, attn_scale = {LLAMA4.floor_scale}, {LLAMA4.attn_scale}  # Llama 4's temperature
gemma3 = {{"layers": {GEMMA3.layers}, "pattern": {GEMMA3.pattern}, "window": {GEMMA3.window}}}
gemma3["head_dim"] = {GEMMA3.head_dim}
local_base, global_base, global_factor = {GEMMA3.local_base}, {GEMMA3.global_base}, {GEMMA3.global_factor}
gemma2 = {{"layers": {GEMMA2.layers}, "pattern": {GEMMA2.pattern}, "cap": {GEMMA2.cap}}}  # Gemma 2 9B
gemma4 = {json.dumps(_gemma4())}  # Gemma 4
mrope_section, interleaved_section = {QWEN_VL.section}, {QWEN_VL.interleaved_section}  # Qwen2.5-VL, Qwen3-VL
merge, tokens_per_second = {QWEN_VL.merge}, {QWEN_VL.tokens_per_second}
# a head's numbers, and the fraction of them that turns
partial = {{{heads}}}
deepseek = {{"passed": {DEEPSEEK_V3.passed}, "turned": {DEEPSEEK_V3.turned}}}
deepseek["factor"] = {DEEPSEEK_V3.factor}  # YaRN's stretch"""


LLAMA4_CODE = f"""rotates = llama4_rotates(llama4["layers"], llama4["interval"])
nope = [k + 1 for k, r in enumerate(rotates) if not r]
print(f"Llama 4 Scout: {{len(nope)}} of {{len(rotates)}} layers without position:", nope)
chunked = chunked_mask({SHOWN_TOKENS}, {SHOWN_CHUNK})  # drawn small: a chunk of {SHOWN_CHUNK}, not 8,192
print("pairs a chunked layer sees:", int(chunked.sum()), "of", {SHOWN_TOKENS} * ({SHOWN_TOKENS} + 1) // 2)
positions = torch.tensor([0, 8190, 8191, 70000])
factor = nope_temperature(positions, floor_scale, attn_scale)
print("temperature at", positions.tolist(), "->", [round(f, 4) for f in factor.tolist()])"""

GEMMA3_CODE = """full = gemma3_is_full(gemma3["layers"], gemma3["pattern"])
print(f"Gemma 3 27B: {sum(full)} full layers, {len(full) - sum(full)} sliding")
turning, edge, r = {}, {}, torch.arange(2 * gemma3["window"], dtype=torch.float64)
for name, base, stretch in (("sliding layer", local_base, 1.0), ("full layer", global_base, global_factor)):
    theta = (rope_inv_freq(gemma3["head_dim"], base) / stretch).double()  # [64]
    turning[name] = int((2 * math.pi / theta <= gemma3["window"]).sum())
    score = torch.cos(r[:, None] * theta).mean(-1)  # a vector with itself r back, over r = 0: mean cos(r·θᵢ)
    edge[name] = float(score[gemma3["window"] - 1])  # a sliding layer sees no farther
past = float(score[-1])  # the full layer's, at the last distance
print("pairs turning inside the window:", turning, "; last distance it sees:", edge, "; full, past it:", past)
gemma2_full = sum(gemma3_is_full(gemma2["layers"], gemma2["pattern"]))
capped = gemma2["cap"] * math.tanh(100 / gemma2["cap"])  # soft-capping: cap · tanh(s / cap)
print(f"Gemma 2 9B: {gemma2_full} full layers of {gemma2['layers']}; a score of 100 becomes {capped:.4f}")
gemma4_full = gemma3_is_full(gemma4["layers"], gemma4["pattern"])[:-1] + [True]  # its last layer always full
pairs4 = int(gemma4["turned"] * gemma4["head"] // 2)  # a full layer's pairs that turn, at a whole head's θ
slowest4 = 2 * math.pi / float(rope_inv_freq(gemma4["head"], gemma4["base"])[pairs4 - 1])
print(f"Gemma 4: {sum(gemma4_full)} full layers of {gemma4['layers']}; {pairs4} pairs of a full head's")
print(f"{gemma4['head'] // 2} turn, the slowest once every {slowest4:.1f} positions; the others never")"""

QWEN_CODE = f"""before, middle = {BEFORE}, {MIDDLE}  # a word a token
after = {AFTER}
segments = [Segment("text", len(before)), Segment("image", grid={IMAGE_GRID}), Segment("text", len(middle))]
segments += [Segment("video", grid={VIDEO_GRID}, seconds={VIDEO_SECONDS}), Segment("text", len(after))]
t, h, w = mrope_positions(segments, merge, tokens_per_second).tolist()
print("(t, h, w) of each token:", list(zip(t, h, w, strict=True)))
blocks, turns = pair_axes(mrope_section), pair_axes(interleaved_section, interleaved=True)
print("pairs on t, h, w:", blocks.bincount().tolist(), "(2.5-VL),", turns.bincount().tolist(), "(3-VL)")"""

HEADS_CODE = """turned = {name: rotary_dims(head, fraction) for name, (head, fraction) in partial.items()}
turned["DeepSeek-V3"] = deepseek["turned"]
print("numbers of a head that turn:", turned)
# A vector's score with itself r back, over r = 0: (size − n + Σ 2·cos(r·θᵢ)) / size, n of size turned
r, (neox, fraction) = torch.arange(512, dtype=torch.float64), partial["GPT-NeoX-20B"]
head = deepseek["passed"] + deepseek["turned"]
sizes = ((neox, neox), (neox, rotary_dims(neox, fraction)), (head, deepseek["turned"]))  # (size, n)
cosines = [torch.cos(r[:, None] * rope_inv_freq(n, 10_000.0, torch.float64)).sum(-1) for _, n in sizes]
lowest = [float(((size - n + 2 * c) / size).min()) for (size, n), c in zip(sizes, cosines, strict=True)]
print("lowest score with itself (all, GPT-NeoX's quarter, DeepSeek-V3's third turned):", lowest)
scale = mla_softmax_scale(head, deepseek["factor"], 1.0)
print(f"DeepSeek-V3's softmax scale: {scale:.4f} instead of 1/√{head} = {head**-0.5:.4f}")

print(json.dumps({
    "nope_layers": nope, "chunked_pairs": int(chunked.sum()), "temperature": factor.tolist(),
    "gemma3_full": sum(full), "turning_in_window": turning, "window_scores": {"at_edge": edge, "past": past},
    "gemma2": {"full": gemma2_full, "capped": capped},
    "gemma4": {"full": sum(gemma4_full), "turning_pairs": pairs4, "slowest": slowest4},
    "positions": [t, h, w], "pairs_per_axis": [blocks.bincount().tolist(), turns.bincount().tolist()],
    "turned": turned, "kept_lowest": lowest, "deepseek_scale": scale,
}))"""


def todays_models_script() -> Script:
    """The script that prints what the Today's models page shows (no setting of the sidebar changes it)."""
    imports = import_block("import json", "import math", "from dataclasses import dataclass", "import torch")
    cells = [
        Cell("Settings: the released models'", f"{imports}\n\n{_settings()}"),
        Cell(
            "Llama 4: layers without position, chunks and the temperature",
            "\n\n\n".join(map(source, (llama4_rotates, chunked_mask, nope_temperature)))
            + "\n\n\n"
            + LLAMA4_CODE,
        ),
        Cell(
            "Gemma 3: a base per layer type",
            "\n\n\n".join(map(source, (gemma3_is_full, _check_dim, rope_inv_freq))) + "\n\n\n" + GEMMA3_CODE,
        ),
        Cell(
            "Qwen2.5-VL: three positions per token (M-RoPE)",
            "\n\n\n".join(map(source, (Segment, _grid_positions, mrope_positions, pair_axes)))
            + "\n\n\n"
            + QWEN_CODE,
        ),
        Cell(
            "Part of each head turned",
            "\n\n\n".join(map(source, (rotary_dims, mla_softmax_scale))) + "\n\n\n" + HEADS_CODE,
        ),
    ]
    about = (
        "Exported from Positional Embeddings Explorer. It prints Llama 4 Scout's layers without position, "
        "its temperature, Gemma 3's layer types and the pairs that turn inside its window, Gemma 4's full "
        "layers and the pairs of their heads that turn, Qwen2.5-VL's "
        "(t, h, w) of each token, the numbers of a head that turn, and, last, one JSON line with them. "
        f"{reads({})}"
    )
    return Script("todays_models", "Today's models: position layer by layer", about, cells)
