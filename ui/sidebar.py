"""The shared sidebar: navigation, the text source and the pipeline settings.

Every setting is bound to the URL (widget key = query parameter), so a copied link reproduces
the view. This module owns those keys.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from core.config import FAMILIES, PipelineConfig
from core.markup import escape_markdown
from core.presets import PRESETS, Preset
from core.samples import SAMPLE_TITLES, SAMPLES
from core.textfile import decode_text_file
from ui import cache
from ui.presenter import PRESENT, presenter_toggle
from ui.share_link import apply_link_text, copy_link_button, share_params
from ui.url_params import check_url

MAX_TEXT_CHARS = 1_000_000
# (file, title, icon, URL path): the app's pages, in the order of the sidebar's links. The first is
# the default, at "/". Each file is named exactly as its URL path, on purpose. With a ``pages/`` folder,
# Streamlit runs the very first script run of a process through its legacy multipage path
# (``_mpa_v1`` in streamlit/runtime/scriptrunner/script_runner.py): it builds pages from the file names
# in ``pages/`` and sends "Page not found" (a modal that blocks clicks) when the URL names none of them.
# A fresh server's first request is often a deep link (a class opening a link as a Community Cloud app
# wakes up), so the names match and that run executes the page file itself, whose ``settings()`` then
# does what the entry point does (``ui.app.start_run``) and calls ``st.navigation``, which ends the
# legacy path for the whole process: every later run starts at the entry point.
PAGES = [
    ("pages/Pipeline.py", "Pipeline", ":material/linear_scale:", "Pipeline"),
    ("pages/Why_position.py", "Why position?", ":material/swap_horiz:", "Why_position"),
    ("pages/Families.py", "Families side by side", ":material/compare:", "Families"),
    ("pages/Training.py", "Watch positions being learned", ":material/model_training:", "Training"),
    ("pages/Trained_positions.py", "Real trained positions", ":material/insights:", "Trained_positions"),
]
DEFAULTS = PipelineConfig()
DEFAULT_SAMPLE = "lesson"
CUSTOM = "custom"  # the preset value when settings are the user's own
PRESET_KEYS = ("vocab", "dim", "context", "method", "heads", "base", "buckets", "max_distance")
APPLIED_PRESET = "_applied_preset"  # session key: the preset whose values were last written
SETTINGS = "_settings"  # session key: this run's settings, read by the page
# Every setting is a widget bound to its URL parameter. The sidebar's widgets are drawn by the entry
# point, so they are the same widgets on every page and the address bar keeps them through page
# switches; a page's own widgets are kept in the session while another page is shown.
URL_BOUND = {"bind": "query-params", "persist_state": "session"}
BOUND_KEYS: set[str] = set()  # every widget key bound to the URL so far; a test checks it against URL_KEYS


def url_bound(key: str) -> dict[str, str]:
    """A widget's ``key`` and the arguments that bind it to the URL; the key is recorded in BOUND_KEYS."""
    BOUND_KEYS.add(key)
    return {"key": key, **URL_BOUND}


@dataclass(frozen=True)
class TextChoice:
    """The text the pipeline runs on, or why there is none."""

    text: str  # the text ("" when there is none)
    label: str  # where it came from, for captions
    error: str | None = None  # a message for the user instead of a text


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
    value = st.number_input(label, step=step, help=help, **url_bound(key), value=default, on_change=on_change)
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


LONG_SAMPLE = "log"


def apply_new_preset() -> str | None:
    """Write a newly chosen preset's values (from the selectbox or the URL) before any widget exists.

    A preset whose context does not fit the sample in use also switches to the long sample, so the
    page never stops at "use a longer text"; returns what it says about that switch.
    """
    name = st.session_state.get("preset", st.query_params.get("preset", CUSTOM))
    if st.session_state.get(APPLIED_PRESET) == name:
        return None
    st.session_state[APPLIED_PRESET] = name
    if name not in PRESETS:
        return None
    preset = PRESETS[name]
    st.session_state.update(preset_values(preset))
    if st.session_state.get("source", "sample") != "sample":
        return None  # the user's own text stays; the page's message offers the long sample
    sample = st.session_state.get("sample", st.query_params.get("sample", DEFAULT_SAMPLE))
    needed = preset.context_length + 1  # one window and its shifted target
    V = preset.vocab_size  # a smaller vocabulary makes more tokens of the same text
    have = len(cache.token_ids(SAMPLES.get(sample, SAMPLES[DEFAULT_SAMPLE]), V))
    if have >= needed or len(cache.token_ids(SAMPLES[LONG_SAMPLE], V)) < needed:
        return None
    st.session_state["sample"] = LONG_SAMPLE
    if "sample" in st.query_params:
        st.query_params["sample"] = LONG_SAMPLE
    return (
        f"{preset.label}: one window of context {preset.context_length:,} needs {needed:,} tokens and the "
        f"{sample} sample has {have:,}, so the text is now the long sample, {SAMPLE_TITLES[LONG_SAMPLE]}."
    )


def use_long_sample() -> None:
    """A button's callback: the long sample as the text."""
    st.session_state.update(source="sample", sample=LONG_SAMPLE)


