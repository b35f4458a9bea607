"""The Long context page's views: its config controls (a preset or the user's own values), the story and
the four sections' charts and sentences.

The controls' fields are ``ui.long_context.form``'s; their keys, starting values and URL sync are
``ui.long_context.url_state``'s.
"""

from __future__ import annotations

import math

import altair as alt
import pandas as pd
import streamlit as st
import torch

from core.positional.long_context import LongContextView, attention_factor_curves, long_context_view
from core.positional.long_context_config import RopeConfig, config_json
from core.positional.long_context_presets import PRESETS
from core.positional.long_context_story import lecture_join, story
from core.positional.long_context_words import (
    attention_words,
    drawn_words,
    factors_words,
    measured_lead,
    method_words,
    pair_findings,
    pairs_lead,
    score_words,
    tiny_factor_words,
)
from core.positional.rope_scaling import ROPE_TYPES, VARIANTS
from core.positional.rope_scaling_charts import (
    attention_chart,
    attention_description,
    attention_frame,
    line_chart_height,
    line_styles,
    pair_frame,
    pairs_description,
    score_chart,
    score_description,
    score_frame,
    slowdown_chart,
    slowdown_description,
    this_config,
    trained_rule,
    wavelength_chart,
)
from core.training.extrapolation import SCALINGS, SHOWN, Extrapolation, findings, measured, run_intro, verdict
from core.views.describe import described
from core.views.glossary import FirstUse, define
from ui.charts import draw
from ui.long_context.form import FIELDS, field_label, method_name
from ui.long_context.url_state import (
    CUSTOM,
    METHOD,
    PREFIX,
    PRESET,
    apply_preset,
    edited,
    seed_controls,
    sync_method_url,
    sync_preset_url,
)
from ui.navigation import question_line
from ui.open_tabs import tab_key
from ui.predict import revealed
from ui.presenter import presenting
from ui.server import cache
from ui.slides import Slides
from ui.state.url_keys import url_bound

COLUMNS = 2  # a label names its config key too: two columns keep it on one or two lines


def _widget(name: str, rope_type: str) -> None:
    """The box of field ``name``, labelled for ``rope_type``; editing it makes the config the user's own."""
    field, key, label = FIELDS[name], PREFIX + name, field_label(name, rope_type)
    common = {"help": field.help, "on_change": edited}
    common |= {"key": key} if field.kind == "list" else url_bound(key)
    if field.kind == "int":
        st.number_input(label, step=1, value=None, **common)
    elif field.kind == "bool":
        st.toggle(label, **common)
    elif field.kind == "list":
        st.text_area(label, height=90, **common)
    else:
        st.number_input(label, value=None, step=None, format="%g", **common)


SETTINGS_INTRO = (
    f"These are the model's settings for RoPE, as its {define('config.json')} writes them: a box's label "
    "says what it does, its name in the file is in brackets, and its ⓘ says more. One of them is "
    f"{define('partial_rotary_factor')}. Change any value and the page follows it, as a config of your own."
)


def config_controls() -> tuple[str, dict]:
    """The preset, the method and the fields it reads; returns the preset's key (or ``CUSTOM``) and
    the values in force (see ``rope_config``)."""
    base = seed_controls()
    st.markdown(SETTINGS_INTRO)
    c1, c2 = st.columns(2, vertical_alignment="bottom")
    c1.selectbox(
        "Preset: a released model's config",
        (CUSTOM, *PRESETS),
        format_func=lambda k: "custom (your own values)" if k == CUSTOM else PRESETS[k].label,
        key=url_bound(PRESET)["key"],  # shows model names: its URL value is written by sync_preset_url
        persist_state="session",
        on_change=apply_preset,
    )
    sync_preset_url()
    rope_type = c2.selectbox(
        "Scaling method (rope_type)",
        ROPE_TYPES,
        format_func=method_name,
        on_change=edited,
        help=" ".join(f"{v.label}: {v.idea}" for v in VARIANTS.values()),
        key=url_bound(METHOD)["key"],  # shows names: its URL value is written by sync_method_url
        persist_state="session",
    )
    sync_method_url()
    reads = VARIANTS[rope_type].keys
    names = ["head_dim", "rope_theta", "max_position_embeddings"]
    names += [k for k in FIELDS if k in reads and FIELDS[k].kind in ("int", "float", "optional")]
    for start in range(0, len(names), COLUMNS):  # row by row: a phone stacks them in reading order
        row = st.columns(COLUMNS, vertical_alignment="bottom")  # a label on two lines keeps boxes in line
        for column, name in zip(row, names[start : start + COLUMNS], strict=False):
            with column:
                _widget(name, rope_type)
    lists = [k for k in FIELDS if k in reads and FIELDS[k].kind == "list"]
    for name in [k for k in FIELDS if k in reads and FIELDS[k].kind in ("bool", "list")]:
        _widget(name, rope_type)
    store = {name: st.session_state.get(PREFIX + name, base[name]) for name in ("rope_type", *FIELDS)}
    store["preset"] = st.session_state[PRESET]
    if lists and store["preset"] not in PRESETS:
        st.caption(
            "The two lists of slow-downs stay in this session: a copied link carries every other value "
            "here, and a released model's lists by its name."
        )
    return store["preset"], store


