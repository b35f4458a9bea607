"""Presenter mode (URL ``present=true``): large type, one section at a time, predict then reveal.

The switch sits first in the shared sidebar and is bound to the URL, so it stays on through page
switches and reloads. Every page splits itself into ``Slides``, each of which fits a 1280 × 720 projector
(``tests/e2e/test_presenter_fit.py`` measures every one); a clicker's keys press Reveal, Previous and
Next, and the URL names the slide shown (``slide``), so a copied link reopens it. A prediction box hides
a shape or a number until the class has guessed it; Next on an unrevealed prediction reveals it first,
and a later slide of the same prediction (reached by a link) shows its content, never the question again.
"""

from __future__ import annotations

from collections.abc import Callable

import altair as alt
import streamlit as st

from core.pipeline import Step
from core.prediction import example_shape, number_problem, parse_number, parse_shape, shape_problem
from core.views.chart_specs import unvalidated
from core.views.markup import escape_markdown
from core.views.units import human_bytes, human_count, shape_str
from ui.state.url_keys import register_shown_keys

PRESENT = "present"  # the switch's widget key and URL parameter
SLIDE = "slide"  # URL parameter, presenting: the slide shown, "3" or "3.2" (section 3, its second part)
_AT = "_slides_at"  # session key: each page's slide (its URL path -> the slide's URL text)
_PATH = "_slides_path"  # session key: the URL path of the page this run draws
_ASKED = "_asked"  # session key: the prediction whose box the last run drew (Next reveals it first)
register_shown_keys(SLIDE)
SCREEN_HEIGHT = 720  # px: the projector a section must fit (1280 × 720)
LEAST_FONT = 16  # px: the smallest text of a chart that a back row reads on that projector
_CSS = """
<style>
html { font-size: 135%; }
[data-testid="stMainBlockContainer"] { padding-top: 4.5rem; padding-bottom: 1rem; }
h1 { font-size: 1.75rem !important; padding: 0 0 0.3rem !important; }
h3 { padding-top: 0.2rem !important; padding-bottom: 0.4rem !important; }
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.6rem; }
[data-testid="stMetricValue"] { font-size: 2.6rem; }
/* A verdict is one line: half the box's padding leaves its slide the room of a map's rows. */
[data-testid="stAlertContainer"] { padding-top: 0.5rem; padding-bottom: 0.5rem; }
/* No heading links on a slide (Copy link names the slide): Next is a few Tabs from the top. */
[data-testid="stHeaderActionElements"] { display: none; }
[data-testid="stTable"] table { font-size: 1rem; }
[data-testid="stTable"] th, [data-testid="stTable"] td { padding-top: 0.15rem; padding-bottom: 0.15rem; }
/* A token chip's ID (ui.token_chips.token_chips): 0.72rem would be 15.6 px, under a back row's 16 (more
   specific than the chips' own rule, which may come later). */
.chips .chip sub { font-size: 0.75rem; }
/* On a wide screen the title shares the header's row: the header's buttons sit in its corners. */
@media (min-width: 900px) {
  [data-testid="stMainBlockContainer"] { padding-top: 1rem; }
  [data-testid="stHeader"] { background: transparent; pointer-events: none; }
  [data-testid="stHeader"] button, [data-testid="stHeader"] a { pointer-events: auto; }
}
</style>
"""

