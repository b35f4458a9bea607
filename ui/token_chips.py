"""A text's tokens as coloured chips with their IDs: a picture, or pills to pick one token to follow
(its place bound to the URL). Every piece is escaped."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

import streamlit as st

from core.text.tokenizer import token_strings
from core.views.markup import escape_markdown
from core.views.units import plural

# The chips' style, in every page's style (ui.page_setup): a chip to pick is coloured by its own rule.
CHIPS_CSS = """\
.chips { max-height: 15rem; overflow-y: auto; line-height: 2.1;
         font-family: ui-monospace, monospace; font-size: 0.86rem; }
.chip { display: inline-block; border-radius: 6px; padding: 0 6px; margin: 0 3px 3px 0;
        border: 1px solid #d1d5db; white-space: pre; }
.chip sub { color: #4b5563; font-size: 0.72rem; margin-left: 3px; }
.chip.c0 { background: #dbeafe; } .chip.c1 { background: #fef3c7; }
.chip.c2 { background: #dcfce7; } .chip.c3 { background: #fce7f3; }
.chip.special { background: #1f2937; color: #f9fafb; }
/* Chips to pick a token from (ui.token_chips.token_chips with a Pick): pills drawn as the chips above, each
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
"""

CHIPS_SCRIPT = """\
// A chip to pick (ui.token_chips.token_chips) is named for a screen reader by its token and position: the
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
"""


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
    # The leading space, which Markdown drops, makes the label's first word empty: Streamlit then skips
    # looking for an emoji icon there, a regex of every emoji (~0.08 ms a chip, 200 chips a run).
    return f" {escape_markdown(shown)} :small[{token_id}]"


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
