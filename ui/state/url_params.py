"""Every setting's URL parameter and what it accepts; a bad value is explained, never replaced silently.

A widget bound to the URL quietly replaces a value it cannot take (``dim=abc``, ``dim=1.5``,
``vocab=inf``, ``method=unknown``) by its default. The entry point checks the address bar first,
says what was wrong with each value and removes it, so the page visibly falls back to the default.
Ranges are explained by each page's ``validate`` (the same on every page).
"""

from __future__ import annotations

import math
import re

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from core.config import PipelineConfig
from core.positional.family import FAMILIES, all_params
from core.positional.long_context_presets import DEFAULT_PRESET as LC_DEFAULT
from core.positional.long_context_presets import PRESETS as LC_PRESETS
from core.positional.rope_scaling import ROPE_TYPES
from core.presets import PRESETS
from core.text.samples import SAMPLES
from core.training.model import SIZES
from core.training.training import TrainConfig
from core.views.markup import escape_markdown

WHOLE, NUMBER = "a whole number", "a number"
SLIDE = "a section number such as 3, or 3.2 for its second part"  # presenting: the slide shown
# ASCII only: Python's int() and float() also take "１２", "٤" and "1_000", which no link should carry.
_WHOLE = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_SLIDE = re.compile(r"([0-9]{1,4})(?:\.([0-9]{1,4}))?")  # a slide past the last is the last (ui.slides)
# A browser keeps whole numbers exactly up to 2**53 - 1; Streamlit silently resets a bound widget's
# URL value beyond that (``NumberInputSerde.deserialize``), so it is refused here, with a message.
MAX_WHOLE = 2**53 - 1
# Sentences typed into Why position? (URL keys a and b): text, cut to this many characters.
TEXT_KEYS = ("a", "b")
MAX_SENTENCE_CHARS = 300
# Parameters that are not settings but are read elsewhere: Streamlit's own, Copy link's ``text``
# (``ui.state.share_link.apply_link_text`` explains that one) and the Training page's ``run``
# (ui.training.run_link).
NOT_SETTINGS = ("embed", "embed_options", "text", "run")
BOUND_TABS: set[str] = set()  # st.tabs bound to the URL (url_keys.register_tab_keys), checked by Streamlit
# The Long context page's config (ui.long_context.form): lc_ and its config.json name.
LC_WHOLE = ("lc_head_dim", "lc_max_position_embeddings", "lc_original_max_position_embeddings")
LC_NUMBER = ("lc_rope_theta", "lc_factor", "lc_low_freq_factor", "lc_high_freq_factor", "lc_beta_fast")
LC_NUMBER += ("lc_beta_slow", "lc_mscale", "lc_mscale_all_dim", "lc_attention_factor")
LC_NUMBER += ("lc_partial_rotary_factor",)


def accepted() -> dict[str, str | tuple[str, ...]]:
    """URL key -> ``WHOLE``, ``NUMBER`` or the option values it accepts."""
    options = {
        "method": tuple(FAMILIES),
        "sample": tuple(SAMPLES),
        "preset": ("custom", *PRESETS),
        "size": tuple(SIZES),
        "corpus": ("log", "sidebar"),
        "present": ("true", "false", "1"),
        "space": ("true", "false"),
        "causal": ("true", "false"),
        "lc_preset": ("custom", *LC_PRESETS),
        "lc_rope_type": ROPE_TYPES,
        "lc_truncate": ("true", "false"),
    }
    whole = (
        "vocab",
        "dim",
        "context",
        "batch",
        "stride",
        "seed",
        "train_context",
        "steps",
        "head",
        "token",
        "token_a",
        "token_b",
    )
    numbers = dict.fromkeys(whole, WHOLE)
    families = {  # each family's settings, as its module declares them
        key: tuple(map(str, p.options)) if p.options else WHOLE if isinstance(p.default, int) else NUMBER
        for key, p in all_params().items()
    }
    return {
        **numbers,
        "slide": SLIDE,
        **dict.fromkeys(LC_WHOLE, WHOLE),
        **dict.fromkeys(LC_NUMBER, NUMBER),
        **families,
        **options,
    }


def defaults() -> dict[str, object]:
    """What each setting falls back to."""
    p, t = PipelineConfig(), TrainConfig()
    return {
        "vocab": p.vocab_size,
        "dim": p.output_dim,
        "context": p.context_length,
        "batch": p.batch_size,
        "stride": p.stride,
        "seed": p.seed,
        "method": p.method,
        "sample": "lesson",
        "preset": "custom",
        **{key: param.default for key, param in all_params().items()},
        "size": t.size,
        "corpus": "log",
        "present": "false",
        "slide": "1",
        "space": "true",
        "causal": "true",
        "head": 1,
        "token": "no token",  # the Pipeline's followed token: its place in the text, none by default
        "token_a": "no token",  # Why position? and Attention's: its place in sentence A, or in B
        "token_b": "no token",
        "train_context": t.context_length,
        "steps": t.steps,
        **_long_context_defaults(),
    }


