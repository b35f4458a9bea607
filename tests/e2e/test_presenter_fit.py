"""Presenter mode on a 1280 × 720 projector, in Chromium, every deck walked once by a clicker's → alone
(``walk``): every section fits the screen with readable charts, axe finds nothing serious on it, → reveals
each prediction before it moves on, no answer is on its slide or an earlier one before its Reveal, and ←
goes back a slide.

A section is what ``shared/tools/shoot`` measures for a ``present=true`` path: the height of the app's
scrolling container (``stAppScrollToBottomContainer``, else ``stMain``) while that section is shown. Each
is measured as it opens and again after its Reveal, if it has one. Readable: every chart is large enough,
every text of a chart drawn as SVG is at least ``LEAST_FONT`` px as the browser computes it and whole (not
cut to "…" nor past the chart's edge), and every chart's spec (the only way to read a chart drawn on a
canvas) sets no text smaller; no table is cut off at the right. Every drawn diagram's text (an SVG picture
as it is scaled on screen, a token chip) is at least ``LEAST_FONT`` px too; no two axis labels of a chart
overlap; an axis of tokens (an attention map's keys) labels every token. On each section, its answer
shown, axe finds nothing serious (``tests.e2e.axe``).

The walk reads each slide as the class sees it when it opens (the main area's words, metrics included,
and its charts' texts and descriptions) and, at each Reveal, the answer as its verdict states it ("No
guess was typed. The answer is 29 pairs."); the tests below read that one walk.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import problems
from tests.e2e.conftest import settled
from tests.e2e.focus import UNSEEN_JS, tabs_to_next_from_the_top
from ui.presenter import LEAST_FONT, SCREEN_HEIGHT

SCREEN = {"width": 1280, "height": SCREEN_HEIGHT}
MIN_CHART = (240, 150)  # px: the smallest chart a back row can read (Attention's small multiples: 250 wide)
# Every page, by its URL path: the one place to change when the pages move.
PIPELINE = "Pipeline"
PAGES = [
    PIPELINE,
    "Why_position",
    "Attention",
    "Families",
    "Long_context",
    "Todays_models",
    "Training",
    "Trained_positions",
    "Glossary",
]
DECKS = [*PAGES, "Attention?method=alibi"]  # ALiBi's question is a number its key fact could give away

_SECTION_JS = r"""(least) => {
  const c = document.querySelector('[data-testid="stAppScrollToBottomContainer"]')
    || document.querySelector('[data-testid="stMain"]');
  const charts = [...document.querySelectorAll('.vega-embed')].map(e => {
    const d = e.querySelector('canvas, svg'); const b = d ? d.getBoundingClientRect() : {width: 0, height: 0};
    return [Math.round(b.width), Math.round(b.height)];
  });
  const small = [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg text')]
    .filter(t => t.textContent.trim() && parseFloat(getComputedStyle(t).fontSize) < least)
    .map(t => `"${t.textContent.trim().slice(0, 40)}" at ${getComputedStyle(t).fontSize}`);
  // A table scrolls itself; a data grid scrolls inside (Glide's .dvn-scroller).
  const cut = [...document.querySelectorAll('[data-testid=stTable], [data-testid=stDataFrame]')]
    .filter(e => {
      const s = e.querySelector('.dvn-scroller') || e;
      return s.scrollWidth > s.clientWidth + 4;
    })
    .map(e => e.dataset.testid);
  // Cut: by Vega at its limit ("…"), or by the chart's edge (a text's box is a few px taller than its
  // letters, as wide as them).
  const clipped = [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg text')].filter(t => {
    const b = t.getBoundingClientRect(), s = t.ownerSVGElement.getBoundingClientRect();
    return t.textContent.trim().endsWith('…') || (b.width > 0 && (b.left < s.left - 1 || b.right > s.right + 1
      || b.top < s.top - 4 || b.bottom > s.bottom + 4));
  }).map(t => t.textContent.trim());
  // A diagram drawn as an image (core.views.diagrams: an SVG in a data URL) scales its text with it: each
  // text's font size times the image's drawn width over its own. A diagram drawn as HTML: computed sizes.
  const diagrams = [];
  const tooSmall = (text, size) => {
    const shown = text.trim().slice(0, 40);
    if (shown && size < least - 0.01) diagrams.push(`"${shown}" at ${size.toFixed(1)}px`);
  };
  for (const img of document.querySelectorAll('[data-testid=stMain] [data-testid=stImage] img')) {
    const [head, data] = (img.getAttribute('src') || '').split(',', 2);
    if (!head.startsWith('data:image/svg+xml')) continue;
    const bytes = head.endsWith(';base64') ? Uint8Array.from(atob(data), ch => ch.charCodeAt(0)) : null;
    const text = bytes ? new TextDecoder().decode(bytes) : decodeURIComponent(data);
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    const scale = img.getBoundingClientRect().width / Number(svg.getAttribute('viewBox').split(/[ ,]+/)[2]);
    for (const t of svg.querySelectorAll('text')) {
      tooSmall(t.textContent, Number(t.closest('[font-size]')?.getAttribute('font-size') || 16) * scale);
    }
  }
  for (const block of document.querySelectorAll('[data-testid=stMain] [data-testid=stHtml]')) {
    const walk = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      const e = node.parentElement;
      if (e.closest('style, script') || !e.getClientRects().length) continue;
      tooSmall(node.textContent, parseFloat(getComputedStyle(e).fontSize));
    }
  }
  // A chart's axis labels: no two drawn ones overlap (each box in the labels' own turned frame, so that
  // labels at an angle are not taken for their upright boxes), and an axis of tokens ("3:·cat", an
  // attention map's keys and queries) labels every one (Vega hides a label it has no room for).
  const overlapping = [], unlabelled = [];
  const drawn = t => t.textContent.trim() && getComputedStyle(t).opacity !== '0'
    && t.getAttribute('opacity') !== '0';
  const box = t => {  // the label's box, turned upright: [left, right, top, bottom]
    const m = t.getScreenCTM(), b = t.getBBox(), turn = -Math.atan2(m.b, m.a);
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
      .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m))
      .map(p => [p.x * Math.cos(turn) - p.y * Math.sin(turn), p.x * Math.sin(turn) + p.y * Math.cos(turn)]);
    const xs = corners.map(p => p[0]), ys = corners.map(p => p[1]);
    return [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  };
  document.querySelectorAll('[data-testid=stVegaLiteChart] svg').forEach((svg, k) => {
    for (const axis of svg.querySelectorAll('g.role-axis')) {
      const all = [...axis.querySelectorAll('.role-axis-label text')];
      const labels = all.filter(drawn).map(t => [t.textContent.trim(), box(t)]);
      labels.forEach(([a, [l1, r1, t1, b1]], i) => labels.slice(i + 1).forEach(([b, [l2, r2, t2, b2]]) => {
        const w = Math.min(r1, r2) - Math.max(l1, l2), h = Math.min(b1, b2) - Math.max(t1, t2);
        const by = `${w.toFixed(0)} × ${h.toFixed(0)} px`;
        if (w > 1 && h > 1) overlapping.push(`chart ${k + 1}: "${a}" and "${b}" (${by})`);
      }));
      const keys = all.map(t => t.textContent.trim().match(/^(\d+):/)).filter(Boolean).map(m => Number(m[1]));
      if (keys.length && keys.length === all.length && labels.length !== Math.max(...keys) + 1) {
        unlabelled.push(`chart ${k + 1}: ${labels.length} labels for ${Math.max(...keys) + 1} tokens`);
      }
    }
  });
  return {height: c.scrollHeight, charts, small, cut, clipped, diagrams, overlapping, unlabelled};
}"""
# Where a chart's spec sets the size of a text (in its config: every kind of text the charts draw).
_CONFIGURED = {
    "axis": ("labelFontSize", "titleFontSize"),
    "legend": ("labelFontSize", "titleFontSize"),
    "title": ("fontSize", "subtitleFontSize"),
    "header": ("labelFontSize", "titleFontSize"),
    "text": ("fontSize",),  # text marks
}
# Drawn: the script has run, nothing is stale or loading, every chart has drawn and Vega has sized it.
_DRAWN_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app && app.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-testid=stSkeleton], [data-stale=true]')
    && [...document.querySelectorAll('.vega-embed')].every(e => {
         const d = e.querySelector('canvas, svg'); return d && d.getBoundingClientRect().width > 0; });
}"""


