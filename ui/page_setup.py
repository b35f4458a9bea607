"""Every page's set-up: its config and icon, and the style and scripts shared by every page (a focus
ring, tables that scroll on a phone, the focus on a new page's title)."""

from __future__ import annotations

import base64
from pathlib import Path

import streamlit as st

from ui.theme import CODE_CSS
from ui.token_chips import CHIPS_CSS, CHIPS_SCRIPT

_CSS = (
    "\n<style>\n"
    + CHIPS_CSS
    + """\
/* A selected pill's text: Streamlit's blue on its pale blue is 4.48:1; this one is 7.6:1. */
[data-testid="stButtonGroup"] button[aria-checked="true"] :is(p, span) { color: #1e40af; }
/* The diagrams (core.views.diagrams, drawn with st.image) fill a phone's width; wider screens keep
   their size. */
@media (max-width: 640px) { [data-testid="stImage"] img { width: 100% !important; height: auto !important; } }
/* A collapsed sidebar is only moved off screen: hidden, its controls leave the tab order and the
   screen reader's page (and come back when it opens). Every descendant too: a widget's label sets its
   own visibility. No delay for the slide-out: the style may arrive after the sidebar has collapsed. */
[data-testid="stSidebar"][data-collapsed="true"]
  :is([data-testid="stSidebarContent"], [data-testid="stSidebarContent"] *) { visibility: hidden !important; }
/* One keyboard focus ring for every control: 2 px of dark blue, 2 px off the control, drawn on what
   surrounds it (6.7:1 on white, 6.3:1 on the sidebar). Where the focused input is hidden (a radio
   button, a switch) or borderless (a list, a text or number box), the ring goes round what is drawn. */
:is(a, button, summary, [tabindex]):not(input, textarea):focus-visible,
label:has(> span > input:is([type="radio"], [type="checkbox"]):focus-visible),
:is([data-testid="stTextInputRootElement"], [data-testid="stTextAreaRootElement"],
    [data-testid="stNumberInputContainer"], [data-testid="stSelectbox"] [role="group"]):has(
    :is(input, textarea):focus-visible) {
  outline: 2px solid #1d4ed8 !important; outline-offset: 2px !important; box-shadow: none !important;
}
[data-testid="stMain"]:focus-visible { outline-offset: -2px !important; }  /* the page itself */
/* An HTML block that draws nothing (this style and its script, a link's note while hidden) takes no
   room: the page does not move when the note's block comes or goes. */
[data-testid="stElementContainer"]:has(.no-room, .dropped-url[hidden]) { display: none; }
[data-testid="stLayoutWrapper"]:has(> [data-testid="stVerticalBlock"] > [data-testid="stElementContainer"]
  .dropped-url[hidden]):not(:has([data-testid="stAlert"])) { display: none; }
/* A chart's description, written from its numbers (ui/charts.py): read by a screen reader right after
   the chart, not drawn, and taking no room. */
[data-testid="stElementContainer"]:has(.chart-said) {
  position: absolute !important; width: 1px !important; min-width: 0 !important; height: 1px !important;
  padding: 0 !important;
  border: 0 !important; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
}
[class*="st-key-one-line-"] [data-testid="stTable"] td :is(div, p) { white-space: nowrap; }
/* A Pipeline step's line of code (ui/pipeline/step.py): a code box, wrapped. */
pre.code-line { margin: 0 0 1rem; padding: 0.75rem 1rem; border-radius: 0.5rem; background: #f4f3f1;
  color: #141312; font-size: 0.875rem; white-space: pre-wrap; overflow-wrap: anywhere; }
/* A strip of layers, pairs or a head's numbers (ui/todays_models/views.py): a cell each, its letter
   and number dark on a light fill (at least 4.5:1), 16 px as a back row reads them. */
.strip { display: flex; flex-wrap: wrap; gap: 2px; margin: 0.25rem 0; }
.strip-cell { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  min-width: 1.75rem; padding: 1px 2px; border: 1px solid #6b7280; border-radius: 3px; color: #111827;
  font-size: 16px; line-height: 1.15; font-weight: 600; }
.strip-cell small { font-size: 16px; font-weight: 400; }
.strip-part { flex-direction: row; flex-wrap: nowrap; gap: 0.35rem; padding: 0.25rem 0.5rem; }
.strip-legend { color: #374151; font-size: 16px; margin: 0 0 0.75rem; }
/* Wrapped code breaks a word longer than a phone's line too (a file's hash): nothing to scroll sideways. */
[data-testid="stCode"] code { overflow-wrap: anywhere; }
/* A table's row or cell that starts with ▶ is the followed one (ui/tables.py, marked by the script below). */
[data-testid="stTable"] :is(tr[data-marked] > *, td[data-marked]) {
  background-color: #fef08a; font-weight: 700;
}
/* A heading's link and a chart's toolbar show on hover only; focused, they show too (the toolbar where
   hover puts it, above the chart: Streamlit's own rule waits for focus on the toolbar itself, which
   only its buttons take). */
[data-testid="stHeaderActionElements"] a:focus-visible { opacity: 1 !important; transition: none !important; }
[data-testid="stElementToolbar"]:has(:focus-visible) {
  opacity: 1 !important; z-index: 1 !important; top: calc(-1 * (1.25rem + max(1.5rem, 24px))) !important;
}
</style>
"""
)


