"""What today's models do with position on the student's own sentences, for the method chosen.

On a sentence of a few tokens most of what is new in today's models does nothing: a window of 1,024 or a
chunk of 8,192 tokens holds the sentence whole, and a NoPE layer's temperature is still 1. What is left
is the family itself: RoPE (at the model's base) or no position at all. Each sentence is computed from the
models' layer plans (``core.positional.layer_plans``) at the sentence's length, not stated.
"""

from __future__ import annotations

import torch

from core.positional.layer_plans import FULL, WINDOW, LayerPlan, nope_temperature
from core.positional.partial_rope import rotary_dims
from core.positional.todays_models import DEEPSEEK_V3, GEMMA3, LLAMA4, PART_HEADS, QWEN_VL
from core.positional.todays_views import gemma3_layers, llama4_layers
from core.views.glossary import FirstUse
from core.views.units import ordinal, plural

ROTATING, WITHOUT = "rope", "nope"  # the families today's models use: the methods these sentences are for


def held_whole(plan: LayerPlan, tokens: int) -> bool:
    """Whether a layer's window or chunk holds ``tokens`` tokens whole, so that its mask is the causal mask
    (``layer_mask``'s, without building a [T, T] mask for a long text)."""
    return plan.sees == FULL or tokens <= plan.span