@pytest.fixture
def projector(tabs):
    page = tabs.new_page(SCREEN)
    yield page
    page.close()


class ChartSpecs:
    """Every chart spec the server sends ``page`` (from its websocket): make it before the page's ``goto``."""

    def __init__(self, page) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self._message, self.specs = ForwardMsg, []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        if isinstance(payload, str):
            return
        message = self._message.FromString(payload)
        if message.WhichOneof("type") != "delta" or message.delta.WhichOneof("type") != "new_element":
            return
        element = message.delta.new_element
        if element.WhichOneof("type") == "vega_lite_chart":
            self.specs.append(json.loads(element.vega_lite_chart.spec))

    def small_text(self) -> list[str]:
        """What the specs received so far leave under ``LEAST_FONT`` px (then forgets them)."""
        found = []
        for spec in self.specs:
            config = spec.get("config", {})
            title = json.dumps(spec.get("title") or spec.get("layer", [{}])[0].get("title"))[:60]
            found += [
                f"chart {title}: config.{part}.{key} is {config.get(part, {}).get(key)}"
                for part, keys in _CONFIGURED.items()
                for key in keys
                if config.get(part, {}).get(key, 0) < LEAST_FONT
            ]
            found += [f"chart {title}: {where}" for where in _set_smaller(spec, "")]
        self.specs.clear()
        return found