# A presentation clicker sends ArrowRight / PageDown / Space (next) and ArrowLeft / PageUp (back): a
# forward key presses Reveal while a prediction is on screen, else Next; a back key presses Previous
# (each found by its key's class), except where the key is the focused control's own: typing a
# prediction, choosing in a list, Space on a button. Enter in a prediction's box presses its Reveal on
# keyup, after Streamlit's own handler has taken the guess on the key's earlier events.
# Reveal removes its own button, and the focus would fall to the page's body: once the run it starts
# has ended, the focus goes to what took the prediction's place, its verdict (or the first thing
# revealed), so the clicker's next key, a keyboard or a screen reader lands on the answer. Turning
# presenting off scrolls the long page to the heading of the section that was on the slide, again for
# a second while the charts drawn above it move it. Bound once per page load.
_KEYS = """
<script>
(() => {
  if (window.presenterKeys) return;
  window.presenterKeys = true;
  const app = () => document.querySelector("[data-testid=stApp]");
  const idle = () => app()?.dataset.testScriptState === "notRunning"
    && !document.querySelector("[data-testid=stSkeleton], [data-stale=true]");
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element
      ? event.target.closest('[class*="st-key-reveal_"] button') : null;
    if (!button) return;
    const key = [...button.closest('[class*="st-key-reveal_"]').classList]
      .find((c) => c.startsWith("st-key-reveal_"));
    const main = document.querySelector("[data-testid=stMain]");
    const path = [];  // child indexes from the page down to the prediction's row
    let row = button.closest("[data-testid=stHorizontalBlock]") || button;
    while (row.parentElement && !row.parentElement.matches("[data-testid=stVerticalBlock]")) {
      row = row.parentElement;
    }
    for (let node = row; node && node !== main; node = node.parentElement) {
      path.unshift([...node.parentElement.children].indexOf(node));
    }
    const slide = () => document.querySelector("[data-testid=stProgress]")?.textContent;
    const shown = slide(), started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > 60000) return clearInterval(timer);
      if (document.querySelector("." + CSS.escape(key)) || app().dataset.testScriptState !== "notRunning") {
        return;
      }
      clearInterval(timer);
      if (slide() !== shown) return;  // moved on meanwhile: the slot is another slide's
      const slot = path.reduce((node, k) => node && node.children[k], main);
      if (!slot) return;
      const target = slot.querySelector("[role=alert], [role=status]") || slot;  // a success is a status
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus();
    }, 100);
  });
  document.addEventListener("click", (event) => {  // leaving presenter mode: open at the slide's section
    const toggle = event.target instanceof Element ? event.target.closest(".st-key-present") : null;
    if (!toggle || !document.querySelector("[data-testid=stProgress]")) return;
    const text = document.querySelector("[data-testid=stMain] h3")?.textContent.trim();
    if (!text) return;  // a section without a heading is the page's top
    const started = Date.now();
    let scrolled = 0;
    const timer = setInterval(() => {  // the heading may be drawn a moment after the run has ended
      if (Date.now() - started > 15000) return clearInterval(timer);
      if (document.querySelector("[data-testid=stProgress]") || !idle()) return;
      const target = [...document.querySelectorAll("[data-testid=stMain] h3")]
        .find((h) => h.textContent.trim() === text);
      if (!target) return;
      target.scrollIntoView({block: "start"});
      if (++scrolled >= 10) clearInterval(timer);
    }, 100);
  }, true);  // capturing: the switch's own handler stops the click there
  const FORWARD = ["ArrowRight", "PageDown", " "], BACK = ["ArrowLeft", "PageUp"];
  const OWN = "input, textarea, select, [contenteditable]:not([contenteditable=false]), " +
    "[role=combobox], [role=listbox], [role=slider], [role=radiogroup], [role=tablist], [role=menu]";
  const PRESSABLE = "button, a, summary, label, [role=button], [role=switch], [role=checkbox]";
  const BOX = '[class*="st-key-predict_"] input';
  let entered = null;  // the prediction box Enter went down in
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      const target = event.target instanceof Element ? event.target : null;
      entered = target && !event.isComposing ? target.closest(BOX) : null;
      return;
    }
    const forward = FORWARD.includes(event.key);
    if (!forward && !BACK.includes(event.key)) return;
    if (event.repeat || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey
        || event.shiftKey) return;
    const focus = event.target instanceof Element ? event.target : null;
    if (focus && (focus.closest(OWN) || (event.key === " " && focus.closest(PRESSABLE)))) return;
    const reveal = forward && document.querySelector('[class*="st-key-reveal_"] button');
    const button = reveal
      || document.querySelector(`[class*="st-key-${forward ? "next" : "prev"}_"] button`);
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });
  document.addEventListener("keyup", (event) => {
    if (event.key !== "Enter" || !entered || event.target !== entered) return;
    const box = [...entered.closest('[class*="st-key-predict_"]').classList]
      .find((c) => c.startsWith("st-key-predict_"));
    entered = null;
    const reveal = "." + CSS.escape(box.replace("st-key-predict_", "st-key-reveal_")) + " button";
    document.querySelector(reveal)?.click();
  });
})();
</script>
"""


PRESENT_HOW = (  # the Start page's sentence (Markdown): how a teacher presents
    "**To present**, turn on **Presenter mode** at the top of the sidebar: one section at a time in large "
    "type, the class predicting each answer first; a clicker's → (or Page Down, Space) reveals the answer "
    "and moves on, ← goes back, and a link with `?present=true` opens a page already presenting."
)


def presenter_toggle(bound: dict) -> None:
    """The sidebar switch, bound to the URL parameter ``present`` (``bound``: its key and binding)."""
    if st.query_params.get(PRESENT) == "1":  # links written before the switch was bound say present=1
        st.query_params[PRESENT] = "true"
        st.session_state[PRESENT] = True
    st.toggle("Presenter mode", **bound)
    # Under the switch, not behind a "?" button: a Tab stop of its own before every page (ui.settings).
    st.caption("Large type for a projector, one section at a time, and a prediction before each answer.")