def _chunk_words(plans: list[LayerPlan], tokens: int, words: FirstUse) -> str:
    """What a chunked layer of ``plans`` (all of one kind) does to a sentence of ``tokens`` tokens."""
    span = plans[0].span
    if all(held_whole(p, tokens) for p in plans):
        return (
            f"its chunk of {span:,} tokens holds each of your sentences whole ({plural(tokens, 'token')} at "
            f"most), so on them its mask is just the {words('causal mask')}"
        )
    chunks = -(-tokens // span)
    return f"chunks of {span:,} tokens cut a sentence of {tokens:,} into {chunks}: a token sees only its own"


def llama4_rope(tokens: int, words: FirstUse) -> str:
    rotating = [p for p in llama4_layers() if p.rotates]
    return (
        f"**{LLAMA4.name}** rotates as RoPE does on {len(rotating)} of its {LLAMA4.layers} "
        f"layers, with base {rotating[0].base:,.0f} (the larger RoPE's base, the slower its slowest pairs "
        f"turn); each such layer sees one {words('chunk')} at a time, and "
        + _chunk_words(rotating, tokens, words)
        + "."
    )


def gemma3_rope(tokens: int, words: FirstUse) -> str:
    layers = gemma3_layers()
    sliding, full = [p for p in layers if p.sees == WINDOW], [p for p in layers if p.sees == FULL]
    local, wide, factor = sliding[0].base, full[0].base, full[0].factor
    return (
        f"**{GEMMA3.name}** rotates on all {len(layers)} of its layers: "
        f"{len(sliding)} layers of {words('sliding-window attention')} with base {local:,.0f} and "
        f"{len(full)} full layers with base {wide:,.0f}, their positions divided by "
        f"{factor:g} before they turn (to reach longer texts). "
        f"A sliding layer sees the last {sliding[0].span:,} tokens: "
        + (
            "that holds each of your sentences whole, so on them the two kinds of layer differ only in how "
            "fast they turn."
            if all(held_whole(p, tokens) for p in sliding)
            else f"a sentence of {tokens:,} tokens is longer: a token there sees at most {sliding[0].span:,}."
        )
    )


def qwen_rope(words: FirstUse) -> str:
    return (
        f"**{QWEN_VL.name}** uses {words('M-RoPE')}: with no image in the text the three positions are one "
        f"counter, so it turns your sentences exactly as RoPE does, base {QWEN_VL.base:,.0f}."
    )


def part_heads(words: FirstUse, shares: Shares | None = None) -> str:
    """The models that turn only part of each head (``PART_HEADS``, DeepSeek-V3), counted as transformers
    counts them (``rotary_dims``); with ``shares``, what that keeps on the student's sentence A."""
    parts = [f"**{m.name}** {rotary_dims(m.head_dim, m.fraction)} of {m.head_dim}" for m in PART_HEADS]
    whole, turned = DEEPSEEK_V3.passed + DEEPSEEK_V3.turned, DEEPSEEK_V3.turned
    return (
        f"Some models use {words('partial rotary')}. Counted in the numbers of one {words('head')}, "
        + parts[0].replace("** ", "** turns ", 1)
        + "".join(f", {p}" for p in parts[1:-1])
        + f" and {parts[-1]}; **{DEEPSEEK_V3.name}** turns {turned} of the {whole} numbers of a head's "
        f"{words('query and key', 'query')}, and its key's {turned} turned numbers are one part shared by "
        f"all {DEEPSEEK_V3.heads} heads. The part of a {words('score')} that comes from numbers that do not "
        "turn is the same wherever your tokens stand." + (shares_sentence(shares) if shares else "")
    )


Shares = dict[float, tuple[int, float | None]]  # a share of a head: (numbers turned, position part kept)
AS_IN = {0.25: "a quarter, as in GPT-NeoX", 0.5: "a half, as in Phi and GLM"}


def shares_sentence(shares: Shares) -> str:
    """What turning only part of the Attention page's head keeps of its position part on sentence A
    (``core.attention.partial.sentence_shares``, with the whole head at 1.0); nothing for one token."""
    whole = shares[1.0][0]
    # a share the head can turn exactly, short of all of it (a quarter of 4 numbers is not a pair)
    kept = [(f, r, k) for f, (r, k) in shares.items() if k is not None and r == whole * f < whole]
    if not kept:
        return ""
    (f, r, k), *rest = kept
    return (
        f" On your sentence A, this page's head has {whole} numbers: turning only {r} of them "
        f"({AS_IN.get(f, f'{f:g} of the head')}) leaves its position part (rotated score − plain score) on "
        f"average {k:.0%} as large as turning all {whole}"
        + "".join(f"; turning {r} ({AS_IN.get(f, f'{f:g} of the head')}), {k:.0%}" for f, r, k in rest)
        + ". More than the share turned: every turned part starts with a pair turning one radian a position, "
        "and over a short sentence that fastest pair moves the scores most."
    )


def llama4_nope(tokens: int, words: FirstUse) -> str:
    without = [p for p in llama4_layers() if not p.rotates]
    factor = float(nope_temperature(torch.arange(tokens), LLAMA4.floor_scale, LLAMA4.attn_scale).max())
    return (
        f"**{LLAMA4.name}** uses no position on every {ordinal(LLAMA4.interval)} layer, {len(without)} of "
        f"its {LLAMA4.layers}: there only the {words('causal mask')} orders your sentences. Such a layer "
        f"sees the whole text and multiplies its {words('score', 'scores')} by a {words('temperature')} that "
        f"grows with the position from {LLAMA4.floor_scale - 1:,} on; "
        + (
            f"for {plural(tokens, 'token')} it is 1."
            if factor == 1
            else f"for {tokens:,} tokens it rises to {factor:.3f} at the last."
        )
    )


def on_sentence(
    method: str, tokens: int, known: tuple[str, ...] = (), shares: Shares | None = None
) -> list[str]:
    """What today's models do with position on a sentence of ``tokens`` tokens, for ``method`` (the
    family chosen): a sentence per model that uses it; none for a family today's models do not use.
    Each glossary word is defined where first written, but those in ``known`` (the page defined them);
    ``shares``: a head's kept position part on the student's sentence, for the models that turn part."""
    words = FirstUse()
    words.taught.update(known)
    if method == ROTATING:
        return [
            llama4_rope(tokens, words),
            gemma3_rope(tokens, words),
            qwen_rope(words),
            part_heads(words, shares),
        ]
    if method == WITHOUT:
        return [llama4_nope(tokens, words)]
    return []