def _long_context_defaults() -> dict[str, object]:
    """The Long context page's settings at its default preset ("blank" for a value it leaves out)."""
    cfg = LC_PRESETS[LC_DEFAULT].config
    own = {"lc_preset": LC_DEFAULT, "lc_rope_type": cfg.rope_type, "lc_head_dim": cfg.head_dim}
    own |= {"lc_rope_theta": cfg.base, "lc_max_position_embeddings": cfg.max_position_embeddings}
    own |= {"lc_truncate": "true", "lc_partial_rotary_factor": 1.0, "lc_low_freq_factor": 1.0}
    own["lc_high_freq_factor"] = 4.0
    given = {f"lc_{k}": v for k, v in cfg.parameters().items()}
    return {
        k: given.get(k, own.get(k, "blank"))
        for k in (*LC_WHOLE, *LC_NUMBER, "lc_preset", "lc_rope_type", "lc_truncate")
    }


def parse(key: str, value: str) -> str:
    """URL parameter ``key``'s value written the one way its widget reads it (" +4 " -> "4").

    Args:
        key: a setting's URL key (one of ``accepted()``).
        value: its text in the URL.
    Returns the canonical text; raises ``ValueError`` saying why ``value`` cannot be ``key``.
    """
    kind, text = accepted()[key], value.strip()
    if text == "":
        raise ValueError("is empty")
    if kind == WHOLE:
        if not _WHOLE.fullmatch(text):
            raise ValueError(f"is not {WHOLE}")
        if abs(number := int(text)) > MAX_WHOLE:
            raise ValueError(f"is beyond ±{MAX_WHOLE:,}, the largest whole number a browser keeps exactly")
        return str(number)
    if kind == SLIDE:
        found = _SLIDE.fullmatch(text)
        if not found or int(found[1]) < 1 or (found[2] is not None and int(found[2]) < 1):
            raise ValueError(f"is not {SLIDE}")
        return str(int(found[1])) + (f".{int(found[2])}" if found[2] is not None else "")
    if kind == NUMBER:
        if text.lstrip("+-").lower() in ("inf", "infinity", "nan"):
            raise ValueError("is not a finite number")
        if not _NUMBER.fullmatch(text):
            raise ValueError(f"is not {NUMBER}")
        if not math.isfinite(float(text)):  # 1e309
            raise ValueError("is not a finite number")
        return text
    if value not in kind:
        raise ValueError(f"is not one of {', '.join(kind)}")
    return value


def url_text(key: str, value: object) -> str:
    """The one writer of URL values: ``value`` as the text its widget reads back (True -> "true").

    Every link the app writes goes through here, and the result is what ``parse`` keeps unchanged, so
    a copied link reopens the view (Python's ``str(False)`` is "False", which no reader takes).

    Args:
        key: a setting's URL key (one of ``accepted()``, or a sentence key of ``TEXT_KEYS``).
        value: the widget's value in the session (bool, int, float or str).
    Returns the canonical text; raises ``ValueError`` if ``value`` is no value of ``key``.
    """
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = repr(value)  # the shortest text that reads back to the same float
    else:
        text = str(value)
    return text if key in TEXT_KEYS or key not in accepted() else parse(key, text)


def url_value(key: str, default: bool | int | float | str) -> bool | int | float | str:
    """Setting ``key`` as its widget would hold it, without drawing the widget: this session's value,
    else the URL's (read by ``parse``), else ``default``; of ``default``'s type."""
    if key in st.session_state:
        return st.session_state[key]
    text = st.query_params.get(key)
    if text is None:
        return default
    try:
        text = parse(key, text) if key in accepted() else text
        return text == "true" if isinstance(default, bool) else type(default)(text)
    except ValueError:  # a value the widget would not take either
        return default


def problem(key: str, value: str) -> str | None:
    """Why ``value`` cannot be URL parameter ``key`` (None when it can, or the key is not a setting)."""
    if key not in accepted():
        return None
    try:
        parse(key, value)
    except ValueError as exc:
        return str(exc)
    return None


def _shown(text: str, most: int = 40) -> str:
    """``text`` as a message quotes it: escaped, and cut after ``most`` characters."""
    return escape_markdown(text[:most] + ("…" if len(text) > most else ""))


