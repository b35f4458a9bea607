"""The Today's models page's sections: Llama 4's layers without position, Gemma 3's base per layer type,
Qwen2.5-VL's three positions per token, and the part of a head that turns."""

from __future__ import annotations

import html
import itertools

import pandas as pd
import streamlit as st
import torch

from core.attention.sinks import sink_softmax
from core.attention.soft_cap import soft_cap
from core.positional.layer_plans import CHUNK, FULL, LayerPlan
from core.positional.todays_models import DEEPSEEK_V3, GEMMA2, GEMMA3, GEMMA4, GPT_OSS, LLAMA4, QWEN_VL
from core.positional.todays_views import (
    IMAGE_GRID,
    SHOWN_CHUNK,
    SHOWN_TOKENS,
    VIDEO_SECONDS,
    deepseek_scale,
    gemma3_layers,
    gemma3_wavelengths,
    gemma4_full_pairs,
    gemma4_layers,
    gpt_oss_layers,
    heads_frame,
    kept_scores,
    llama4_layers,
    nope_layers,
    pair_axes_frame,
    row_below_turns,
    small_masks,
    temperature_frame,
    vl_tokens,
    window_scores,
)
from core.views.charts import grid_frame, heatmap, line_chart
from core.views.glossary import FirstUse
from core.views.units import listing, ordinal
from ui.charts import draw
from ui.open_tabs import tab_key
from ui.presenter import presenting, slide_height
from ui.server import cache
from ui.tables import table

# A strip's cell: its letter (the second channel besides the colour), its background (dark text on each
# is at least 4.5:1) and what it stands for.
KINDS = {
    "R": ("#dbeafe", "rotates (RoPE)"),
    "N": ("#fed7aa", "no position (NoPE)"),
    "S": ("#dcfce7", f"sliding window, base {GEMMA3.local_base:,.0f}"),
    "F": ("#fde68a", f"full, base {GEMMA3.global_base:,.0f}"),
    "W": ("#dcfce7", "a window"),
    "A": ("#fde68a", "the whole text"),
    "t": ("#e0e7ff", "time"),
    "h": ("#fce7f3", "row"),
    "w": ("#ccfbf1", "column"),
    "P": ("#f3f4f6", "passed through"),
    "T": ("#dbeafe", "turned"),
}


def strip(letters: list[str], name: str, numbered: bool = True) -> None:
    """One cell per letter (a layer, a pair), numbered from 1 when ``numbered``; a screen reader reads
    ``name`` and the legend, which the screen shows below it too."""
    cells = "".join(
        f'<span class="strip-cell" style="background:{KINDS[k][0]}">'
        + (f"<small>{n}</small>" if numbered else "")
        + f"{k}</span>"
        for n, k in enumerate(letters, start=1)
    )
    _strip_html(cells, name, list(dict.fromkeys(letters)))


def parts_strip(parts: list[tuple[str, int]], name: str) -> None:
    """A bar in parts as long as their counts (a head's turned and passed numbers), each labelled."""
    cells = "".join(
        f'<span class="strip-cell strip-part" style="background:{KINDS[k][0]};flex:{n}">'
        f"{n} {KINDS[k][1]}</span>"
        for k, n in parts
        if n
    )
    _strip_html(cells, name, [k for k, n in parts if n], legend=False)  # the parts say what they are


def _strip_html(cells: str, name: str, kinds: list[str], legend: bool = True) -> None:
    said = " · ".join(f"{k} = {KINDS[k][1]}" for k in kinds)
    below = f'<p class="strip-legend">{html.escape(said)}</p>' if legend else ""
    st.html(
        f'<div class="strip" role="img" aria-label="{html.escape(name)}: {html.escape(said)}">'
        f"{cells}</div>{below}"
    )


def layer_letters(layers: list[LayerPlan]) -> list[str]:
    """A letter per layer: rotates or not (Llama 4), or slides or sees all (Gemma 3)."""
    if any(layer.sees == CHUNK or not layer.rotates for layer in layers):
        return ["R" if layer.rotates else "N" for layer in layers]
    if len({layer.base for layer in layers}) == 1:  # one base: only what each layer sees differs
        return ["A" if layer.sees == FULL else "W" for layer in layers]
    return ["F" if layer.sees == FULL else "S" for layer in layers]


LLAMA4_PARTS = ["its layers", "what a token sees", "the temperature"]  # presenting, a slide each


def llama4_section(words: FirstUse, part: int | None = None) -> None:
    """Which layers of Llama 4 Scout see no position, what a chunked and a full layer see, and the
    temperature its NoPE layers put on the query (presenting: ``LLAMA4_PARTS[part]``)."""
    if part in (None, 0):
        llama4_layers_view()
    if part in (None, 1):
        masks_view(words)
    if part in (None, 2):
        temperature_view(words)


