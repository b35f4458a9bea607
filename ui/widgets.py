"""Drawing helpers shared by the pages: set-up, token chips, diagrams, a step's header, tables,
heatmaps and download buttons. User text is always escaped before it is shown."""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pandas as pd
import streamlit as st
import torch

from core.text.tokenizer import token_strings
from core.views.charts import grid_frame, heatmap
from core.views.colors import TENSOR_COLORS
from core.views.describe import grid_description
from core.views.export import to_csv, to_npy
from core.views.markup import escape_markdown
from core.views.units import every, plural
from ui.presenter import readable
from ui.server import cache
from ui.theme import CODE_CSS

_CSS = """
<style>
.chips { max-height: 15rem; overflow-y: auto; line-height: 2.1;
         font-family: ui-monospace, monospace; font-size: 0.86rem; }
.chip { display: inline-block; border-radius: 6px; padding: 0 6px; margin: 0 3px 3px 0;
        border: 1px solid #d1d5db; white-space: pre; }
.chip sub { color: #4b5563; font-size: 0.72rem; margin-left: 3px; }
.chip.c0 { background: #dbeafe; } .chip.c1 { background: #fef3c7; }
.chip.c2 { background: #dcfce7; } .chip.c3 { background: #fce7f3; }
.chip.special { background: #1f2937; color: #f9fafb; }
/* Chips to pick a token from (ui.widgets.token_chips with a Pick): pills drawn as the chips above, each
   coloured by its rule in the block's own style; the followed one is outlined and bold too, not only
   coloured. */
[class*="st-key-chips-"] [data-testid="stButtonGroup"] [role="radiogroup"] {
  max-height: 15rem; overflow-y: auto; gap: 0 3px; padding: 4px 4px 4px 4px; }
[class*="st-key-chips-"] [role="radiogroup"] > button {
  min-height: 0; border-radius: 6px; padding: 0 6px; margin: 0 0 3px 0; border: 1px solid #d1d5db;
  background: #ffffff; line-height: 2; }
[class*="st-key-chips-"] [role="radiogroup"] > button p {
  font-family: ui-monospace, monospace; font-size: 0.86rem; white-space: pre; color: #111827; }
[class*="st-key-chips-"] [role="radiogroup"] > button p span {
  color: #4b5563; font-size: 0.72rem !important; }
[class*="st-key-chips-"] [role="radiogroup"] > button[aria-checked="true"] {
  outline: 3px solid #1e3a8a; outline-offset: 1px; }
[class*="st-key-chips-"] [role="radiogroup"] > button[aria-checked="true"] p { font-weight: 700; }
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
[class*="st-key-one-line-"] [data-testid="stTable"] td :is(div, p) { white-space: nowrap; }
/* A heading's link and a chart's toolbar show on hover only; focused, they show too (the toolbar where
   hover puts it, above the chart: Streamlit's own rule waits for focus on the toolbar itself, which
   only its buttons take). */
[data-testid="stHeaderActionElements"] a:focus-visible { opacity: 1 !important; transition: none !important; }
[data-testid="stElementToolbar"]:has(:focus-visible) {
  opacity: 1 !important; z-index: 1 !important; top: calc(-1 * (1.25rem + max(1.5rem, 24px))) !important;
}
</style>
"""


