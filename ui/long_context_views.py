"""The Long context page's pieces: its config controls (a preset or the user's own values) and its views.

Every control is bound to the URL (its key is ``lc_`` and the config.json name), except the two factor
lists, which are kept in the session: a longrope list has 48 numbers. The preset list shows model names,
so its URL value is written by hand (``sync_preset_url``), as the sidebar's preset is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import altair as alt
import pandas as pd
import streamlit as st
import torch

from core.positional.long_context import (
    DEFAULT_PRESET,
    LISTS,
    ORIGINAL,
    PRESETS,
    LongContextPreset,
    LongContextView,
    RopeConfig,
    attention_factor_curves,
    config_json,
    factor_list_text,
    long_context_view,
    pair_findings,
    parse_factor_list,
)
from core.positional.rope_scaling import PARTIAL, ROPE_TYPES, VARIANTS, get_mscale
from core.positional.rope_scaling_charts import (
    attention_chart,
    attention_frame,
    pair_frame,
    score_chart,
    score_frame,
    slowdown_chart,
    wavelength_chart,
)
from core.training.extrapolation import RUN, SCALINGS, Extrapolation, findings, measured
from core.views.chart_specs import same_data, templated
from ui import cache
from ui.presenter import presenting, readable
from ui.url_keys import register_url_keys, url_bound

PRESET = "lc_preset"  # the preset selectbox's key and URL key
CUSTOM = "custom"
PREFIX = "lc_"
COLUMNS = 4


@dataclass(frozen=True)
class Field:
    """One setting of the config: its label, its kind and its help."""

    label: str
    kind: str  # "int", "float", "optional" (a float that may be blank), "bool" or "list"
    help: str


FIELDS: dict[str, Field] = {
    "head_dim": Field("head_dim", "int", "dh: the dims of one head's query and key that RoPE rotates."),
    "rope_theta": Field("rope_theta (base)", "float", "The base of θᵢ = base^(−2i/dh)."),
    "max_position_embeddings": Field(
        "max_position_embeddings",
        "int",
        "The config's length: the trained one for linear and dynamic, the extended one for yarn, llama3, "
        "longrope.",
    ),
    ORIGINAL: Field(
        ORIGINAL, "int", "L, the length the model was trained on (blank: max_position_embeddings)."
    ),
    "factor": Field("factor s", "optional", "The extension factor (blank for yarn/longrope: max / L)."),
    "low_freq_factor": Field("low_freq_factor", "float", "Pairs slower than L / this are divided by s."),
    "high_freq_factor": Field("high_freq_factor", "float", "Pairs faster than L / this are kept."),
    "beta_fast": Field("beta_fast", "optional", "Turns within L above which a pair is kept (blank: 32)."),
    "beta_slow": Field(
        "beta_slow", "optional", "Turns within L below which a pair is divided by s (blank: 1)."
    ),
    "mscale": Field("mscale", "optional", "DeepSeek's numerator of the attention factor (blank: none)."),
    "mscale_all_dim": Field("mscale_all_dim", "optional", "DeepSeek's denominator (blank: none)."),
    "attention_factor": Field("attention_factor", "optional", "Multiplies cos and sin (blank: the paper's)."),
    PARTIAL: Field(PARTIAL, "float", "The share of each head that rotates (1: all of it)."),
    "truncate": Field("truncate the ramp's ends", "bool", "YaRN rounds its ramp's ends to whole pairs."),
    "short_factor": Field("short_factor", "list", "One divisor per pair, used up to L."),
    "long_factor": Field("long_factor", "list", "One divisor per pair, used past L."),
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


def _widget(name: str) -> None:
    field, key = FIELDS[name], PREFIX + name
    common = {"help": field.help, "on_change": _edited}
    common |= {"key": key} if field.kind == "list" else url_bound(key)
    if field.kind == "int":
        st.number_input(field.label, step=1, value=None, **common)
    elif field.kind == "bool":
        st.toggle(field.label, **common)
    elif field.kind == "list":
        st.text_area(field.label, height=90, **common)
    else:
        st.number_input(field.label, value=None, step=None, format="%g", **common)


def config_controls() -> tuple[str, dict]:
    """The preset, the rope_type and the fields it reads; returns the preset's key (or ``CUSTOM``) and
    the values in force (see ``rope_config``)."""
    base = _seed()
    c1, c2 = st.columns(2)
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
        "rope_type",
        ROPE_TYPES,
        on_change=_edited,
        help=" ".join(f"{v.name}: {v.idea}" for v in VARIANTS.values()),
        **url_bound(PREFIX + "rope_type"),
    )
    reads = VARIANTS[rope_type].keys
    names = ["head_dim", "rope_theta", "max_position_embeddings"]
    names += [k for k in FIELDS if k in reads and FIELDS[k].kind in ("int", "float", "optional")]
    for start in range(0, len(names), COLUMNS):  # row by row: a phone stacks them in reading order
        for column, name in zip(st.columns(COLUMNS), names[start : start + COLUMNS], strict=False):
            with column:
                _widget(name)
    lists = [k for k in FIELDS if k in reads and FIELDS[k].kind == "list"]
    for name in [k for k in FIELDS if k in reads and FIELDS[k].kind in ("bool", "list")]:
        _widget(name)
    store = {name: st.session_state.get(PREFIX + name, base[name]) for name in ("rope_type", *FIELDS)}
    store["preset"] = st.session_state[PRESET]
    if lists and store["preset"] not in PRESETS:
        st.caption(
            f"{' and '.join(lists)} stay in this session: a copied link carries every other value here, "
            "and a preset's lists by its name."
        )
    return store["preset"], store


def rope_config(values: dict) -> RopeConfig:
    """The ``RopeConfig`` of the controls' values: the keys its rope_type reads, blanks left out.

    Raises ``ValueError`` for a missing number or a factor list that does not parse.
    """
    rope_type = values["rope_type"]
    for name in ("head_dim", "rope_theta", "max_position_embeddings"):
        if values[name] is None:
            raise ValueError(f"{name} is blank: it needs a value.")
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
    a new batch size or seed (which it does not read) computed it again (~7 ms)."""
    return long_context_view(cfg, label)