def llama4_layers_view() -> None:
    nope = nope_layers()
    st.markdown(
        f"{LLAMA4.name} stacks {LLAMA4.layers} layers. Every {ordinal(LLAMA4.interval)} one (layers "
        f"{listing([str(k) for k in nope[:3]] + ['…', str(nope[-1])])}) adds no position at all. The others "
        f"rotate with RoPE but see only their own chunk of {LLAMA4.chunk:,} tokens; the "
        "layers without position see the whole text, so they can join tokens far apart."
    )
    strip(layer_letters(llama4_layers()), f"{LLAMA4.name}'s {LLAMA4.layers} layers")


def masks_view(words: FirstUse) -> None:
    st.markdown(
        f"What each {words('query and key', 'query')} (a row) may look at, drawn on {SHOWN_TOKENS} tokens "
        f"with a chunk of {SHOWN_CHUNK} (in the model: {LLAMA4.chunk:,}). Both keep the "
        f"{words('causal mask')}: a token sees itself and the tokens before it, never after."
    )
    for column, chart in zip(st.columns(2), masks_charts(), strict=True):
        draw(chart, column)


@cache.per_process(max_entries=1)  # the page's numbers are fixed: built once, drawn by every session
def masks_charts() -> tuple[object, ...]:
    """The chunked and the full layer's masks, a heatmap each."""
    charts = []
    for title, mask in small_masks(SHOWN_TOKENS, SHOWN_CHUNK).items():
        positions = torch.arange(SHOWN_TOKENS)
        frame = grid_frame(mask.float(), positions, positions, "query i", "key j")
        pairs = int(mask.sum())
        said = f"{title}: query i may look at key j where the cell is 1; it sees {pairs} pairs in all."
        charts.append(
            cache.chart(
                heatmap,
                frame,
                "key j",
                "query i",
                title,
                260,
                scheme="blues",
                domain=(0.0, 1.0),
                description=said,
                legend="1: may look at",
            )
        )
    return tuple(charts)


def temperature_view(words: FirstUse) -> None:
    st.markdown(
        f"Without position, a layer's {words('attention')} would spread thinner as the text grows. So "
        f"{LLAMA4.name} multiplies the query of each layer without position by a {words('temperature')}: "
        f"1 for the first {LLAMA4.floor_scale - 1:,} positions, then 1 + {LLAMA4.attn_scale} × ln(1 + "
        f"⌊(p + 1) / {LLAMA4.floor_scale:,}⌋)."
    )
    chart, (last, factor) = temperature_chart()
    draw(chart)
    st.caption(f"At position {last:,} the factor is {factor:.4f}.")
    if not presenting():  # a slide keeps the chart and its number
        st.markdown(
            f"Its layers with RoPE do the opposite: after turning each query and key (neighbouring numbers "
            f"as pairs, as the RoPE paper), they scale every one to the same length, √{LLAMA4.head_dim} = "
            f"{LLAMA4.head_dim**0.5:.2f}, so only their directions count when attention compares them."
        )


@cache.per_process(max_entries=1)  # the page's numbers are fixed: built once, drawn by every session
def temperature_chart() -> tuple[object, tuple[int, float]]:
    """The temperature against position, and its last position with the factor there."""
    frame = temperature_frame()
    end = int(frame.iloc[-1]["position"]), float(frame.iloc[-1]["query factor"])
    title = "Query factor of a layer without position"
    said = f"{title}: 1 up to position {LLAMA4.floor_scale - 2:,}, {end[1]:.4f} at {end[0]:,}."
    chart = cache.chart(line_chart, frame, "position", "query factor", title, height=240, description=said)
    return chart, end


TWO_PARTS = ["", "what it shows"]  # presenting: a section's words, then its picture
GEMMA3_PARTS = [*TWO_PARTS, "the score past the window", "Gemma 4", "gpt-oss"]


def gemma3_section(words: FirstUse, part: int | None = None) -> None:
    """Gemma 3's sliding and full layers, each pair's wavelength on both against the window, a score
    against distance on both, Gemma 4's layers, and gpt-oss's layers and sink (presenting:
    ``GEMMA3_PARTS[part]``)."""
    if part in (None, 0):
        gemma3_layers_view(words)
    if part in (None, 1):
        wavelengths_view(words)
    if part in (None, 2):
        window_scores_view(words)
    if part in (None, 3):
        gemma4_view()
    if part in (None, 4):
        gpt_oss_view(words)