def preset_choice() -> Preset | None:
    """The ``preset`` selectbox (its values were written by ``apply_new_preset``)."""
    name = st.selectbox(
        "Preset",
        (CUSTOM, *PRESETS),
        **url_bound("preset"),
        index=0,
        help="Published model configurations: " + ", ".join(p.label for p in PRESETS.values()),
    )
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
            st.session_state["uploaded_text"] = TextChoice(
                "", "", escape_markdown(str(exc))
            )  # names the file
    return st.session_state.get("uploaded_text", TextChoice("", "", "Upload a .txt file to use it."))


def text_source() -> TextChoice:
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
        help="  \n".join(f"**{k}**: {v}" for k, v in SAMPLE_TITLES.items()),
        **url_bound("sample"),
        index=list(SAMPLES).index(DEFAULT_SAMPLE),
    )
    return TextChoice(SAMPLES[name], f"sample: {SAMPLE_TITLES[name]}")


def pipeline_settings() -> PipelineConfig:
    """The seven URL-bound settings (keys vocab, dim, context, batch, stride, seed, method)."""
    d = DEFAULTS
    preset_choice()
    # Options show their own names: a bound selectbox writes what it shows into the URL.
    method = st.selectbox(
        "Positional method",
        tuple(FAMILIES),
        help=" ".join(f.help for f in FAMILIES.values()),
        **url_bound("method"),
        index=list(FAMILIES).index(DEFAULTS.method),
        on_change=to_custom,
    )
    c1, c2 = st.columns(2)
    with c1:
        vocab = bound_number(
            "Vocab V",
            "vocab",
            d.vocab_size,
            "Vocab size: the tokenizer's size and the token table's rows. Below 50,257 the tokenizer is "
            "GPT-2's BPE cut to its first V tokens (at least 257: the 256 bytes and <|endoftext|>); "
            "above, GPT-2's whole BPE, and the table has rows no token uses.",
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


SIDEBAR_KEYS = ("preset", "vocab", "dim", "context", "batch", "stride", "seed", "method", "sample", PRESENT)
# The pages' own settings (Families, Training, Why position?): kept in the session when another page is shown.
PAGE_KEYS = (
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
    "corpus",
    "a",
    "b",
    "space",
)
URL_KEYS = SIDEBAR_KEYS + PAGE_KEYS


def url_settings(state: dict, keys: tuple[str, ...] = URL_KEYS) -> dict[str, object]:
    """The settings among ``keys`` that ``state`` holds, as query parameters."""
    return {k: state[k] for k in keys if k in state and state[k] is not None}


def navigation() -> StreamlitPage:
    """The app's pages (``PAGES``); the sidebar draws their links itself."""
    pages = [
        st.Page(path, title=title, icon=icon, url_path=url, default=i == 0)
        for i, (path, title, icon, url) in enumerate(PAGES)
    ]
    return st.navigation(pages, position="hidden")


def sidebar() -> None:
    """Draw the sidebar shared by every page; ``settings()`` then returns what it holds (this run only)."""
    for message in check_url():  # before any widget reads the URL
        st.warning(message, icon=":material/link_off:")
    if note := apply_link_text():
        st.warning(note, icon=":material/link_off:")
    if note := apply_new_preset():
        st.info(note, icon=":material/swap_horiz:")
    with st.sidebar:
        for path, title, icon, _ in PAGES:
            st.page_link(path, label=title, icon=icon)
        st.divider()
        choice = text_source()
        st.divider()
        cfg = pipeline_settings()
        st.caption("Every setting is in the page's URL: copy it to share this exact view.")
        share_link()
        presenter_toggle(url_bound(PRESENT))
    st.session_state[SETTINGS] = (cfg, choice)


def settings() -> tuple[PipelineConfig, TextChoice]:
    """The sidebar's settings and text for this run.

    The entry point draws the sidebar before the page and forgets the settings when the run ends. A
    page file that runs on its own (a fresh server's first run, see ``PAGES``) starts the run here.
    """
    if not _entry_point_is_running():
        from ui.app import start_run  # ui.app draws this sidebar: imported here, not at the top

        start_run(navigation())  # registers the app's pages: the next run starts at the entry point
        return st.session_state.pop(SETTINGS)
    return st.session_state[SETTINGS]


ENTRY_POINT = str(Path(__file__).resolve().parents[1] / "streamlit_app.py")


def _entry_point_is_running() -> bool:
    """Whether this page was started by ``streamlit_app.py`` (its frame is below us on the stack)."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == ENTRY_POINT:
            return True
        frame = frame.f_back
    return False


def checked_settings() -> tuple[PipelineConfig, TextChoice]:
    """``settings()``, after the same check every page makes (a message and a stop if it fails)."""
    cfg, choice = settings()
    try:
        cfg.validate()
    except ValueError as exc:
        st.error(str(exc))
        st.stop()
    return cfg, choice


def forget_settings() -> None:
    """End of a run: the next run's page must not read this run's settings."""
    st.session_state.pop(SETTINGS, None)


def share_link() -> None:
    """Copy link, built from the settings themselves.

    The page's own widgets are drawn after the sidebar, so their values come from the session (kept
    from the last run) or, on a page's first run, from the address bar; a setting at its default
    is in neither, and the link's reader gets that default too.
    """
    in_url = {k: st.query_params[k] for k in URL_KEYS if k in st.query_params}
    params, note = share_params(dict(st.session_state), {**in_url, **url_settings(dict(st.session_state))})
    copy_link_button(st.context.url or "", params, note)


def current_preset() -> Preset | None:
    """The preset whose values are in force (None for custom settings)."""
    return PRESETS.get(st.session_state.get("preset", CUSTOM))