def _set_smaller(value, where: str) -> list[str]:
    """Every font size under ``LEAST_FONT`` that a spec sets anywhere (its data left out)."""
    if isinstance(value, list):
        return [found for k, item in enumerate(value) for found in _set_smaller(item, f"{where}[{k}]")]
    if not isinstance(value, dict):
        return []
    found = []
    for key, item in value.items():
        if key in ("data", "datasets"):
            continue
        if key.lower().endswith("fontsize") and isinstance(item, int | float) and item < LEAST_FONT:
            found.append(f"{where}.{key} is {item}")
        found += _set_smaller(item, f"{where}.{key}")
    return found


def drawn(page) -> None:
    """Wait until the section is drawn (see _DRAWN_JS), then two frames for Vega to size its charts."""
    page.wait_for_function(_DRAWN_JS, timeout=90_000)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def section_title(page) -> str:
    """The progress line above the section: "Section k of n: title"."""
    return page.get_by_test_id("stProgress").inner_text().strip()


def misfits(page, where: str, specs: ChartSpecs | None = None) -> list[str]:
    """What does not fit the projector in the section shown: its height, charts too small to read, chart
    and diagram text under ``LEAST_FONT`` px (drawn, and in the specs received), tables cut off at the
    right, axis labels that overlap and tokens an axis leaves unlabelled."""
    drawn(page)
    shown = page.evaluate(_SECTION_JS, LEAST_FONT)
    found = []
    if shown["height"] > SCREEN_HEIGHT:
        found.append(f"{where}: {shown['height']} px tall")
    for width, height in shown["charts"]:
        if width < MIN_CHART[0] or height < MIN_CHART[1]:
            found.append(f"{where}: a chart of {width} × {height} px")
    found += [f"{where}: chart text {text}" for text in shown["small"]]
    found += [f"{where}: {table} cut off at the right" for table in shown["cut"]]
    found += [f"{where}: chart text cut to “{text}”" for text in shown["clipped"]]
    found += [f"{where}: diagram text {text}" for text in shown["diagrams"]]
    found += [f"{where}: axis labels overlap, {pair}" for pair in shown["overlapping"]]
    found += [f"{where}: tokens left unlabelled, {axis}" for axis in shown["unlabelled"]]
    found += [f"{where}: {text}" for text in (specs.small_text() if specs else [])]
    return found