def window_scores_view(words: FirstUse) -> None:
    if not presenting():  # a slide keeps the chart and its finding
        st.markdown(
            f"RoPE makes a {words('query and key', 'query')}'s score with the same vector fall and wobble "
            "with the distance between them. Here that score, as a share of its value at distance 0, on both "
            "kinds of layer."
        )
    chart, finding = window_chart(slide_height(300, 300))
    draw(chart)
    st.markdown(finding)


@cache.per_process(max_entries=2)  # fixed numbers: built once per height (a screen's, a slide's)
def window_chart(height: int) -> tuple[object, str]:
    """Gemma 3's score against distance on both kinds of layer, and what it finds."""
    scores, last = window_scores(), 2 * GEMMA3.window - 1
    edge = GEMMA3.window - 1
    title = "Score of a vector with itself, by distance back"
    finding = (
        f"At distance {edge:,}, the farthest a sliding layer sees, a vector of ones keeps "
        f"{scores.at_edge['sliding layer']:.2f} of its score on a sliding layer and "
        f"{scores.at_edge['full layer']:.2f} on a full one: the bases make the difference, since base "
        f"{GEMMA3.local_base:,.0f} turns the pairs faster than {GEMMA3.global_base:,.0f} with positions "
        f"divided by {GEMMA3.global_factor:g}. Past the window a sliding layer sees no key at all, whatever "
        f"its pairs would give; a full layer still scores {scores.past:.2f} at {last:,}."
    )
    chart = cache.chart(
        line_chart,
        scores.frame,
        "distance",
        "score",
        title,
        color="layer",
        rule_at=float(GEMMA3.window),
        rule_label=f"the window: {GEMMA3.window:,}",
        height=height,
        y_format=".3f",
        description=f"{title}: {finding}",
    )
    return chart, finding


def gemma4_view() -> None:
    g, layers, pairs = GEMMA4, gemma4_layers(), gemma4_full_pairs()
    full = sum(layer.sees == FULL for layer in layers)
    st.markdown(
        f"{g.name}, the generation after (as transformers 5.23 defines it), keeps five sliding layers to one "
        f"full one and always makes its last layer full: {len(layers) - full} of its {len(layers)} layers "
        f"slide a window of {g.window} tokens with base {g.local_base:,.0f} and heads of {g.head_dim} "
        f"numbers; {full} see the whole text with base {g.global_base:,.0f} and heads of {g.global_head_dim} "
        "numbers."
    )
    strip(layer_letters(layers), f"{g.name}'s {len(layers)} layers")
    st.markdown(
        f"On a full layer only the first {pairs.turned} of a head's {pairs.pairs} pairs turn, at the "
        f"frequencies a whole {g.global_head_dim}-number head gives them, so even the slowest of them turns "
        f"once every {pairs.slowest:.0f} positions. The other {pairs.pairs - pairs.turned} pairs never turn: "
        "they carry no position at all, as a layer without position."
    )


def gpt_oss_view(words: FirstUse) -> None:
    layers = gpt_oss_layers()
    keys, sink = 3, 0.0
    weights = sink_softmax(torch.zeros(1, 1, keys), torch.tensor([sink]))[0, 0]
    st.markdown(
        f"{GPT_OSS.name} alternates: its odd layers see a window of {GPT_OSS.window} tokens, its even "
        f"layers the whole text, all {len(layers)} with base {GPT_OSS.base:,.0f}. Each head adds "
        f"one more {words('score')} to every row's {words('softmax')}, for no token: its {words('sink')}. "
        f"With {keys} keys of score 0 and a sink of {sink:g}, each key gets "
        f"{float(weights[0]):.2f} and the row sums to {float(weights.sum()):.2f}: a query may attend to "
        "less than all of its tokens."
    )
    strip(layer_letters(layers), f"{GPT_OSS.name}'s {len(layers)} layers")


def gemma3_layers_view(words: FirstUse) -> None:
    layers = gemma3_layers()
    g, full = GEMMA3, sum(layer.sees == FULL for layer in layers)
    st.markdown(
        f"Each layer has its own {words('attention')}. {g.name} has "
        f"{len(layers)} layers. {len(layers) - full} use {words('sliding-window attention')}, "
        f"a window of {g.window:,} tokens, and rotate with base {g.local_base:,.0f}; {full} (every "
        f"{ordinal(g.pattern)}) see the whole text and rotate with base {g.global_base:,.0f}, their "
        f"positions divided by {g.global_factor:g}."
    )
    strip(layer_letters(layers), f"{g.name}'s {len(layers)} layers")
    g2, capped = GEMMA2, float(soft_cap(torch.tensor(100.0, dtype=torch.float64), GEMMA2.cap))
    st.markdown(
        f"{g2.name}, the generation before, alternates: its odd layers slide a window of {g2.window:,} "
        f"tokens, its even ones see the whole text, all with base {g2.base:,.0f}. It also limits every "
        f"{words('score')} by {words('soft-capping')} at {g2.cap:g}: a score of 100 becomes {capped:.1f}."
    )


