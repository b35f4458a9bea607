"""The Long context page's pieces: its config controls (a preset or the user's own values) and its views.

Every control is bound to the URL (its key is ``lc_`` and the config.json name), except the two factor
lists, which are kept in the session: a longrope list has 48 numbers. The preset and method lists show
names, so their URL values are written by hand (``sync_preset_url``, ``_sync_method_url``), as the
sidebar's preset is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import altair as alt
import pandas as pd
import streamlit as st
import torch

from core.positional.long_context import LongContextView, attention_factor_curves, long_context_view
from core.positional.long_context_config import (
    LISTS,
    ORIGINAL,
    LongContextPreset,
    RopeConfig,
    config_json,
    factor_list_text,
    parse_factor_list,
)
from core.positional.long_context_presets import DEFAULT_PRESET, PRESETS
from core.positional.long_context_story import FirstUse, lecture_join, story
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
from core.positional.rope_scaling import PARTIAL, ROPE_TYPES, VARIANTS
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
from core.views.glossary import define
from ui.navigation import question_line
from ui.presenter import Slides, presenting, readable, revealed
from ui.server import cache
from ui.state.url_keys import register_url_keys, url_bound

PRESET = "lc_preset"  # the preset selectbox's key and URL key
METHOD = "lc_rope_type"  # the method selectbox's key and URL key
CUSTOM = "custom"
PREFIX = "lc_"
COLUMNS = 2  # a label names its config key too: two columns keep it on one or two lines


@dataclass(frozen=True)
class Field:
    """One setting of the config: its label, its kind and its help."""

    label: str
    kind: str  # "int", "float", "optional" (a float that may be blank), "bool" or "list"
    help: str


TURNS = "turns within L"
LIST_HELP = "One number per pair, separated by commas: that pair turns this many times slower"
FIELDS: dict[str, Field] = {
    "head_dim": Field(
        "Dimensions per head (head_dim)",
        "int",
        "How many numbers each query and key has in one head (dh). RoPE turns them two at a time, so a head "
        "has dh/2 pairs.",
    ),
    "rope_theta": Field(
        "Frequency base (rope_theta)",
        "float",
        "RoPE's base: pair i turns base^(−2i/dh) radians per position, so a larger base turns the later "
        "pairs slower still.",
    ),
    "max_position_embeddings": Field(
        "Length in the config (max_position_embeddings)",
        "int",
        "For plain RoPE, position interpolation and dynamic NTK: the length the model was trained on, L. For "
        "YaRN, Llama 3 and LongRoPE: the length it reads after scaling; they take L from a box of its own.",
    ),
    ORIGINAL: Field(
        "Trained length L (original_max_position_embeddings)",
        "int",
        "The length the model was trained on. Blank: the length in the config.",
    ),
    "factor": Field(
        "Slow-down factor s (factor)",
        "optional",
        "How many times slower the scaling turns the pairs it slows most (position interpolation: every "
        "pair). It need not equal how many times longer the model reads. Blank for YaRN and LongRoPE: the "
        "length in the config divided by L.",
    ),
    "low_freq_factor": Field(
        f"Slowed by s below this many {TURNS} (low_freq_factor)",
        "float",
        "A pair that turns fewer times than this within L is slowed by the whole s.",
    ),
    "high_freq_factor": Field(
        f"Kept above this many {TURNS} (high_freq_factor)",
        "float",
        "A pair that turns more times than this within L is kept as trained.",
    ),
    "beta_fast": Field(
        f"Kept above this many {TURNS} (beta_fast)",
        "optional",
        "A pair that turns at least this many times within L is kept as trained (blank: 32).",
    ),
    "beta_slow": Field(
        f"Slowed by s below this many {TURNS} (beta_slow)",
        "optional",
        "A pair that turns at most this many times within L is slowed by the whole s (blank: 1).",
    ),
    "mscale": Field(
        "Attention factor, numerator (mscale)",
        "optional",
        "DeepSeek's way to write the attention factor: (0.1·this·ln s + 1) divided by (0.1·the denominator·"
        "ln s + 1). Blank: YaRN's own formula.",
    ),
    "mscale_all_dim": Field(
        "Attention factor, denominator (mscale_all_dim)",
        "optional",
        "DeepSeek's way to write the attention factor; its attention also multiplies every score by "
        "(0.1·this·ln s + 1)². Blank: YaRN's own formula.",
    ),
    "attention_factor": Field(
        "Attention factor, set by hand (attention_factor)",
        "optional",
        "Multiplies the turned part of each query and key. Blank: the paper's formula.",
    ),
    PARTIAL: Field(
        "Share of each head that turns (partial_rotary_factor)",
        "float",
        "The share of each head's pairs RoPE turns: 1, every pair; 0.25, the first quarter of them.",
    ),
    "truncate": Field(
        "Round the blend's ends to whole pairs (truncate)",
        "bool",
        "On: YaRN rounds where its blend starts and ends to whole pairs. Off: it does not, as gpt-oss.",
    ),
    "short_factor": Field(
        "Slow-down of each pair up to L (short_factor)", "list", f"{LIST_HELP}, in texts up to L."
    ),
    "long_factor": Field("Slow-down of each pair past L (long_factor)", "list", f"{LIST_HELP}, past L."),
}
BLANK = {"factor": None, ORIGINAL: None, "beta_fast": None, "beta_slow": None, "mscale": None}
BLANK |= {"mscale_all_dim": None, "attention_factor": None, "low_freq_factor": 1.0, "high_freq_factor": 4.0}
BLANK |= {PARTIAL: 1.0, "truncate": True, "short_factor": "", "long_factor": ""}
LINKED = ("rope_type", *(k for k in FIELDS if FIELDS[k].kind != "list"))  # the settings a link carries
URL_KEYS = register_url_keys(PRESET, *(PREFIX + k for k in LINKED))


def preset_store(preset: LongContextPreset) -> dict:
    """The widget values of ``preset`` (every field; the ones it does not set at their blank)."""
    cfg = preset.config
    values = {**BLANK, "rope_type": cfg.rope_type, "head_dim": cfg.head_dim, "rope_theta": float(cfg.base)}
    values["max_position_embeddings"] = cfg.max_position_embeddings
    for key, value in cfg.parameters().items():
        values[key] = factor_list_text(value) if key in LISTS else value
    for key, field in FIELDS.items():
        if field.kind in ("float", "optional") and values[key] is not None:
            values[key] = float(values[key])
    return {**values, "preset": preset.key}


def _link_preset() -> str:
    """The preset a link names (``check_url`` has checked it); a link with values but no preset: custom."""
    name = st.query_params.get(PRESET)
    if name in (CUSTOM, *PRESETS):
        return name
    return CUSTOM if any(k in st.query_params for k in URL_KEYS) else DEFAULT_PRESET


def _base() -> dict:
    """What a control not yet in the session starts at: the link's preset's value, or, for a link with the
    user's own values, the default preset's with the optional numbers blank (a copied link leaves out the
    blank ones)."""
    name = _link_preset()
    if name in PRESETS:
        return preset_store(PRESETS[name])
    blank = {k: None for k, f in FIELDS.items() if f.kind == "optional"}
    return {**preset_store(PRESETS[DEFAULT_PRESET]), **blank, "preset": CUSTOM}


def _seed() -> dict:
    """Start each control the session does not hold and the URL does not set (the URL seeds a bound
    widget itself); returns the starting values."""
    if PRESET not in st.session_state:  # the session's first run: the link's preset
        st.session_state[PRESET] = _link_preset()
    if METHOD not in st.session_state and METHOD in st.query_params:  # not bound: seeded here
        st.session_state[METHOD] = st.query_params[METHOD]
    base = _base()
    for name in ("rope_type", *FIELDS):
        key = PREFIX + name
        if key not in st.session_state and key not in st.query_params:
            st.session_state[key] = base[name]
    return base


def _apply_preset() -> None:
    name = st.session_state[PRESET]
    if name in PRESETS:
        for key, value in preset_store(PRESETS[name]).items():
            if key != "preset":
                st.session_state[PREFIX + key] = value


def _edited() -> None:
    st.session_state[PRESET] = CUSTOM


def sync_preset_url() -> None:
    """Keep the address bar's ``lc_preset`` the chosen preset's name ("custom" for the user's own)."""
    name = st.session_state.get(PRESET, DEFAULT_PRESET)
    if st.query_params.get(PRESET) != name:
        st.query_params[PRESET] = name


def _sync_method_url() -> None:
    """Keep the address bar's ``lc_rope_type`` the method's config value (the box shows its name)."""
    if st.query_params.get(METHOD) != st.session_state[METHOD]:
        st.query_params[METHOD] = st.session_state[METHOD]


def _label(name: str, rope_type: str) -> str:
    """A field's label: the config's length is the trained length L for the types that read no other."""
    if name == "max_position_embeddings" and ORIGINAL not in VARIANTS[rope_type].keys:
        return "Trained length L (max_position_embeddings)"
    return FIELDS[name].label


def method_name(rope_type: str) -> str:
    """A method as the select box shows it: its name, and its config value where that differs."""
    label = VARIANTS[rope_type].label
    return label if label.lower() == rope_type else f"{label} ({rope_type})"


def _widget(name: str, rope_type: str) -> None:
    field, key, label = FIELDS[name], PREFIX + name, _label(name, rope_type)
    common = {"help": field.help, "on_change": _edited}
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
    base = _seed()
    st.markdown(SETTINGS_INTRO)
    c1, c2 = st.columns(2, vertical_alignment="bottom")
    c1.selectbox(
        "Preset: a released model's config",
        (CUSTOM, *PRESETS),
        format_func=lambda k: "custom (your own values)" if k == CUSTOM else PRESETS[k].label,
        key=url_bound(PRESET)["key"],  # shows model names: its URL value is written by sync_preset_url
        persist_state="session",
        on_change=_apply_preset,
    )
    sync_preset_url()
    rope_type = c2.selectbox(
        "Scaling method (rope_type)",
        ROPE_TYPES,
        format_func=method_name,
        on_change=_edited,
        help=" ".join(f"{v.label}: {v.idea}" for v in VARIANTS.values()),
        key=url_bound(METHOD)["key"],  # shows names: its URL value is written by _sync_method_url
        persist_state="session",
    )
    _sync_method_url()
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


def rope_config(values: dict) -> RopeConfig:
    """The ``RopeConfig`` of the controls' values: the keys its rope_type reads, blanks left out.

    Raises ``ValueError`` for a missing number or a factor list that does not parse.
    """
    rope_type = values["rope_type"]
    for name in ("head_dim", "rope_theta", "max_position_embeddings"):
        if values[name] is None:
            raise ValueError(f"{_label(name, rope_type)} is blank: it needs a value.")
    for name in VARIANTS[rope_type].required:
        if values.get(name) in (None, ""):
            raise ValueError(
                f"{_label(name, rope_type)} is blank: {VARIANTS[rope_type].label} needs a value."
            )
    params = []
    for key in VARIANTS[rope_type].keys:
        value = values.get(key)
        if value is None or (key == PARTIAL and value == 1.0) or (key == "truncate" and value is True):
            continue
        params.append((key, parse_factor_list(key, value) if key in LISTS else value))
    return RopeConfig(
        rope_type, values["head_dim"], values["rope_theta"], values["max_position_embeddings"], tuple(params)
    )


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
LECTURE_TITLE = "What the lecture's “generalize to unseen lengths” means here"


def story_section(view: LongContextView, name: str, words: FirstUse, slides: Slides) -> None:
    """The page's story for this config, step by step (``core.positional.long_context.story``), then the
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
        cell.altair_chart(readable(chart), width="stretch")
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
    st.altair_chart(readable(chart), width="stretch")
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
    st.altair_chart(readable(chart), width="stretch")
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
    st.altair_chart(readable(chart), width="stretch")
    st.markdown(" ".join(findings(e)))