def check_url() -> list[str]:
    """Messages for the URL's bad values, which are removed so that their settings take the default.

    The one place where URL parameters are read: each setting's value is parsed here and written
    back canonically (the widget then only reads "4", "0.5" or an option's name), a repeated key keeps
    its last value, a sentence (``a``, ``b``) is cut to ``MAX_SENTENCE_CHARS`` and a key that is no
    setting is dropped, each with a message.
    """
    messages, unknown, changed = [], [], False
    for key in list(st.query_params):
        if key in NOT_SETTINGS or key in BOUND_TABS:  # a tab label Streamlit does not know, it drops itself
            continue
        values = st.query_params.get_all(key)
        if key not in accepted() and key not in TEXT_KEYS:
            unknown.append(key)
            del st.query_params[key]
            changed = True
            continue
        value, name = values[-1] if values else "", f"URL parameter **{_shown(key)}**"
        if len(values) > 1:
            messages.append(f"{name} is given {len(values)} times: using the last, “{_shown(value)}”.")
        try:
            kept = value[:MAX_SENTENCE_CHARS] if key in TEXT_KEYS else parse(key, value)
        except ValueError as exc:
            del st.query_params[key]
            st.session_state.pop(key, None)
            changed = True
            messages.append(f"{name} = “{_shown(value)}” {exc}: using the default, {defaults()[key]}.")
            continue
        if key in TEXT_KEYS and len(kept) < len(value):
            cut = f"has {len(value):,} characters: using its first {MAX_SENTENCE_CHARS}"
            messages.append(f"{name} {cut}.")
        if kept != value or len(values) > 1:
            st.query_params[key] = kept
            changed = True
    if unknown:
        names = ", ".join(f"**{_shown(k)}**" for k in unknown[:10])
        more = f" and {len(unknown) - 10:,} more" if len(unknown) > 10 else ""
        verb = "is not a setting" if len(unknown) == 1 else "are not settings"
        messages.append(f"URL parameter{'s' * (len(unknown) > 1)} {names}{more} {verb} of this app: ignored.")
    if changed:
        _forget_initial_values()
    return messages


# Streamlit ignores a whole query string of more than 1,000 parameters or 512 Ki characters
# (``streamlit.runtime.state.query_params.sanitize_query_string``): the server never sees it, so only the
# browser can tell the reader. This note, drawn when the server got no parameters, checks the address bar.
MAX_URL_FIELDS, MAX_URL_CHARS = 1000, 512 * 1024
_DROPPED_NOTE = """
<div class="dropped-url" role="alert" hidden></div>
<script>
(() => {{
  const note = document.querySelector("div.dropped-url:not([data-checked])");
  if (!note) return;
  note.dataset.checked = "1";
  const query = window.location.search.slice(1);
  const fields = query ? query.split("&").length : 0;
  if (fields <= {fields} && query.length <= {chars}) return;
  const what = fields > {fields} ? fields.toLocaleString("en") + " parameters" :
    query.length.toLocaleString("en") + " characters";
  note.textContent = "This link has " + what + ": Streamlit reads a link of at most " +
    "{fields_text} parameters and {chars_text} characters, so it ignored the whole link " +
    "and the page shows the default settings. " +
    "A link from Copy link carries at most {settings} parameters.";
  note.hidden = false;
}})();
</script>
<style>
.dropped-url {{ padding: 0.8rem 1rem; border-radius: 0.5rem; background: #fffbeb; color: #92400e;
  border: 1px solid #fcd34d; }}
</style>
"""


def dropped_url_note(settings: int) -> None:
    """In the browser: say so when Streamlit ignored an over-long link.

    Args:
        settings: how many parameters a link from Copy link carries at most.
    """
    if st.query_params:  # the server got the link's parameters: nothing was dropped
        return
    note = _DROPPED_NOTE.format(
        fields=MAX_URL_FIELDS,
        chars=MAX_URL_CHARS,
        fields_text=f"{MAX_URL_FIELDS:,}",
        chars_text=f"{MAX_URL_CHARS:,}",
        settings=settings,
    )
    st.html(note, unsafe_allow_javascript=True)


def _forget_initial_values() -> None:
    """Make the bound widgets of this run seed from the corrected URL, not the one the page opened with.

    Streamlit seeds a bound widget from the query string the run *started* with
    (``QueryParams._initial_query_params``), so removing a parameter alone would still let ``vocab=inf``
    reach the widget. ``set_initial_query_params_from_current`` is what Streamlit itself calls on a page
    switch (``script_runner.py``) to re-seed from the filtered parameters.
    """
    ctx = get_script_run_ctx()
    if ctx is not None:
        with ctx.session_state.query_params() as qp:
            qp.set_initial_query_params_from_current()