def presenting() -> bool:
    """True while presenter mode is on (the URL says ``present=true``)."""
    return bool(st.session_state.get(PRESENT)) or st.query_params.get(PRESENT) in ("1", "true")


def presenter_style() -> None:
    """Large type for a projector and the clicker's keys, when presenting."""
    if presenting():
        # In the sidebar, not on the slide, where an element with a script takes room.
        st.sidebar.html(_CSS + _KEYS, unsafe_allow_javascript=True)


def readable(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """``chart`` with labels a back row can read when presenting, ready to draw (every chart passes here).

    Drawing skips Altair's schema validation: ``core.views.chart_specs.unvalidated``.
    """
    if presenting():  # every text of the chart at least LEAST_FONT px (a builder sets none smaller)
        chart = (
            chart.configure_axis(labelFontSize=17, titleFontSize=18)
            .configure_title(fontSize=18, subtitleFontSize=LEAST_FONT)  # Families: 3 panel titles a row
            .configure_legend(labelFontSize=LEAST_FONT, titleFontSize=17)
            .configure_header(labelFontSize=LEAST_FONT, titleFontSize=17)
            .configure_text(fontSize=LEAST_FONT)  # text marks: a rule's label
            # Drawn at a given height, a chart puts its title ~10 px above its own top, where it is cut off.
            .properties(padding={"top": 14, "right": 5, "bottom": 5, "left": 5})
        )
    return unvalidated(chart)


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


def slide_height(height: int, normal: int | str = "content") -> int | str:
    """A chart's ``height`` for ``st.altair_chart``: ``height`` px when presenting (sized for the
    projector's screen), else ``normal``."""
    return height if presenting() else normal


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
        st.session_state.pop(_ASKED, None)  # the last run's box: this run's, if any, says so again
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

        Next on a slide whose prediction box is drawn (``ask``) reveals it and stays: a clicker's next
        key then moves on, and no later slide asks the same question.

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
            asked = st.session_state.get(_ASKED)  # the box the run before this callback drew
            if by > 0 and asked is not None and not revealed(asked):
                _reveal(asked)
            else:
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


def _reveal(key: str) -> None:
    """Reveal's callback (and Next's, on an unrevealed prediction): the answer may be shown, and the guess
    is kept for the verdict (the box, no longer drawn, loses its own value). A second press, from a
    clicker pressed twice, keeps the first guess."""
    if st.session_state.get(f"revealed_{key}"):
        return
    st.session_state[f"revealed_{key}"] = True
    st.session_state[f"guess_{key}"] = st.session_state.get(f"predict_{key}", "")


def revealed(key: str) -> bool:
    """Whether prediction ``key`` has been revealed (or passed by a link) in this session."""
    return bool(st.session_state.get(f"revealed_{key}"))


def after_prediction(key: str) -> bool:
    """A later slide of prediction ``key``'s section: True, its content is shown.

    Next reveals a prediction before it moves on, so only a link (or a reload) lands here unrevealed:
    the class arrived with nothing to predict, so the prediction counts as passed, without a guess and
    so without a verdict, and no slide asks it again.
    """
    if not revealed(key):
        st.session_state[f"revealed_{key}"] = True
        st.session_state[f"guess_{key}"] = None
    return True


def guess(key: str) -> str | None:
    """What was typed in prediction ``key``'s box when it was revealed (or so far); None when it was
    passed by a link (nothing was asked)."""
    return st.session_state.get(f"guess_{key}", st.session_state.get(f"predict_{key}", ""))


NO_GUESS = "No guess was typed."  # the verdict's start for a prediction revealed with an empty box


def ask(key: str, question: str, problem: Callable[[str], str | None] | None = None) -> bool:
    """A prediction box and a Reveal button until revealed; True once the answer may be shown.

    Call it with the same ``key`` and ``question`` on every section that would show the answer. ``problem``
    says what it cannot read in a guess (plain text, escaped here), shown under the box as it is typed.
    """
    if revealed(key):
        return True
    st.session_state[_ASKED] = key  # Next's callback, in the next run, reveals it before moving on
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    typed = c1.text_input(question, key=f"predict_{key}")
    c2.button(
        "Reveal",
        key=f"reveal_{key}",
        type="primary",
        width="stretch",
        on_click=_reveal,
        args=(key,),
    )
    if problem is not None and (message := problem(typed)):
        st.warning(escape_markdown(message))
    return False


def shape_question(name: str, shape: tuple[int, ...]) -> str:
    """The question before a shape: how to write one, with an example that is not ``shape``."""
    example = example_shape(shape)
    return f"Predict the shape of {name} (for example {example} or [{example.replace(' × ', ', ')}])"


def predict_shape(key: str, name: str, shape: tuple[int, ...]) -> bool:
    """Ask for the shape of ``name`` before showing it; True once revealed (then says how the guess did).

    The verdict repeats the shape read from the guess, never the typed text itself; a guess it cannot
    read gets what it could not read and an example.
    """
    if not ask(key, shape_question(name, shape), lambda text: shape_problem(text, shape)):
        return False
    typed = guess(key)
    if typed is None:  # passed by a link: nothing to say about a guess
        return True
    read = parse_shape(typed)
    if not typed.strip():
        st.info(f"{NO_GUESS} The tensor is {shape_str(shape)}.")
    elif read == shape:
        st.success(f"Right: {shape_str(shape)}.")
    elif read is not None:
        st.warning(f"You predicted {shape_str(read)}; the tensor is {shape_str(shape)}.")
    elif message := shape_problem(typed, shape):
        st.warning(f"{escape_markdown(message)} The tensor is {shape_str(shape)}.")
    return True


def predict_number(
    key: str, question: str, answer: float, tolerance: float, digits: int = 0, unit: str = ""
) -> bool:
    """Ask for a number before showing it; True once revealed (then says how close the guess was, or what
    it could not read). The verdict writes the answer with ``digits`` decimals, as the page shows it
    (0: a count, "29"), then ``unit`` if given ("29 pairs": the answer as a slide would state it)."""
    if not ask(key, question, number_problem):
        return False
    typed, shown = guess(key), f"{answer:,.{digits}f}" + (f" {unit}" if unit else "")
    if typed is None:  # passed by a link: nothing to say about a guess
        return True
    read = parse_number(typed)
    if not typed.strip():
        st.info(f"{NO_GUESS} The answer is {shown}.")
    elif read is not None:
        close = abs(read - answer) <= tolerance
        (st.success if close else st.warning)(
            f"You predicted {read:g}; the answer is {shown}" + (" — right!" if close else ".")
        )
    elif message := number_problem(typed):
        st.warning(f"{escape_markdown(message)} The answer is {shown}.")
    return True


def predict_token(key: str, question: str, answer: str) -> bool:
    """Ask for a token before showing it; True once revealed (then says whether the guess was it).

    A guess is right when it is the token's text, ignoring quotes, surrounding spaces and case; the
    verdict quotes the answer, never the typed text.
    """
    if not ask(key, question):
        return False
    if (typed := guess(key)) is None:  # passed by a link: nothing to say about a guess
        return True
    typed, shown = typed.strip().strip("'\"").strip().casefold(), escape_markdown(repr(answer))
    if not typed:
        st.info(f"{NO_GUESS} The answer is {shown}.")
    else:
        right = typed == answer.strip().casefold()
        (st.success if right else st.warning)(f"Right: {shown}." if right else f"The answer is {shown}.")
    return True


def step_header(number: int, step: Step) -> None:
    """A step's title, its line of code and its shape, parameters and bytes."""
    st.subheader(f"{number}. {step.title}")
    st.code(step.code, language="python", wrap_lines=True)
    step_metrics(step)


def step_metrics(step: Step) -> None:
    """A step's shape, parameters and bytes."""
    c1, c2, c3 = st.columns(3)
    c1.metric(f"`{step.name}` shape", shape_str(step.shape), help=f"Each number is stored as {step.dtype}.")
    c2.metric("Parameters", human_count(step.params), help=f"{step.params:,} trainable values")
    c3.metric(step.memory_label, human_bytes(step.nbytes), help=step.memory_help or f"{step.nbytes:,} bytes")


def step(number: int, info: Step, slides: Slides, lead: str = "") -> bool:
    """Draw a pipeline step's header; True when its body should be drawn too.

    Presenting, only the current step is drawn, and its shape is hidden behind a prediction: its first
    part shows ``lead`` (Markdown: what the class needs to see before it predicts), asks for the shape,
    shows the code and, once revealed, the shape; its later parts (``slides.at``) hold its body, reached
    once the prediction is revealed (or passed by a link).
    """
    if not slides.shows(number):
        return False
    if not slides.on:
        step_header(number, info)
        return True
    st.subheader(f"{number}. {info.title}")
    name = f"`{info.name}`"
    if slides.part > 0:
        return after_prediction(str(number))
    if lead:
        st.markdown(lead)
    shown = predict_shape(str(number), name, info.shape)
    st.code(info.code, language="python", wrap_lines=True)
    if shown:
        step_metrics(info)
        if info.nbytes == 0 and info.memory_help:  # 0 B needs its reason on the slide, not in a tooltip
            st.caption(info.memory_help)
    return shown and len(slides.parts[number - 1]) == 1