@cache.per_process(max_entries=32)  # a view is ~10 kB (its θ, scores and distances)
def view_of(cfg: RopeConfig, label: str) -> LongContextView:
    """``long_context_view(cfg, label)``, computed once per config: the page draws it on every rerun, and
    a new batch size or seed (which it does not read) would compute it again."""
    return long_context_view(cfg, label)


def label_of(preset: str) -> str:
    """The config's name on the charts."""
    return PRESETS[preset].label.split(" (")[0] if preset in PRESETS else "your config"


def model_name(preset: str) -> str:
    """The model the story is about: a released one's name, or a model with the user's settings."""
    return PRESETS[preset].name if preset in PRESETS else "A model with your settings"


KEPT_QUESTION = "lc_kept"  # presenting, the prediction of how many pairs the config keeps as trained
STORY_PARTS = ["the story", "the lecture's claim"]  # presenting, the first section's two slides
# The numbered sections after the story: a tab each on a screen (only the open one drawn), a slide each
# when presenting.
SECTIONS = ["Which pairs are slowed", "What position alone adds", "The attention factor"]
SECTIONS += ["Measured on a tiny model"]
SECTION_TABS = [f"{k}. {title}" for k, title in enumerate(SECTIONS, start=1)]
SECTION_TAB = tab_key("section")  # the open section's tab, in the address bar (a link reopens it)
LECTURE_TITLE = "What the lecture's “generalize to unseen lengths” means here"


def story_section(view: LongContextView, name: str, words: FirstUse, slides: Slides) -> None:
    """The page's story for this config, step by step (``core.positional.long_context_story.story``), then the
    measured answer; presenting, the steps alone (the measurement has its own section) and the lecture's
    claim on a slide of its own, so each fits the screen."""
    if not presenting():
        steps = [*story(view, name, words), verdict(measured_run())]
        st.markdown("\n".join(f"{k}. {step}" for k, step in enumerate(steps, 1)))  # under the title
        return
    if slides.at(0):
        told = story(view, name, words, False, counts=revealed(KEPT_QUESTION))  # counts: section 1 asks them
        numbered = "\n".join(f"{k}. {step}" for k, step in enumerate(told, 1))
        st.markdown(question_line() + "\n\n" + numbered)
    if slides.at(1):
        st.markdown(f"**{LECTURE_TITLE}**\n\n{lecture_join(view, words)}")


def lengths(cfg: RopeConfig, view: LongContextView, words: FirstUse) -> None:
    """What the story's numbers are (L'/L and s are two numbers, which may differ), then the numbers."""
    st.markdown(factors_words(view, words))  # first: it defines the attention factor the metrics name
    c = st.columns(4)
    c[0].metric("Trained length L", f"{cfg.original:,}")
    c[1].metric("Extended length L'", f"{cfg.extended:,}")
    c[2].metric("Slow-down factor s", f"{cfg.factor:g}")
    c[3].metric("Attention factor", f"{view.attention_factor:.4f}")


def config_json_view(preset: str, cfg: RopeConfig) -> None:
    """The config.json keys of this config, in both forms, and where the values and formulas come from."""
    known = PRESETS.get(preset)
    if known:
        st.caption(f"From {known.source}. {known.note}")
    legacy, current = config_json(known, cfg)
    a, b = st.columns(2)
    a.markdown("Legacy form (`rope_scaling`, transformers 4):")
    a.code(legacy, language="json", wrap_lines=True)
    b.markdown("Current form (`rope_parameters`, transformers 5):")
    b.code(current, language="json", wrap_lines=True)
    st.caption(f"The frequencies are computed as `{VARIANTS[cfg.rope_type].reference}` computes them.")