def wavelengths_view(words: FirstUse) -> None:
    if not presenting():  # a slide keeps the chart and its finding
        st.markdown(
            f"Each {words('pair i')} turns at its {words('frequency θᵢ')}; here each pair's "
            f"{words('wavelength 2π/θᵢ')} on both kinds of layer, against the window."
        )
    chart, finding = wavelengths_chart(slide_height(300, 260))
    draw(chart)
    st.markdown(finding)


@cache.per_process(max_entries=2)  # fixed numbers: built once per height (a screen's, a slide's)
def wavelengths_chart(height: int) -> tuple[object, str]:
    """Each pair's wavelength on Gemma 3's two kinds of layer against the window, and what it finds."""
    waves = gemma3_wavelengths()
    window = waves.frame[waves.frame["layer"] == "sliding layer"].assign(
        wavelength=float(GEMMA3.window), layer=f"the window ({GEMMA3.window:,} tokens)"
    )
    frame = pd.concat([waves.frame, window], ignore_index=True)
    title = "Positions per full turn, by pair"
    sliding, whole = waves.turning_in_window["sliding layer"], waves.turning_in_window["full layer"]
    finding = (
        f"Inside the window, {sliding} of {GEMMA3.head_dim // 2} pairs of a sliding layer turn at least "
        f"once; on a full layer only {whole} do: its slow pairs carry the far positions the window "
        "never shows."
    )
    chart = cache.chart(
        line_chart,
        frame,
        "pair",
        "wavelength",
        title,
        color="layer",
        log_y=True,
        height=height,
        description=f"{title}: {finding}",
    )
    return chart, finding


def qwen_section(before: list[str], after: list[str], words: FirstUse, part: int | None = None) -> None:
    """Text, an image and text again, each token with its (t, h, w); the pairs each axis turns."""
    if part in (None, 0):
        tokens_view(before, after, words)
    if part in (None, 1):
        axes_view(words)


def tokens_view(before: list[str], after: list[str], words: FirstUse) -> None:
    _, rows, columns = IMAGE_GRID
    merged = f"{rows // QWEN_VL.merge} × {columns // QWEN_VL.merge}"
    if presenting():  # the words and the rows a slide has room for: an image's row of tokens to a line
        st.markdown(f"{rows} × {columns} patches, merged 2 × 2: {merged} tokens, each with its (t, h, w).")
        table(by_image_row(vl_tokens(before, after[:1], video=False)), hide_index=True, one_line="tokens")
        return
    st.markdown(
        f"{QWEN_VL.name} reads images too. Its vision part cuts an image into "
        f"{words('image patch', 'patches')}, and a {words('2 × 2 merge')} makes every four one token: "
        f"{rows} × {columns} patches become {merged} tokens. With {words('M-RoPE')}, text tokens count on "
        "with the same number on all three positions; the image's tokens share t and take their row and "
        "column as h and w, counted from where the image starts. The text after it goes on from there plus "
        f"the image's longer side in tokens. A video's frames are images in time: each frame's t is "
        f"{QWEN_VL.tokens_per_second:g} tokens a second × the {VIDEO_SECONDS:g} s a frame stands for = "
        f"{QWEN_VL.tokens_per_second * VIDEO_SECONDS:g} after the one before."
    )
    tokens = vl_tokens(before, after)
    table(tokens, hide_index=True, one_line="tokens")
    resumed = int(tokens.iloc[-len(after)]["t"])
    largest = int(tokens.iloc[: -len(after)][["t", "h", "w"]].to_numpy().max())
    st.markdown(
        f"After the video the text goes on from {resumed}: where the video starts plus its longer side, as "
        f"for an image, so its first token shares t = {resumed} with the video's last frame (transformers "
        f"5.23). Earlier versions went on from the largest position so far + 1, here {largest + 1}. For an "
        "image the two agree: its largest position is its start + its longer side − 1."
    )


def by_image_row(tokens: pd.DataFrame) -> pd.DataFrame:
    """``tokens`` with each row of the image's tokens on one line: "(t, h, w)" of each, in order."""
    rows = itertools.groupby(tokens.itertuples(index=False), key=lambda r: r.token.split(", column")[0])
    return pd.DataFrame(
        [(label, "  ".join(f"({r.t}, {r.h}, {r.w})" for r in group)) for label, group in rows],
        columns=["token", "(t, h, w)"],
    )