# A table wider than the screen (a phone) scrolls inside its box: the box then takes the keyboard's
# focus, so arrow keys scroll it, and is named for a screen reader; a table that fits takes no focus.
# After a page change the focus goes to the new page's title.
_SCRIPT = """
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
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; mark(); });
  };
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", soon);
  soon();
})();
// A chip to pick (ui.widgets.token_chips) is named for a screen reader by its token and position: the
// names come with the chips, in their block's hidden list, as a pill's own label shows only the piece.
(() => {
  if (window.__chipNames) return;
  window.__chipNames = true;
  const name = () => document.querySelectorAll(".chip-names").forEach((list) => {
    const block = list.closest('[class*="st-key-chips-"]');
    if (!block) return;
    const names = JSON.parse(list.dataset.names);
    block.querySelectorAll('[role="radiogroup"] > button').forEach((button, k) => {
      if (names[k] && button.getAttribute("aria-label") !== names[k]) {
        button.setAttribute("aria-label", names[k]);
      }
    });
    // The followed chip is scrolled into its box once (a link may follow token 5,000), not the page.
    const group = block.querySelector('[role="radiogroup"]');
    const picked = group && group.querySelector('button[aria-checked="true"]');
    const label = picked ? picked.getAttribute("aria-label") : "";
    if (picked && group.dataset.shown !== label) {
      group.dataset.shown = label;
      const above = picked.getBoundingClientRect().top - group.getBoundingClientRect().top + group.scrollTop;
      const below = above + picked.offsetHeight;
      if (above < group.scrollTop || below > group.scrollTop + group.clientHeight) {
        group.scrollTop = above - group.clientHeight / 2;
      }
    }
  });
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; name(); });
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  name();
})();
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


MAX_CHIPS = 240  # chips drawn at once: a pasted text of 10,000 lines must not become 10,000 DOM nodes
MAX_CHIP_CHARS = 40  # characters of one token's piece drawn at most (a piece is a few bytes of GPT-2's BPE)
CHIP_COLORS = ("#dbeafe", "#fef3c7", "#dcfce7", "#fce7f3")  # by ID mod 4: a token keeps its colour


def chips_note(shown: int, total: int) -> str | None:
    """The line under a row of chips that stops early ("First 240 of 5,000 tokens shown."), else None."""
    return f"First {shown:,} of {total:,} tokens shown." if total > shown else None


def _shown_piece(piece: str) -> str:
    """A token's piece as its chip shows it: cut to ``MAX_CHIP_CHARS``, · for a space, ↵ for a line break."""
    cut = piece[:MAX_CHIP_CHARS] + ("…" if len(piece) > MAX_CHIP_CHARS else "")
    return cut.replace("\n", "↵").replace(" ", "·")


@dataclass(frozen=True)
class Pick:
    """Chips a student picks a token from: the URL key that holds the picked token's place (0 for the
    first), the chips' label (what a pick does), and the URL keys of other chips a pick here replaces."""

    url_key: str
    label: str
    drops: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The pills' own key: the URL holds the token's place, the pills its chip."""
        return f"pick_{self.url_key}"


def token_chips(
    ids: list[int],
    vocab_size: int,
    special_id: int | None = None,
    name: str = "Token chips",
    pick: Pick | None = None,
) -> None:
    """A text's tokens as coloured chips with their IDs; every piece is escaped.

    Without ``pick`` the chips are a picture: the first ``MAX_CHIPS`` in a box that scrolls, takes the
    keyboard's focus and is a region named ``name`` and its count (unique on its page), with a note when
    not all are drawn. With ``pick`` each chip is a control that follows its token (``Pick``); a text
    longer than ``MAX_CHIPS`` tokens is drawn ``MAX_CHIPS`` at a time, with a list to choose which.
    """
    if pick is not None:
        _chips_to_pick(ids, vocab_size, special_id, pick)
        return
    shown = ids[:MAX_CHIPS]
    chips = []
    for piece, token_id in zip(token_strings(shown, vocab_size), shown, strict=True):
        cls = "special" if token_id == special_id else f"c{token_id % 4}"
        chips.append(
            f'<span class="chip {cls}">{html.escape(_shown_piece(piece))}<sub>{token_id}</sub></span>'
        )
    total = len(ids)
    count = plural(total, "token") if total == len(chips) else f"the first {len(chips):,} of {total:,} tokens"
    label = html.escape(f"{name}: {count}", quote=True)
    st.html(f'<div class="chips" tabindex="0" role="region" aria-label="{label}">{"".join(chips)}</div>')
    if note := chips_note(len(chips), total):
        st.caption(note)


_DASHES = re.compile(r"([-.])(?=[-.])")  # "--" and "..." that Markdown would turn into "—" and "…"


def chip_label(piece: str, token_id: int) -> str:
    """A token as a pill (a chip to pick) labels it: the piece as a chip shows it, then its ID; escaped, as
    pills read Markdown, and "--" kept two hyphens (a zero-width space between them), as the chips and
    the drawings show it."""
    shown = _DASHES.sub("\\1\u200b", _shown_piece(piece))
    return f"{escape_markdown(shown)} :small[{token_id}]"


_INVISIBLE = "\u200b\u200c\u200d\u2060"  # zero-width characters: four digits that draw nothing


def unique_labels(labels: list[str], places: range) -> list[str]:
    """``labels`` with a repeated one told apart: Streamlit sends a picked pill as its label's text, so a
    second chip of the same token would pick the first; it gets its place spelled in zero-width digits."""
    seen: set[str] = set()
    out = []
    for label, place in zip(labels, places, strict=True):
        if label in seen:
            digits = ""
            while True:
                place, digit = divmod(place, 4)
                digits = _INVISIBLE[digit] + digits
                if not place:
                    break
            label += _INVISIBLE[0] + digits
        seen.add(label)
        out.append(label)
    return out


def chip_name(piece: str, token_id: int, place: int) -> str:
    """A chip's name for a screen reader: its token, quoted, its position and its ID."""
    return f"{piece!r}, position {place:,}, ID {token_id:,}"