def label_of(preset: str) -> str:
    """The config's name on the charts."""
    return PRESETS[preset].label.split(" (")[0] if preset in PRESETS else "your config"


def overview(preset: str, cfg: RopeConfig, view: LongContextView) -> None:
    """The method in one sentence, its source, the lengths and the config.json keys."""
    variant = VARIANTS[cfg.rope_type]
    st.markdown(
        f"**{variant.name}**: {variant.idea}  \nSource: {variant.paper}. Values as `{variant.reference}`."
    )
    c = st.columns(4)
    c[0].metric("Trained length L", f"{cfg.original:,}")
    c[1].metric("Extended length L'", f"{cfg.extended:,}")
    c[2].metric("Factor s", f"{cfg.factor:g}")
    c[3].metric("Attention factor", f"{view.attention_factor:.4f}")
    if presenting():
        return
    with st.expander("config.json: the keys this config uses", icon=":material/data_object:"):
        known = PRESETS.get(preset)
        if known:
            st.caption(f"From {known.source}. {known.note}")
        legacy, current = config_json(known, cfg)
        a, b = st.columns(2)
        a.markdown("Legacy form (`rope_scaling`, transformers 4):")
        a.code(legacy, language="json", wrap_lines=True)
        b.markdown("Current form (`rope_parameters`, transformers 5):")
        b.code(current, language="json", wrap_lines=True)


def pairs_section(view: LongContextView) -> None:
    """Which pairs are kept, interpolated or blended: wavelengths and slow-downs, and what they show."""
    cfg, on = view.cfg, presenting()

    def build() -> tuple[tuple, int]:  # kept with the view: built once per config
        frame = pair_frame(view)
        if on:  # one chart, the whole width, its legend at the side: a projector is short
            return (wavelength_chart(frame, cfg.original, cfg.extended, 300, side=True),), 64 * len(frame)
        charts = wavelength_chart(frame, cfg.original, cfg.extended), slowdown_chart(frame, cfg.factor)
        return charts, 64 * len(frame)

    charts = cache.kept_chart(("long context pairs", on), (view,), build)
    cells = st.columns(len(charts)) if len(charts) > 1 else [st]  # presenting: one chart, full width
    for cell, chart in zip(cells, charts, strict=True):
        cell.altair_chart(readable(chart), width="stretch")
    findings = pair_findings(view)
    st.markdown(findings[0] if on else " ".join(findings))


def score_section(view: LongContextView, label: str) -> None:
    """The position-only score against distance, this config beside plain RoPE and the general methods."""
    height, side = (300, True) if presenting() else (300, False)

    def build() -> tuple[alt.TopLevelMixin, int]:  # kept with the view
        frame = score_frame(view)
        return score_chart(frame, label, view.cfg.original, height, side), 64 * len(frame)

    chart = cache.kept_chart(("long context scores", label, side), (view,), build)
    st.altair_chart(readable(chart), width="stretch")
    words = [
        "q = k = the all-ones head: the score is the mean over pairs of cos(r·θᵢ), so it shows what "
        "position alone does; each point is the mean over every distance from its r to the next point's. "
        "Linear interpolation reaches at s·r the score plain RoPE has at r."
    ]
    for name, a in view.factors.items():
        if a != 1:
            words.append(f"{name} starts at {a**2:.4f}: its attention factor {a:.4f}, squared.")
    if len(view.scores) == 2:
        words.append("s = 1: there is no extension, so the general methods would all be plain RoPE.")
    if not presenting():
        st.caption(" ".join(words))