def axes_view(words: FirstUse) -> None:
    axes = pair_axes_frame()
    for name in (QWEN_VL.name, QWEN_VL.interleaved_name):
        st.markdown(f"**{name}**: the axis each of its {len(axes)} pairs turns with.")
        strip(axes[name].tolist(), f"{name}'s pairs by axis", numbered=False)
    turned = row_below_turns()
    st.markdown(
        f"Two image tokens one row apart, anywhere in the image: only the {int((turned != 0).sum())} h pairs "
        f"turn between them, each by its own {words('frequency θᵢ', 'θᵢ')}; the t and w pairs do not move. "
        "So a head can read “one row "
        "down” the same way everywhere in the image."
    )


def heads_section(words: FirstUse, part: int | None = None) -> None:
    """How many of a head's numbers turn, per model; DeepSeek-V3's shared key and its softmax scale; what a
    score keeps of position when part of a head turns (presenting: ``HEADS_PARTS[part]``)."""
    frame = heads_frame()
    if part in (None, 0):
        st.markdown(
            f"Some models turn only part of each head: with {words('partial rotary')}, the first numbers "
            f"turn with position and the rest pass through unchanged, so that part of a {words('score')} "
            f"ignores position. In {words('MLA')}, {DEEPSEEK_V3.name}'s {words('attention')}, a "
            f"{words('query and key', 'query')} head keeps {DEEPSEEK_V3.passed} numbers still and turns "
            f"{DEEPSEEK_V3.turned}; all "
            f"{DEEPSEEK_V3.heads} heads share one turned key part of {DEEPSEEK_V3.turned} numbers."
        )
        table(frame, hide_index=True, one_line="heads")
    if part in (None, 1):
        strips_view(frame, words)
    if part in (None, 2):
        kept_view()


HEADS_PARTS = [*TWO_PARTS, "what the score keeps"]  # presenting, a slide each
# The page's four sections: a tab each on a screen (only the open one drawn), a slide per part presenting.
SECTIONS = [
    ("Layers without position", LLAMA4_PARTS),
    ("A base per layer type", GEMMA3_PARTS),
    ("Positions in three dimensions", TWO_PARTS),
    ("Part of each head turned", HEADS_PARTS),
]
SECTION_TABS = [f"{k}. {title}" for k, (title, _) in enumerate(SECTIONS, start=1)]
SECTION_TAB = tab_key("today_section")  # the open section's tab, in the address bar (a link reopens it)


def kept_view() -> None:
    chart, finding = kept_scores_chart(slide_height(290, 300))
    draw(chart)
    st.markdown(finding)


@cache.per_process(max_entries=2)  # fixed numbers: built once per height (a screen's, a slide's)
def kept_scores_chart(height: int) -> tuple[object, str]:
    """The score against distance by how much of a head turns, and what it finds."""
    kept = kept_scores()
    full, neox, deepseek = kept.lowest
    title = "Score of a vector with itself, by distance back, by how much of a head turns"
    finding = (
        f"Turning all its numbers, a head's score with the same vector (of ones) falls as low as "
        f"{kept.lowest[full]:.2f} of its value at distance 0; turning a quarter (GPT-NeoX) it never goes "
        f"below {kept.lowest[neox]:.2f}, and turning a third (DeepSeek-V3) {kept.lowest[deepseek]:.2f}: "
        "the numbers that pass through keep their share of the score at every distance."
    )
    chart = cache.chart(
        line_chart,
        kept.frame,
        "distance",
        "score",
        title,
        color="head",
        height=height,
        y_format=".3f",
        description=f"{title}: {finding}",
    )
    return chart, finding


def strips_view(frame: pd.DataFrame, words: FirstUse) -> None:
    for model, size, turned in zip(frame["model"], frame["numbers per head"], frame["turned"], strict=True):
        parts = [("T", turned), ("P", size - turned)]
        if model == DEEPSEEK_V3.name:  # its turned part comes last
            parts.reverse()
        st.markdown(f"**{model}**: {turned} of {size} numbers turn.")
        parts_strip(parts, f"{model}: a head's {size} numbers")
    scale, plain = deepseek_scale()
    head = DEEPSEEK_V3.passed + DEEPSEEK_V3.turned
    st.markdown(
        f"{DEEPSEEK_V3.name} also stretches its context {DEEPSEEK_V3.factor:g} times with {words('YaRN')}, "
        f"and so scales its scores by {scale:.4f} instead of 1/√{head} = {plain:.4f}."
    )
