"""A page's slides while presenting: one section (or one part of it) at a time, with Previous / Next
above it, and the slide shown named in the URL (``slide``), so a copied link reopens it."""

from __future__ import annotations

import streamlit as st

from ui.predict import forget_asked, reveal_asked
from ui.presenter import presenting
from ui.state.url_keys import register_shown_keys

SLIDE = "slide"  # URL parameter, presenting: the slide shown, "3" or "3.2" (section 3, its second part)
_AT = "_slides_at"  # session key: each page's slide (its URL path -> the slide's URL text)
_PATH = "_slides_path"  # session key: the URL path of the page this run draws
register_shown_keys(SLIDE)


def slide_url(path: str) -> None:
    """Before Copy link (which reads the address bar): the URL's slide is page ``path``'s.

    Not presenting, the URL has none. Presenting, a page shown before in this session gets back its
    slide; a slide left in the URL by another page is dropped; a link's slide stays for ``Slides``.
    """
    at, before = st.session_state.setdefault(_AT, {}), st.session_state.get(_PATH)
    st.session_state[_PATH] = path
    if not presenting():
        _drop_slide()
    elif path in at:
        _write_slide(at[path])
    elif before is not None and before != path:
        _drop_slide()


def _write_slide(text: str) -> None:
    if st.query_params.get(SLIDE) != text:
        st.query_params[SLIDE] = text


def _drop_slide() -> None:
    if SLIDE in st.query_params:
        del st.query_params[SLIDE]


Section = str | tuple[str, list[str]]  # a title, or a title and the names of its parts


class Slides:
    """A page's sections; presenting, only one is drawn, with Previous / Next above it.

    A section too tall for the projector names its parts: presenting, each part is a slide of its own
    (``at``), so every slide fits the screen; otherwise every part of every section is drawn, in order.
    """

    def __init__(self, page: str, sections: list[Section]):
        self.page, self.on = page, presenting()
        self.parts = [[""] if isinstance(s, str) else s[1] for s in sections]
        self.titles = [s if isinstance(s, str) else s[0] for s in sections]
        self.slides = [(n, k) for n, parts in enumerate(self.parts, 1) for k in range(len(parts))]
        forget_asked()  # the last run's box: this run's, if any, says so again
        if not self.on:
            _drop_slide()
        self.section, self.part = self._nav() if self.on else (0, None)

    def title(self, index: int) -> str:
        """Slide ``index``'s title (0-based): its section's, and its part's name when it has one."""
        number, k = self.slides[index]
        part = self.parts[number - 1][k]
        return f"{self.titles[number - 1]} — {part}" if part else self.titles[number - 1]

    def _nav(self) -> tuple[int, int]:
        """Previous / Next and where they are; the section (1-based) and its part (0-based) drawn.

        Next on a slide whose prediction box is drawn (``ui.predict.ask``) reveals it and stays: a
        clicker's next key then moves on, and no later slide asks the same question.

        The section is kept under ``slide_<page>`` and its part under ``part_<page>``, and in the URL
        (``slide``: "3", or "3.2" for its second part), from which a page not shown before in the
        session starts: a copied link opens on the slide it was copied at.
        """
        key, part_key, total = f"slide_{self.page}", f"part_{self.page}", len(self.slides)
        if key not in st.session_state and (text := st.query_params.get(SLIDE)):  # checked: "3" or "3.2"
            number, _, part = text.partition(".")
            st.session_state[key], st.session_state[part_key] = int(number), int(part or 1) - 1

        def index() -> int:  # the slide the session is at (0-based), clamped to this run's slides
            number = min(max(st.session_state.get(key, 1), 1), len(self.parts))
            k = min(max(st.session_state.get(part_key, 0), 0), len(self.parts[number - 1]) - 1)
            return self.slides.index((number, k))

        def go(i: int) -> None:
            number, k = self.slides[min(max(i, 0), total - 1)]
            st.session_state[key], st.session_state[part_key] = number, k
            text = f"{number}.{k + 1}" if len(self.parts[number - 1]) > 1 else str(number)
            st.session_state.setdefault(_AT, {})[st.session_state.get(_PATH, "")] = text
            _write_slide(text)

        current = index()
        go(current)

        def move(by: int) -> None:  # a callback: the section changes before the page is drawn again
            if not (by > 0 and reveal_asked()):  # Next on an unrevealed box reveals it and stays
                go(index() + by)

        c1, c2, c3 = st.columns([1, 2, 1], vertical_alignment="center")
        c1.button(
            "◀ Previous",
            key=f"prev_{self.page}",
            disabled=current <= 0,
            width="stretch",
            on_click=move,
            args=(-1,),
        )
        c3.button(
            "Next ▶",
            key=f"next_{self.page}",
            disabled=current >= total - 1,
            width="stretch",
            on_click=move,
            args=(1,),
        )
        c2.progress((current + 1) / total, text=f"Section {current + 1} of {total}: {self.title(current)}")
        return self.slides[current]

    def shows(self, number: int) -> bool:
        """Whether section ``number`` (1-based) is drawn in this run."""
        return not self.on or number == self.section

    def at(self, part: int) -> bool:
        """Within the section drawn, whether its part ``part`` (0-based) is drawn: every part when not
        presenting."""
        return not self.on or part == self.part
