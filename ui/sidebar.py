"""The shared sidebar: navigation, the text source and the pipeline settings.

Every setting is bound to the URL (widget key = query parameter), so a copied link reproduces
the view. This module owns those keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

import streamlit as st

from core.config import METHODS, PipelineConfig
from core.presets import PRESETS, Preset
from core.samples import SAMPLE_TITLES, SAMPLES
from core.textfile import decode_text_file

MAX_TEXT_CHARS = 1_000_000
METHOD_HELP = (
    "nope: no position. learned: a trained table (GPT-2). sinusoidal: fixed waves (2017 Transformer). "
    "shaw: learned vectors per clipped offset. t5: a learned bias per offset bucket. "
    "alibi: a linear distance penalty. rope: rotates queries and keys."
)
PAGES = [
    ("streamlit_app.py", "Pipeline", ":material/linear_scale:"),
    ("pages/1_Why_position.py", "Why position?", ":material/swap_horiz:"),
    ("pages/2_Families.py", "Families side by side", ":material/compare:"),
    ("pages/3_Training.py", "Watch positions being learned", ":material/model_training:"),
    ("pages/4_Trained_positions.py", "Real trained positions", ":material/insights:"),
]
DEFAULTS = PipelineConfig()
DEFAULT_SAMPLE = "lesson"
CUSTOM = "custom"  # the preset value when settings are the user's own
PRESET_KEYS = ("vocab", "dim", "context", "method", "heads", "base", "buckets", "max_distance")
APPLIED_PRESET = "_applied_preset"  # session key: the preset whose values were last written
SAVED_SETTINGS = "_saved_settings"  # session key: the URL-bound settings of the last run
CURRENT_PAGE = "_current_page"  # session key: the page that ran last


@dataclass(frozen=True)
class TextChoice:
    """The text the pipeline runs on, or why there is none."""

    text: str  # the text ("" when there is none)
    label: str  # where it came from, for captions
    error: str | None = None  # a message for the user instead of a text


def _restore_settings(page: str) -> None:
    """On arriving at ``page`` from another page, give its widgets the settings in force there.

    Pages in ``pages/`` each draw their own widgets, and a page switch starts them afresh (the
    URL parameters of the old page's bound widgets are dropped). ``sidebar()`` saves the
    settings in the session after every run and writes them back here, before any widget.
    """
    if st.session_state.get(CURRENT_PAGE) != page:
        for key, value in st.session_state.get(SAVED_SETTINGS, {}).items():
            st.session_state[key] = value
        st.session_state[CURRENT_PAGE] = page


def to_custom() -> None:
    """A preset-controlled setting was edited by hand: the view is no longer the preset."""
    st.session_state["preset"] = CUSTOM


def bound_number(label: str, key: str, default: int | float, help: str) -> int | float:
    """A number input bound to the URL parameter ``key``; int or float like ``default``.

    No min/max on the widget: out-of-range values reach the config's ``validate``, which
    explains them (a bound widget would silently drop an out-of-range URL value).
    """
    step = 1 if isinstance(default, int) else None
    on_change = to_custom if key in PRESET_KEYS else None
    value = st.number_input(
        label, step=step, key=key, help=help, bind="query-params", value=default, on_change=on_change
    )
    return type(default)(value)


def preset_values(preset: Preset) -> dict[str, object]:
    """The widget values a preset sets (only the ones it defines)."""
    values = {
        "vocab": preset.vocab_size,
        "dim": preset.dim,
        "context": preset.context_length,
        "method": preset.method,
        "heads": preset.heads,
        "base": preset.rope_base,
        "buckets": preset.buckets,
        "max_distance": preset.max_distance,
    }
    return {k: v for k, v in values.items() if v is not None}


def preset_choice() -> Preset | None:
    """The ``preset`` selectbox; a newly chosen preset (or one from the URL) sets its values once."""
    name = st.selectbox(
        "Preset",
        (CUSTOM, *PRESETS),
        key="preset",
        bind="query-params",
        index=0,
        help="Published model configurations: " + ", ".join(p.label for p in PRESETS.values()),
    )
    if st.session_state.get(APPLIED_PRESET) != name:
        st.session_state[APPLIED_PRESET] = name
        if name in PRESETS:  # before the settings' widgets exist in this run, so they take these values
            st.session_state.update(preset_values(PRESETS[name]))
    return PRESETS.get(name)


def _read_upload() -> TextChoice:
    upload = st.file_uploader(
        "A .txt file (UTF-8, at most 1 MB)", type=["txt"], key="upload", max_upload_size=1
    )
    if upload is not None:  # kept in this session's state so it survives a page switch
        try:
            text = decode_text_file(upload.name, upload.getvalue())
            st.session_state["uploaded_text"] = TextChoice(text, f"uploaded file {upload.name}")
        except ValueError as exc:
            st.session_state["uploaded_text"] = TextChoice("", "", str(exc))
    return st.session_state.get("uploaded_text", TextChoice("", "", "Upload a .txt file to use it."))


def text_source(default_sample: str = DEFAULT_SAMPLE) -> TextChoice:
    """Sample, pasted or uploaded text (widget keys ``source``, ``sample``, ``text``, ``upload``)."""
    source = st.radio(
        "Text",
        ["sample", "paste", "upload"],
        horizontal=True,
        key="source",
        format_func=str.capitalize,
        persist_state="session",
    )
    if source == "paste":
        text = st.text_area(
            "Paste text",
            key="text",
            height=140,
            max_chars=MAX_TEXT_CHARS,
            persist_state="session",
            placeholder="Paste any text here",
        )
        if not text.strip():
            return TextChoice("", "", "The text is empty: paste some text, or pick a sample.")
        return TextChoice(text, "pasted text")
    if source == "upload":
        return _read_upload()
    name = st.selectbox(
        "Sample",
        list(SAMPLES),
        key="sample",
        help="  \n".join(f"**{k}**: {v}" for k, v in SAMPLE_TITLES.items()),
        bind="query-params",
        index=list(SAMPLES).index(default_sample),
    )
    return TextChoice(SAMPLES[name], f"sample: {SAMPLE_TITLES[name]}")


def pipeline_settings() -> PipelineConfig:
    """The seven URL-bound settings (keys vocab, dim, context, batch, stride, seed, method)."""
    d = DEFAULTS
    preset_choice()
    # Options show their own names: a bound selectbox writes what it shows into the URL.
    method = st.selectbox(
        "Positional method",
        METHODS,
        key="method",
        help=METHOD_HELP,
        bind="query-params",
        index=METHODS.index(DEFAULTS.method),
        on_change=to_custom,
    )
    c1, c2 = st.columns(2)
    with c1:
        vocab = bound_number(
            "Vocab V", "vocab", d.vocab_size, "Vocab size: rows of the token embedding table."
        )
        context = bound_number(
            "Context T",
            "context",
            d.context_length,
            "Tokens per window: max_length of the data loader.",
        )
        stride = bound_number("Stride", "stride", d.stride, "Tokens between the starts of two windows.")
    with c2:
        dim = bound_number(
            "Dim d", "dim", d.output_dim, "Embedding dim (output_dim): length of every vector."
        )
        batch = bound_number("Batch B", "batch", d.batch_size, "Batch size: windows per batch.")
        seed = bound_number("Seed", "seed", d.seed, "torch.manual_seed before the layers are made.")
    return PipelineConfig(vocab, dim, context, batch, stride, seed, method)


# Settings carried from page to page (the Families and Training pages' own ones included).
URL_KEYS = (
    "preset",
    "vocab",
    "dim",
    "context",
    "batch",
    "stride",
    "seed",
    "method",
    "sample",
    "heads",
    "base",
    "buckets",
    "max_distance",
    "clip",
    "extrapolate",
    "layout",
    "pairing",
    "init",
    "train_context",
    "size",
    "steps",
)


def sidebar(page: str, default_sample: str = DEFAULT_SAMPLE) -> tuple[PipelineConfig, TextChoice]:
    """Draw the whole sidebar of ``page``; return the settings and the chosen text."""
    _restore_settings(page)
    with st.sidebar:
        for path, label, icon in PAGES:
            st.page_link(path, label=label, icon=icon)
        st.divider()
        choice = text_source(default_sample)
        st.divider()
        cfg = pipeline_settings()
        st.caption("Every setting is in the page's URL: copy it to share this exact view.")
        share_link()
    st.session_state[SAVED_SETTINGS] = {k: st.session_state[k] for k in URL_KEYS if k in st.session_state}
    return cfg, choice


PAGE_KEYS = ("a", "b")  # page-specific settings (the Why position? sentences) carried in the link too


def view_link(url: str, state: dict) -> str:
    """``url`` without its query, plus every setting in ``state`` as a query parameter.

    Built from the settings themselves, not from the address bar, which loses the settings after a
    switch between pages (Streamlit drops the old page's bound parameters).
    """
    params = {k: state[k] for k in (*URL_KEYS, *PAGE_KEYS) if k in state and state[k] is not None}
    return url.split("?", 1)[0] + ("?" + urlencode(params) if params else "")


def share_link() -> None:
    """A link that reopens this view, in a code box whose button copies it."""
    with st.popover("Copy link", icon=":material/link:", width="stretch"):
        st.caption(
            "This link reopens the view exactly (text aside: pasted and uploaded text stays in this "
            "browser session)."
        )
        st.code(view_link(st.context.url or "", dict(st.session_state)), language=None, wrap_lines=True)


def current_preset() -> Preset | None:
    """The preset whose values are in force (None for custom settings)."""
    return PRESETS.get(st.session_state.get("preset", CUSTOM))