# A table wider than the screen (a phone) scrolls inside its box: the box then takes the keyboard's
# focus, so arrow keys scroll it, and is named for a screen reader; a table that fits takes no focus.
# After a page change the focus goes to the new page's title.
_SCRIPT = (
    """
<span class="no-room" hidden></span>
<script>
(() => {
  if (window.__wideTables) return;
  window.__wideTables = true;
  const mark = () => document.querySelectorAll('[data-testid="stTable"] > div').forEach((box, k) => {
    const wide = box.scrollWidth > box.clientWidth + 1;
    if (wide) {
      const heads = [...box.querySelectorAll("thead th")].map((th) => th.textContent.trim()).filter(Boolean);
      const name = `Table ${k + 1} (${heads.slice(0, 3).join(", ")}, …), scrolls sideways`;
      if (box.getAttribute("aria-label") !== name) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", name);
      }
    } else if (!wide && box.hasAttribute("tabindex")) {
      ["tabindex", "role", "aria-label"].forEach((name) => box.removeAttribute(name));
    }
  });
  // A row whose first cell starts with ▶ is marked whole; another cell that does, alone.
  const follow = () => document.querySelectorAll('[data-testid="stTable"] tbody tr').forEach((tr) => {
    [...tr.children].forEach((cell, k) => {
      const on = cell.textContent.trimStart().startsWith("\u25b6");
      const target = k === 0 ? tr : cell;
      if (target.hasAttribute("data-marked") !== on) target.toggleAttribute("data-marked", on);
    });
  });
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; mark(); follow(); });
  };
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", soon);
  soon();
})();
"""
    + CHIPS_SCRIPT
    + """\
// After a page change (a click or Enter on a page link), the focus goes to the new page's title: else
// it stays on the sidebar's link, and the next Tab and Enter open another page. The first page a
// browser opens keeps the focus at the top, where the skip link is.
(() => {
  if (window.__pageFocus) return;
  window.__pageFocus = true;
  let path = location.pathname, due = false, old = "";
  const title = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const h1 = document.querySelector('[data-testid="stMain"] h1');
    const done = app && app.dataset.testScriptState === "notRunning";
    return done && h1 && !h1.closest('[data-stale="true"]') ? h1 : null;
  };
  // The sidebar's link to the page shown leads nowhere new: it is marked as the current page for a screen
  // reader and takes no Tab stop (it stays visible and clickable), one stop fewer before every page.
  const here = (a) => new URL(a.getAttribute("href") || "./", location.href).pathname.replace(/[/]$/, "")
    === location.pathname.replace(/[/]$/, "");
  const links = '[data-testid="stSidebar"] a[data-testid="stPageLink-NavLink"]';
  const markHere = () => document.querySelectorAll(links).forEach((a) => {
    if (here(a) === (a.getAttribute("aria-current") === "page")) return;
    if (here(a)) { a.setAttribute("aria-current", "page"); a.tabIndex = -1; }
    else { a.removeAttribute("aria-current"); a.removeAttribute("tabindex"); }
  });
  const check = () => {
    markHere();
    if (location.pathname !== path) { path = location.pathname; due = true; }
    const h1 = title();
    if (!due) { old = h1 ? h1.textContent : old; return; }  // the shown page's title, until a change
    if (!h1 || h1.textContent === old) return;  // the old page's title is still there
    due = false;
    old = h1.textContent;
    h1.tabIndex = -1;  // focusable by script, no Tab stop of its own
    h1.focus({ preventScroll: true });
  };
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; check(); });
  };
  new MutationObserver(soon).observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["data-test-script-state"],
  });
})();
</script>
"""
)


_ICON = base64.b64encode(Path(__file__).with_name("favicon.png").read_bytes()).decode()
# The app's own icon, inline: a page icon named ":material/…" makes the browser fetch its SVG from
# fonts.gstatic.com, and a classroom may have no network; a file's path is read and re-encoded by
# Streamlit on every run, a data URL is passed on as it is.
FAVICON = "data:image/png;base64," + _ICON


def page_setup(title: str, sidebar_collapsed: bool = False) -> None:
    """First call of every page: page config and the shared style (presenting: sidebar collapsed)."""
    st.set_page_config(
        page_title=f"{title} · Positional Embeddings Explorer",
        page_icon=FAVICON,
        layout="wide",
        initial_sidebar_state="collapsed" if sidebar_collapsed else "auto",
    )
    st.html(_CSS + CODE_CSS + _SCRIPT, unsafe_allow_javascript=True)