_RUN_DONE_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app && app.dataset.testScriptState === 'notRunning' && !document.querySelector('[data-stale=true]');
}"""


def next_section(page) -> bool:
    """Go to the next section (Next reveals a prediction still asked first: then it is pressed twice);
    False at the last one."""
    button = page.get_by_role("button", name="Next ▶")
    if button.is_disabled():
        return False
    before = section_title(page)
    reveal = page.get_by_role("button", name="Reveal")
    if reveal.count():
        button.click()
        expect(reveal).to_have_count(0, timeout=60_000)
        page.wait_for_function(_RUN_DONE_JS, timeout=60_000)
        expect(page.get_by_test_id("stProgress")).to_have_text(before)  # revealed, not moved
    button.click()
    expect(page.get_by_test_id("stProgress")).not_to_have_text(before, timeout=60_000)
    # The title changes mid-run; a box typed into before the run ends can be the last section's.
    page.wait_for_function(_RUN_DONE_JS, timeout=60_000)
    return True


def every_section(
    page, shots, name: str, specs: ChartSpecs | None = None, axe: bool = False
) -> tuple[list[str], list[str]]:
    """Visit every section of the page open in ``page``, revealing each answer; its titles and misfits
    (and, with ``axe``, what ``tests.e2e.axe`` finds on each section once its answer is shown)."""
    titles, found = [], []
    while True:
        title = section_title(page)
        titles.append(title)
        found += misfits(page, title, specs)
        number = re.match(r"Section (\d+)", title).group(1)
        page.screenshot(path=str(shots / f"presenter_{name}_{number}.png"))
        reveal = page.get_by_role("button", name="Reveal")
        if reveal.count():
            reveal.click()
            expect(reveal).to_have_count(0, timeout=60_000)
            found += misfits(page, f"{title}, revealed", specs)
            page.screenshot(path=str(shots / f"presenter_{name}_{number}_revealed.png"))
        if axe:
            where = f"{name} presenting, slide {number}"
            found += problems(page, where, f"{where} ({title})")
        if not next_section(page):
            return titles, found


# With nothing typed, a verdict states the answer alone: what the walk reads at each Reveal.
VERDICT = re.compile(r"No guess was typed\. The (?:answer|tensor) is (.+)\.$")
# The slide's words as the class sees them: the main area's text and its charts' texts and descriptions.
_SHOWN_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const charts = [...main.querySelectorAll('.vega-embed, .vega-embed [aria-label], svg text')]
    .map(e => [e.getAttribute('aria-label') || '', e.tagName === 'text' ? e.textContent : ''].join(' '));
  return [main.innerText, ...charts].join('\\n');
}"""


@dataclass
class Walk:
    """A deck walked by → alone (← once, from its second slide)."""

    shown: list[tuple[str, str]] = field(default_factory=list)  # each slide's title and words as it opened
    answers: list[tuple[int, str]] = field(default_factory=list)  # (the slide that asked, its answer)
    found: list[str] = field(default_factory=list)  # what does not fit, and axe's findings
    tabs_to_next: list[dict] = field(default_factory=list)  # each Tab's stop, from the top to Next
    unseen: list[str] = field(default_factory=list)  # controls Tab reaches that have no visible box
    back: str = ""  # the title ← showed from the second slide
    last: str = ""  # the last slide's title
    next_disabled: bool = False  # Next, on the last slide
    exceptions: int = 0


