"""Copy link: a link that reopens this view, copied by one click, and what it carries.

Settings always travel (every URL-bound widget). A pasted text of at most ``MAX_LINK_TEXT``
characters travels too, as the URL parameter ``text`` (this module owns it); a longer pasted text
or an uploaded file does not, and the sidebar says so.
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

import streamlit as st

MAX_LINK_TEXT = 1_000  # characters of pasted text a link carries
_BUTTON = """
<button class="copy-link" type="button" data-link="{link}">Copy link</button>
<span class="copy-status" role="status" aria-live="polite"></span>
<script>
// Where the browser blocks the clipboard (a page served over plain http has none), the link appears
// selected for Ctrl+C: made only then, it is no Tab stop on the way to every page.
document.querySelectorAll("button.copy-link:not([data-bound])").forEach((button) => {{
  button.dataset.bound = "1";
  button.addEventListener("click", () => {{
    const status = button.nextElementSibling;
    const blocked = () => {{
      status.textContent = "Copying was blocked: the link is selected below, press Ctrl+C";
      let box = status.nextElementSibling;
      if (!box || !box.classList.contains("copy-fallback")) {{
        box = Object.assign(document.createElement("input"), {{className: "copy-fallback", readOnly: true}});
        box.setAttribute("aria-label", "The link");
        status.after(box);
      }}
      box.value = button.dataset.link;
      box.focus();
      box.select();
    }};
    if (!navigator.clipboard) return blocked();
    navigator.clipboard.writeText(button.dataset.link).then(
      () => {{ status.textContent = "Copied: paste it anywhere"; }}, blocked);
  }});
}});
</script>
<style>
.copy-link {{ width: 100%; padding: 0.45rem; border-radius: 0.5rem; border: 1px solid #d1d5db;
  background: #fff; font: inherit; cursor: pointer; }}
.copy-link:hover {{ border-color: #2563eb; color: #2563eb; }}
.copy-status {{ display: block; min-height: 1.2em; font-size: 0.8rem; color: #15803d; margin-top: 0.2rem; }}
.copy-fallback {{ width: 100%; font: 0.8rem ui-monospace, monospace; padding: 0.3rem;
  border: 1px solid #d1d5db; border-radius: 0.4rem; }}
</style>
"""


def share_params(state: dict, settings: dict[str, object]) -> tuple[dict[str, object], str]:
    """The link's query parameters and a sentence on what it carries.

    Args:
        state: the session's state (``source``, ``text``).
        settings: every URL-bound setting and its value.
    """
    params, source = dict(settings), state.get("source", "sample")
    if source == "sample":
        return params, "The link carries every setting and the sample."
    params.pop("sample", None)  # the link must not pretend to show a sample the sender is not using
    text = state.get("text", "") if source == "paste" else ""
    if source == "paste" and 0 < len(text) <= MAX_LINK_TEXT:
        params["text"] = text
        return params, f"The link carries every setting and your pasted text ({len(text):,} characters)."
    why = (
        f"your pasted text is longer than {MAX_LINK_TEXT:,} characters"
        if source == "paste"
        else "an uploaded file never travels in a link"
    )
    return params, f"The link carries every setting but not the text: {why}. It opens with the lesson sample."


def apply_link_text() -> str | None:
    """Before the sidebar's widgets: a link's ``text`` becomes the pasted text (once); else why not."""
    if "text" not in st.query_params:
        return None
    text = st.query_params.get("text", "")
    del st.query_params["text"]  # applied once: editing the text later must not be undone by the URL
    if len(text) > MAX_LINK_TEXT:
        return f"The link's text has {len(text):,} characters; a link carries at most {MAX_LINK_TEXT:,}."
    if not text.strip():
        return "The link's text is empty."
    st.session_state.update(source="paste", text=text)
    return None


def copy_link_button(url: str, params: dict[str, object], note: str) -> None:
    """A button that copies the link to the clipboard (in the browser) and says what it carries."""
    link = url.split("?", 1)[0] + ("?" + urlencode(params) if params else "")
    st.html(_BUTTON.format(link=html.escape(link, quote=True)), unsafe_allow_javascript=True)
    st.caption(note)