def pairs_section(view: LongContextView, words: FirstUse) -> None:
    """Which pairs scaling slows down: their turns before and after, the slow-downs, and what they show."""
    cfg, on = view.cfg, presenting()
    if not on:
        st.markdown(f"{method_words(view, words)}\n\n{pairs_lead(words)}")
    said = pair_findings(view)  # what a screen reader says for the charts: every word plain

    def build() -> tuple[tuple, int]:  # kept with the view: built once per config
        frame = pair_frame(view)
        pairs = pairs_description(frame, cfg.original, cfg.extended, said[0])
        if on:  # one chart, the whole width, its legend at the side: a projector is short
            chart = cache.chart(
                wavelength_chart, frame, cfg.original, cfg.extended, 300, side=True, description=pairs
            )
            return (chart,), 64 * len(frame)
        slowed = slowdown_description(frame, cfg.factor, said[1:])
        charts = (
            cache.chart(wavelength_chart, frame, cfg.original, cfg.extended, description=pairs),
            cache.chart(slowdown_chart, frame, cfg.factor, description=slowed),
        )
        return charts, 64 * len(frame)

    charts = cache.kept_chart(("long context pairs", on), (view,), build)
    cells = st.columns(len(charts)) if len(charts) > 1 else [st]  # presenting: one chart, full width
    for cell, chart in zip(cells, charts, strict=True):
        draw(chart, cell, width="stretch")
    findings = pair_findings(view, words)
    st.markdown(findings[0] if on else " ".join(findings))


def score_section(view: LongContextView, label: str, words: FirstUse) -> None:
    """The position-only score against distance, this config beside plain RoPE and the general methods."""
    height, side = (300, True) if presenting() else (300, False)
    if not presenting():
        st.markdown(drawn_words(view, label, words))

    def build() -> tuple[alt.TopLevelMixin, int]:  # kept with the view
        frame = score_frame(view)
        said = score_description(frame, view.cfg.original)
        return cache.chart(score_chart, frame, label, view.cfg.original, height, side, said), 64 * len(frame)

    chart = cache.kept_chart(("long context scores", label, side), (view,), build)
    draw(chart, width="stretch")
    if not presenting():
        st.markdown(score_words(view, label, words))


def attention_section(view: LongContextView, words: FirstUse) -> None:
    """The attention factor: what it does, its formula against s, and this config on it."""
    cfg, a = view.cfg, view.attention_factor
    st.markdown(attention_words(view, words, presenting()))
    height, side = (250, True) if presenting() else (220, False)  # presenting: the key at the side

    def build() -> tuple[alt.TopLevelMixin, int]:  # kept with the view
        factors = torch.logspace(0, max(2.0, math.log10(2 * cfg.factor)), 60, dtype=torch.float64)  # [S]
        frame = attention_frame(attention_factor_curves(cfg, factors), factors)
        said = attention_description(frame, cfg.factor, a)
        return cache.chart(attention_chart, frame, cfg.factor, a, height, side, said), 64 * len(frame)

    chart = cache.kept_chart(("long context attention factor", side), (view,), build)
    draw(chart, width="stretch")
    st.caption(this_config(cfg.factor, a))


@cache.per_process(max_entries=1)
def measured_run() -> Extrapolation:
    """The page's own run (``core.training.extrapolation.RUN`` on the ship's log), as shipped
    (``core.training.extrapolation.measured``): read once per server."""
    return measured()


def extrapolation_chart(e: Extrapolation, height: int = 260, side: bool = False) -> alt.LayerChart:
    """Loss per position for each scaling, the trained length marked by a labelled rule (``side``: the
    legend at the right and no title, for a projector's short chart); a screen reader says the page's
    first two findings, which hold its numbers."""
    rows = [
        {"position": p, "loss": loss, "scaling": SHOWN.get(name, name)}
        for name, losses in e.losses.items()
        for p, loss in enumerate(losses)
    ]
    frame, trained = pd.DataFrame(rows), e.trained
    said = " ".join([*findings(e)[:2], f"A dashed line marks the trained length T = {e.trained}."])
    names = [SHOWN.get(n, n) for n in SCALINGS]
    lines = (
        alt.Chart(frame)
        .mark_line()
        .encode(
            x=alt.X("position:Q", title="position in the window"),
            y=alt.Y("loss:Q", title="loss", scale=alt.Scale(zero=False, padding=16)),
            tooltip=["scaling", "position", alt.Tooltip("loss:Q", format=".3f")],
            **line_styles("scaling", names, SHOWN["none"], side),
        )
    )
    rule = trained_rule(trained, f"trained T = {trained}", "position")
    if side:  # a projector's short chart: its section's heading says what it is
        return described((lines + rule).properties(height=height), said)
    title = alt.Title("Loss at each position of the window", subtitle="lower is better")
    chart = alt.layer(lines, rule, title=title, height=line_chart_height(height, len(names), subtitle=True))
    return described(chart, said)


def extrapolation_section(view: LongContextView, label: str, words: FirstUse) -> None:
    """Measured: the page's tiny RoPE model past its trained length, per scaling, and why its s is its own."""
    e, on = measured_run(), presenting()
    if not on:
        st.markdown(measured_lead(words))
        st.markdown(f"{run_intro(e)} {tiny_factor_words(e.trained, e.length, view, label)}")
    height = 230 if on else 260
    chart = cache.kept_chart(
        ("extrapolation", height), (e,), lambda: (extrapolation_chart(e, height, on), 20_000)
    )
    draw(chart, width="stretch")
    st.markdown(" ".join(findings(e)))