_WALKS: dict[tuple[str, str], Walk] = {}


def _press(page, key: str, title: str) -> str:
    """Press ``key`` on the slide ``title``: the title of the slide it moves to, once settled."""
    progress = page.get_by_test_id("stProgress")
    page.keyboard.press(key)
    expect(progress).not_to_have_text(title, timeout=60_000)
    settled(page)
    return section_title(page)


def _reveal(page, title: str, seen: Walk) -> None:
    """→ on a slide that asks: its Reveal goes, the slide stays, and its verdict states the answer."""
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("button", name="Reveal")).to_have_count(0, timeout=60_000)
    settled(page)
    expect(page.get_by_test_id("stProgress")).to_have_text(title)  # revealed, not moved on
    verdict = page.get_by_test_id("stAlertContentInfo").filter(has_text="No guess was typed.")
    expect(verdict).to_have_count(1)
    said = VERDICT.search(verdict.inner_text().strip())
    assert said, verdict.inner_text()
    seen.answers.append((len(seen.shown) - 1, said.group(1)))


def walk(server: str, tabs, deck: str, shots) -> Walk:
    """Walk ``deck`` (a path, with its own parameters) presenting, by → alone, measuring every slide
    (``misfits``; axe on the pages' own decks), once per server."""
    if (server, deck) in _WALKS:
        return _WALKS[(server, deck)]
    page = tabs.new_page(SCREEN)
    specs = ChartSpecs(page)
    page.goto(f"{server}/{deck}{'&' if '?' in deck else '?'}present=true")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of", timeout=90_000)
    settled(page, 90_000)
    seen = Walk(tabs_to_next=tabs_to_next_from_the_top(page), unseen=page.evaluate(UNSEEN_JS))  # (it blurs)
    if deck == "Training":  # its later sections show a finished run: train one first
        page.get_by_role("button", name="Train", exact=True).click()
        expect(page.get_by_text("Validation loss")).to_be_visible(timeout=240_000)
        page.evaluate("() => document.activeElement.blur()")  # the keys go to the deck, not the button
    settled(page, 90_000)
    name = re.sub(r"\W+", "_", deck.replace("?method=", "_"))
    total = int(re.match(r"Section 1 of (\d+)", section_title(page)).group(1))
    for _ in range(2 * total):  # a slide takes two presses at most: reveal, then move on
        title = section_title(page)
        number = re.match(r"Section (\d+)", title).group(1)
        seen.shown.append((title, page.evaluate(_SHOWN_JS)))
        seen.found += misfits(page, title, specs)
        page.screenshot(path=str(shots / f"presenter_{name}_{number}.png"))
        if page.get_by_role("button", name="Reveal").count():
            _reveal(page, title, seen)
            seen.found += misfits(page, f"{title}, revealed", specs)
            page.screenshot(path=str(shots / f"presenter_{name}_{number}_revealed.png"))
        if deck in PAGES:
            where = f"{name} presenting, slide {number}"
            seen.found += problems(page, where, f"{where} ({title})")
        if page.get_by_role("button", name="Next ▶").is_disabled():
            break
        moved = _press(page, "ArrowRight", title)
        if number == "1":  # ← goes back a slide; → then comes again (the answer stays revealed)
            seen.back = _press(page, "ArrowLeft", moved)
            _press(page, "ArrowRight", seen.back)
    seen.last = section_title(page)
    seen.next_disabled = page.get_by_role("button", name="Next ▶").is_disabled()
    seen.exceptions = page.get_by_test_id("stException").count()
    page.close()
    _WALKS[(server, deck)] = seen
    return seen


@pytest.mark.parametrize("deck", PAGES)
def test_every_section_fits_a_projector_and_passes_axe(server, tabs, deck, shots):
    seen = walk(server, tabs, deck, shots)
    assert seen.found == [], "\n".join(seen.found)
    assert seen.exceptions == 0