def picked_place(url_key: str, count: int) -> int | None:
    """The place the URL's ``url_key`` holds, when it is one of the ``count`` tokens (else None)."""
    text = st.query_params.get(url_key)
    return int(text) if text is not None and 0 <= int(text) < count else None


def _picked(pick: Pick) -> None:
    """The pills' callback: the picked chip's place goes into the URL (the places of the chips it replaces
    leave it, and those chips are unpicked); none (a second click) takes it out."""
    place = st.session_state.get(pick.key)
    for other in pick.drops:
        st.query_params.pop(other, None)
        st.session_state[Pick(other, "").key] = None
    if place is None:
        st.query_params.pop(pick.url_key, None)
    else:
        st.query_params[pick.url_key] = str(place)


def _page(pick: Pick, total: int, want: int | None) -> int:
    """Which ``MAX_CHIPS`` tokens a long text's chips show (their list's own key): the followed token's when
    a link or a pick has just set it, else the list's choice."""
    pages = -(-total // MAX_CHIPS)
    key, seen = f"{pick.key}_page", f"{pick.key}_seen"
    if want is not None and st.session_state.get(seen) != want:  # a link opened, or a chip picked
        st.session_state[key] = want // MAX_CHIPS
    st.session_state[seen] = want
    if not 0 <= st.session_state.get(key, 0) < pages:  # a shorter text than the one the list was for
        st.session_state[key] = 0
    if pages == 1:
        return 0
    last = total - 1
    return st.selectbox(
        f"Tokens shown ({MAX_CHIPS} at a time; the text has {total:,})",
        range(pages),
        format_func=lambda k: f"tokens {k * MAX_CHIPS:,} to {min(last, (k + 1) * MAX_CHIPS - 1):,}",
        key=key,
    )


def _chips_to_pick(ids: list[int], vocab_size: int, special_id: int | None, pick: Pick) -> None:
    """``token_chips``' chips to pick: one pills widget for the tokens shown, so a long text is one widget."""
    want = picked_place(pick.url_key, len(ids))
    with st.container(key=f"chips-{pick.url_key}"):
        start = _page(pick, len(ids), want) * MAX_CHIPS
        shown = ids[start : start + MAX_CHIPS]
        pieces = token_strings(shown, vocab_size)
        places = range(start, start + len(shown))
        if st.session_state.get(pick.key) != (want if want in places else None):  # a link, or the URL's drop
            st.session_state[pick.key] = want if want in places else None
        block = f".st-key-chips-{pick.url_key} [role='radiogroup'] > button"
        rules = []
        for color, k in [(c, k) for k, c in enumerate(CHIP_COLORS)] + [("#1f2937", "special")]:
            nth = [f":nth-child({j + 1})" for j, t in enumerate(shown) if _kind(t, special_id) == k]
            if nth:
                rules.append(f"{block}:is({', '.join(nth)}) {{ background: {color}; }}")
        if special_id in shown:  # the dark chip's text is light, picked or not
            nth = ", ".join(f":nth-child({j + 1})" for j, t in enumerate(shown) if t == special_id)
            rules.append(f"{block}:is({nth}) :is(p, span) {{ color: #f9fafb !important; }}")
        names = [chip_name(p, t, k) for p, t, k in zip(pieces, shown, places, strict=True)]
        listed = html.escape(json.dumps(names), quote=True)
        hidden = f'<span class="chip-names no-room" hidden data-names="{listed}"></span>'
        st.html(f"<style>{''.join(rules)}</style>{hidden}")
        labels = unique_labels([chip_label(p, t) for p, t in zip(pieces, shown, strict=True)], places)
        st.pills(
            pick.label,
            places,
            selection_mode="single",
            format_func=lambda k: labels[k - start],
            key=pick.key,
            on_change=_picked,
            args=(pick,),
        )


def _kind(token_id: int, special_id: int | None) -> int | str:
    """A chip's colour: "special" for ``<|endoftext|>``, else its ID mod 4."""
    return "special" if token_id == special_id else token_id % 4


def picture(svg: str) -> None:
    """A diagram from ``core.views.diagrams``, drawn as an image; its accessible label becomes the alt
    text."""
    label = svg.split('aria-label="', 1)[1].split('"', 1)[0]
    st.image(svg, alt=html.unescape(label), width="content")


def grid_table(ids: torch.Tensor) -> pd.DataFrame:
    """A [B, T] block of token IDs with its axes named: rows b=…, columns t=…."""
    return pd.DataFrame(
        ids.numpy(),
        index=[f"b={b}" for b in range(ids.shape[0])],
        columns=[f"t={t}" for t in range(ids.shape[1])],
    )


def token_text(piece: str) -> str:
    """A token as a table shows it: quoted, so its leading space shows (' cat'), and escaped."""
    return escape_markdown(repr(piece))


MARK = "▶ "  # a marked row's label starts with it: the followed token's rows are not marked by colour alone
MARKED_ROW = {"background-color": "#fef08a", "font-weight": "700"}


def table(
    frame: pd.DataFrame,
    formats: str | dict[str, str] | None = None,
    hide_index: bool = False,
    one_line: str | None = None,
    marked: set[int] | None = None,
    marked_cells: set[tuple[int, int]] | None = None,
) -> None:
    """A small table as HTML, numbers shown with ``formats`` (one format, or a format per column).

    ``one_line``: a key of its own for a table whose cells are short phrases, kept on one line each (its
    headers still wrap), so that it stays short on a projector. ``marked``: rows (by place) drawn bold on
    yellow; ``marked_cells``: cells (row, column by place) drawn so, with ``MARK`` before their value.

    HTML rather than a data grid: a screen reader reads it as the table it is, it wraps to a projector's
    type, and the browser draws it with the page (a grid draws on a canvas, then updates its copy for
    screen readers a fifth of a second later, on every change).
    """
    # Streamlit draws each cell and row label as Markdown, the labels from the frame itself (a Styler's
    # index format is not sent): row labels (a token's piece among them) are escaped in the frame, read.
    escaped = lambda label: escape_markdown(label) if isinstance(label, str) else label  # noqa: E731
    frame = frame.set_axis(pd.Index([escaped(label) for label in frame.index], dtype=object), axis=0)
    if marked_cells:  # a column with a marked cell becomes text (Arrow takes no column of mixed types)
        frame = frame.copy()
        for c in {c for _, c in marked_cells}:
            frame.isetitem(c, frame.iloc[:, c].astype(str))
        for r, c in marked_cells:
            frame.iat[r, c] = MARK + frame.iat[r, c]
    data = frame.style.format(formats, na_rep="")
    if marked_cells:
        css = "; ".join(f"{k}: {v}" for k, v in MARKED_ROW.items())
        styles = pd.DataFrame("", index=frame.index, columns=frame.columns)
        for r, c in marked_cells:
            styles.iat[r, c] = css
        data = data.apply(lambda _: styles, axis=None)
    if rows := [frame.index[k] for k in sorted(marked or ()) if k < len(frame)]:  # a row past the table: none
        data = data.set_properties(subset=pd.IndexSlice[rows, :], **MARKED_ROW)
    if one_line is None:
        st.table(data, hide_index=hide_index)
        return
    with st.container(key=f"one-line-{one_line}"):
        st.table(data, hide_index=hide_index)


def values_table(
    values: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
    labels: list[str] | None = None,
    marked: set[int] | None = None,
) -> None:
    """A [P, D] block of real values, rows labelled by position (or ``labels``).

    Shown to 4 decimals, as torch prints them; the cell's tooltip and a copy hold the full float.
    ``marked``: rows (by place) of the followed token, labelled with ``MARK`` and drawn bold on yellow
    (places past the block are left out: the block is a corner of a larger tensor).
    """
    columns = [f"d{int(j)}" for j in dims]
    index = labels or [f"t={int(t)}" for t in positions]
    index = [MARK + label if k in (marked or ()) else label for k, label in enumerate(index)]
    # Labels as plain objects: pandas' Arrow-backed str labels are converted back to objects for every
    # lookup while the frame is converted for sending.
    frame = pd.DataFrame(
        values.double().numpy(), index=pd.Index(index, dtype=object), columns=pd.Index(columns, dtype=object)
    )
    table(frame, "{:.4f}", marked=marked)


def sampled_note(total_positions: int, total_dims: int, positions: torch.Tensor, dims: torch.Tensor) -> str:
    """Says what a heatmap shows when it is downsampled (every k-th position / dimension)."""
    if len(positions) == total_positions and len(dims) == total_dims:
        return f"All {total_positions:,} × {total_dims:,} values."
    step_t = int(positions[1] - positions[0]) if len(positions) > 1 else 1
    step_d = int(dims[1] - dims[0]) if len(dims) > 1 else 1
    return (
        f"Downsampled for drawing: {every(step_t, total_positions, 'positions')} and "
        f"{every(step_d, total_dims, 'dimensions')}; every cell is a real value, none averaged."
    )


def heatmap_view(
    values: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
    title: str,
    total: tuple[int, int],
    marked: set[int] | frozenset[int] = frozenset(),
) -> None:
    """A position × dimension heatmap of real values [P, D] with a downsampling note.

    A title that names one of the lesson's tensors has a bar of its colour (``TENSOR_COLORS``) above the plot.
    ``marked``: the followed token's positions t, outlined where the heatmap draws them.
    """
    frame = grid_frame(values, positions, dims, "position t", "dimension j")
    color = TENSOR_COLORS.get(title.split("[")[0], (None, None))[1]
    note = sampled_note(total[0], total[1], positions, dims)
    rows = tuple(t for t in positions.tolist() if t in marked)
    said = f"{grid_description(title, frame, 'dimension j', 'position t')} {note}"  # a screen reader's
    if rows:
        said += f" The followed token's row{'s' * (len(rows) > 1)} t = {', '.join(map(str, rows))}: outlined."
    chart = cache.chart(
        heatmap, frame, "dimension j", "position t", title, accent=color, description=said, marked=rows
    )
    st.altair_chart(readable(chart), width="stretch")
    missed = sorted(set(marked) - set(rows))
    if missed:
        at, falls = ", ".join(f"{t:,}" for t in missed), "falls" if len(missed) == 1 else "fall"
        note += f" The followed token's t = {at} {falls} between the rows drawn."
    elif rows:
        note += f" The followed token's {'row is' if len(rows) == 1 else 'rows are'} outlined in black."
    st.caption(note)


def tensor_downloads(
    name: str,
    tensor: torch.Tensor | Callable[[], torch.Tensor],
    axes: tuple[str, ...],
    note: str = "",
    labels: tuple[list[int], list[int]] | None = None,
) -> None:
    """Two buttons, CSV and .npy, for ``tensor`` saved as ``name`` (``labels``: a grid's real indices).

    ``tensor`` may be a function that makes it: a button's file is built when clicked, and until then the
    session keeps what the function needs, not the tensor (a first batch at B 128, T 8192 is 8 MB a
    session; thirty sessions' would not fit the server's memory).
    """
    make = tensor if callable(tensor) else partial(_same, tensor)
    c1, c2, c3 = st.columns([1, 1, 4])
    c1.download_button(
        "CSV",
        partial(_csv_of, make, axes, labels),  # built when clicked, not on every rerun
        f"{name}.csv",
        "text/csv",
        key=f"dl_{name}_csv",
        help=f"Download {name}.csv",
        on_click="ignore",
        icon=":material/download:",
    )
    c2.download_button(
        ".npy",
        partial(_npy_of, make),
        f"{name}.npy",
        "application/octet-stream",
        key=f"dl_{name}_npy",
        help=f"Download {name}.npy (NumPy)",
        on_click="ignore",
        icon=":material/download:",
    )
    if note:
        c3.caption(note)


def _same(tensor: torch.Tensor) -> torch.Tensor:
    return tensor


def _csv_of(make: Callable[[], torch.Tensor], axes: tuple[str, ...], labels) -> bytes:
    return to_csv(make(), axes, labels)


def _npy_of(make: Callable[[], torch.Tensor]) -> bytes:
    return to_npy(make())