def attention_section(view: LongContextView) -> None:
    """The attention factor: its value, its formula against s, and what DeepSeek does besides."""
    cfg, a = view.cfg, view.attention_factor
    st.markdown(
        f"transformers multiplies cos and sin by the attention factor, so every rotated part of a query·key "
        f"score grows by its square: here {a:.4f}² = {a**2:.4f}. YaRN and LongRoPE use it to keep attention "
        "as sharp at L' as at L; the others leave it at 1."
    )
    height, side = (230, True) if presenting() else (220, False)

    def build() -> tuple[alt.TopLevelMixin, int]:  # kept with the view
        factors = torch.logspace(0, max(2.0, math.log10(2 * cfg.factor)), 60, dtype=torch.float64)  # [S]
        frame = attention_frame(attention_factor_curves(cfg, factors), factors)
        return attention_chart(frame, cfg.factor, a, height, side), 64 * len(frame)

    chart = cache.kept_chart(("long context attention factor", side), (view,), build)
    st.altair_chart(readable(chart), width="stretch")
    st.caption(f"The red dot is this config: s = {cfg.factor:g}, attention factor {a:.4f}.")
    p = cfg.parameters()
    if cfg.rope_type == "yarn" and p.get("mscale_all_dim"):
        m = get_mscale(cfg.factor, p["mscale_all_dim"])
        st.caption(
            f"With mscale_all_dim, DeepSeek's attention also multiplies its softmax scale by "
            f"(0.1·{p['mscale_all_dim']:g}·ln {cfg.factor:g} + 1)² = {m**2:.4f} (transformers' "
            "yarn_apply_mscale): that scale is not in the curves above."
        )


@st.cache_resource(max_entries=1, show_spinner=False)
def measured_run() -> Extrapolation:
    """The page's own run (``core.training.extrapolation.RUN`` on the ship's log), as shipped
    (``core.training.extrapolation.measured``): read once per server."""
    return measured()


def extrapolation_chart(e: Extrapolation, height: int = 300, legend: str = "bottom") -> alt.LayerChart:
    """Loss per position for each scaling, the trained length marked by a rule; the scalings' legend at
    ``legend`` (Vega-Lite's orient)."""
    rows = [
        {"position": p, "loss": loss, "scaling": name}
        for name, losses in e.losses.items()
        for p, loss in enumerate(losses)
    ]
    return _loss_chart(pd.DataFrame(rows), e.trained, height, legend)


@templated(same_data)  # drawn on every rerun of the page, built once per data
def _loss_chart(frame: pd.DataFrame, trained: int, height: int, legend: str = "bottom") -> alt.LayerChart:
    lines = (
        alt.Chart(frame)
        .mark_line()
        .encode(
            x=alt.X("position:Q", title="position in the window"),
            y=alt.Y("loss:Q", title="held-out loss (nats)", scale=alt.Scale(zero=False)),
            color=alt.Color("scaling:N", sort=list(SCALINGS), legend=alt.Legend(orient=legend)),
            tooltip=["scaling", "position", alt.Tooltip("loss:Q", format=".3f")],
        )
    )
    rule = (
        alt.Chart(pd.DataFrame({"position": [trained], "label": [f"trained length T = {trained}"]}))
        .mark_rule(strokeDash=[4, 4], color="gray")
        .encode(x="position:Q", tooltip=["label"])
    )
    return (lines + rule).properties(height=height)


def extrapolation_section() -> None:
    """Extrapolation, measured: the page's tiny RoPE model past its trained length, per scaling."""
    e = measured_run()
    if not presenting():
        st.markdown(
            f"A {RUN.size} TinyGPT with RoPE trained for {e.steps} steps on windows of "
            f"T = {e.trained} tokens of the ship's log, then evaluated on its held-out "
            f"text in windows of {e.length} = {e.length // e.trained}·T, its θᵢ replaced by each scaling's "
            f"with s = {e.length // e.trained} and no fine-tuning. The run is seeded: trained once "
            f"({e.seconds:.1f} s) by `tools/measure_extrapolation.py`, the app shows its numbers, and the "
            "tests train it again and compare every loss."
        )
    # Presenting, the legend goes beside the curves: under them, in large type, it would leave them no
    # height (the chart's height holds its axes and legend too).
    height, legend = (280, "right") if presenting() else (300, "bottom")
    chart = cache.kept_chart(
        ("extrapolation", height, legend), (e,), lambda: (extrapolation_chart(e, height, legend), 20_000)
    )
    st.altair_chart(readable(chart), width="stretch")
    st.markdown(" ".join(findings(e)))