@pytest.mark.parametrize("deck", DECKS)
def test_arrow_right_alone_reveals_every_prediction_and_reaches_the_last_slide(server, tabs, deck, shots):
    seen = walk(server, tabs, deck, shots)
    total = int(re.match(r"Section 1 of (\d+)", seen.shown[0][0]).group(1))
    assert total > 1 and seen.next_disabled and seen.last.startswith(f"Section {total} of {total}")
    numbers = [int(re.match(r"Section (\d+)", title).group(1)) for title, _ in seen.shown]
    assert numbers == list(range(1, total + 1))  # every slide once, in order: none skipped
    prompts = [title for title, text in seen.shown if "Predict" in text or "Reveal" in text]
    assert len(prompts) == len(seen.answers)  # every question revealed by the key, none asked twice
    if deck.startswith(
        ("Pipeline", "Why_position", "Attention", "Long_context", "Todays", "Trained_positions")
    ):
        assert seen.answers  # these decks ask the class something


@pytest.mark.parametrize("deck", PAGES)
def test_next_is_a_few_tabs_from_the_top_and_only_what_is_seen_takes_the_focus(server, tabs, deck, shots):
    """On the first slide, where Previous is disabled; the collapsed sidebar takes none of those Tabs."""
    seen = walk(server, tabs, deck, shots)
    assert seen.tabs_to_next[-1]["next"] and not [f for f in seen.tabs_to_next if f["sidebar"]]
    assert seen.unseen == []


@pytest.mark.parametrize("deck", DECKS)
def test_arrow_left_goes_back_a_slide(server, tabs, deck, shots):
    seen = walk(server, tabs, deck, shots)
    assert seen.back == seen.shown[0][0]  # from the second slide to the first


def _stated(answer: str) -> re.Pattern:
    """``answer`` as a slide would write it, and not as part of a longer number or shape ("4 × 256" is
    not in "8 × 4 × 256", "29 pairs" is not in "129 pairs")."""
    return re.compile(rf"(?<![\w.,×])(?<!× ){re.escape(answer)}(?![\w×])(?! ×)(?![.,]\d)")


@pytest.mark.parametrize("deck", DECKS)
def test_no_answer_is_shown_before_its_reveal(server, tabs, deck, shots):
    seen = walk(server, tabs, deck, shots)
    found, checked, earlier = [], 0, set()
    for asked, answer in seen.answers:
        # A one-character number ("t = 1") or a yes / no is in too many sentences to look for; an answer
        # revealed already (the Pipeline's 8 × 4 × 256, three times) may be on the slides since.
        if len(answer.strip("'")) < 2 or answer.strip("'").lower() in ("yes", "no") or answer in earlier:
            earlier.add(answer)
            continue
        checked += 1
        pattern = _stated(answer)
        found += [
            f"{answer} on “{title}”, before its Reveal on “{seen.shown[asked][0]}”"
            for title, text in seen.shown[: asked + 1]
            if pattern.search(text)
        ]
        earlier.add(answer)
    assert found == [], "\n".join(found)
    if deck.startswith(
        ("Pipeline", "Why_position", "Long_context", "Todays", "Trained_positions", "Attention?")
    ):
        assert checked  # at least one answer could be looked for


@pytest.mark.parametrize("method", ["nope", "sinusoidal", "shaw", "t5", "alibi", "rope"])
def test_every_close_up_fits_a_projector(server, projector, method, shots):
    """The Families close-up differs per method (learned is the default, measured above)."""
    page = projector
    specs = ChartSpecs(page)
    page.goto(f"{server}/Families?present=true&method={method}")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of", timeout=90_000)
    while "Close-up" not in section_title(page):
        assert next_section(page)
    specs.specs.clear()  # the sections before the close-up are measured above
    titles, found = every_section(page, shots, f"Families_{method}", specs)
    assert found == [], "\n".join(found)
    assert all("Close-up" in title for title in titles)


def test_why_position_asks_about_a_named_token_and_hides_the_answer(server, projector):
    page = projector
    page.goto(f"{server}/Why_position?present=true")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of 5: Two sentences", timeout=90_000)
    next_section(page)
    question = page.get_by_text(re.compile(r"^Predict the cosine of"))
    expect(question).to_contain_text("' cat' in A (position 1) and ' cat' in B (position 4)")
    drawn(page)
    main = page.get_by_test_id("stMain")
    for answer in ("1.000000", "0.483638"):  # without and with positions
        expect(main).not_to_contain_text(answer)
    assert page.get_by_test_id("stTable").count() == 0
    box = page.get_by_role("textbox", name=re.compile("Predict the cosine"))
    box.fill("about one")
    box.press("Tab")  # the guess is taken, not revealed (Enter would reveal)
    message = page.get_by_test_id("stAlertContentWarning")
    expect(message).to_contain_text("Could not read “about one” as a number", timeout=30_000)
    expect(message).to_contain_text("for example 0.5")
    expect(main).not_to_contain_text("1.000000")  # feedback on the guess, not the answer
    box.fill("0.9")
    box.press("Tab")
    expect(message).to_have_count(0, timeout=30_000)
    page.get_by_role("button", name="Reveal").click()
    values = page.get_by_test_id("stMetricValue")
    expect(values.first).to_have_text("1.000000", timeout=30_000)
    expect(values.nth(1)).to_have_text("0.483638")
    expect(page.get_by_test_id("stAlertContentWarning")).to_contain_text("You predicted 0.9")


def test_a_shape_it_cannot_read_gets_what_and_an_example(server, projector, shots):
    page = projector
    page.goto(f"{server}/{PIPELINE}?present=true")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of", timeout=90_000)
    while "Token embedding lookup" not in section_title(page):
        next_section(page)
    box = page.get_by_role("textbox", name=re.compile("Predict the shape of `token_embeddings`"))
    box.fill("8 by 4 by 256")
    box.press("Tab")  # taken, not revealed
    message = page.get_by_test_id("stAlertContentWarning")
    expect(message).to_contain_text("Could not read “by” as a size", timeout=30_000)
    expect(message).to_contain_text("for example 2 × 3 × 5")
    assert page.get_by_test_id("stMetricValue").count() == 0  # nothing revealed by the feedback
    page.screenshot(path=str(shots / "presenter_unreadable_guess.png"))
    page.get_by_role("button", name="Reveal").click()
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("8 × 4 × 256", timeout=30_000)
    expect(message).to_contain_text("The tensor is 8 × 4 × 256.")


@pytest.mark.parametrize("slide", ["2.2", "2.3", "3.2", "3.3", "4.2", "4.3", "5.2", "5.3", "6.2", "7"])
def test_a_followed_tokens_marks_still_fit_a_projector(server, projector, slide):
    page = projector
    page.goto(f"{server}/{PIPELINE}?present=true&slide={slide}&token=5")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section", timeout=90_000)
    if "." not in slide:  # a later slide of a step opens as linked; the last slide asks its own question
        page.get_by_role("button", name="Reveal").click()
        expect(page.get_by_role("button", name="Reveal")).to_have_count(0, timeout=60_000)
    assert misfits(page, f"slide {slide} with token 5") == []


@pytest.mark.parametrize("path", ["Why_position", "Attention"])
def test_a_followed_sentence_token_still_fits_a_projector(server, projector, path, shots):
    page = projector
    page.goto(f"{server}/{path}?present=true&token_a=1")
    expect(page.get_by_test_id("stProgress")).to_contain_text("Section 1 of", timeout=90_000)
    titles, found = every_section(page, shots, f"{path}_token_a", ChartSpecs(page))
    assert found == [], "\n".join(found)
    assert len(titles) > 1
