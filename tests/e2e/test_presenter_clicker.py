"""A class run from a clicker alone, in Chromium: on every deck, → alone reveals each prediction
(its Reveal appears, then is gone and the answer is shown), then moves on, to the last slide; and no
prediction's answer is on its slide or an earlier one before its Reveal.

Each deck is walked once, by the keyboard only, and read as it goes: the text of every slide as it opens
(the main area's words, metrics included, and its charts' texts and descriptions) and, at each Reveal, the
answer as its verdict states it ("No guess was typed. The answer is 29 pairs."). Both tests read that walk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import settled
from tests.e2e.test_presenter_fit import PAGES, SCREEN, section_title

# With nothing typed, a verdict states the answer alone: what the test looks for before the Reveal.
VERDICT = re.compile(r"No guess was typed\. The (?:answer|tensor) is (.+)\.$")
# The slide's words as the class sees them: the main area's text and its charts' texts and descriptions.
_SHOWN_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const charts = [...main.querySelectorAll('.vega-embed, .vega-embed [aria-label], svg text')]
    .map(e => [e.getAttribute('aria-label') || '', e.tagName === 'text' ? e.textContent : ''].join(' '));
  return [main.innerText, ...charts].join('\\n');
}"""
DECKS = [*PAGES, "Attention?method=alibi"]  # ALiBi's question is a number its key fact could give away


@dataclass
class Walk:
    """A deck walked by → alone."""

    shown: list[tuple[str, str]] = field(default_factory=list)  # each slide's title and words as it opened
    answers: list[tuple[int, str]] = field(default_factory=list)  # (the slide that asked, its answer)
    last: str = ""  # the last slide's title
    next_disabled: bool = False  # Next, on the last slide


_WALKS: dict[tuple[str, str], Walk] = {}


def walk(server: str, tabs, deck: str) -> Walk:
    """Walk ``deck`` (a path, with its own parameters) presenting, by ArrowRight alone (once per server)."""
    if (server, deck) in _WALKS:
        return _WALKS[(server, deck)]
    page = tabs.new_page(SCREEN)
    progress = page.get_by_test_id("stProgress")
    joiner = "&" if "?" in deck else "?"
    page.goto(f"{server}/{deck}{joiner}present=true")
    expect(progress).to_contain_text("Section 1 of", timeout=90_000)
    settled(page, 90_000)
    total = int(re.match(r"Section 1 of (\d+)", section_title(page)).group(1))
    seen = Walk()
    for _ in range(2 * total):  # a slide takes two presses at most: reveal, then move on
        title = section_title(page)
        seen.shown.append((title, page.evaluate(_SHOWN_JS)))
        reveal = page.get_by_role("button", name="Reveal")
        if reveal.count():
            page.keyboard.press("ArrowRight")
            expect(reveal).to_have_count(0, timeout=60_000)
            settled(page)
            expect(progress).to_have_text(title)  # revealed, not moved on
            verdict = page.get_by_test_id("stAlertContentInfo").filter(has_text="No guess was typed.")
            expect(verdict).to_have_count(1)
            said = VERDICT.search(verdict.inner_text().strip())
            assert said, verdict.inner_text()
            seen.answers.append((len(seen.shown) - 1, said.group(1)))
        if page.get_by_role("button", name="Next ▶").is_disabled():
            break
        page.keyboard.press("ArrowRight")
        expect(progress).not_to_have_text(title, timeout=60_000)
        settled(page)
    seen.last = section_title(page)
    seen.next_disabled = page.get_by_role("button", name="Next ▶").is_disabled()
    assert page.get_by_test_id("stException").count() == 0
    page.close()
    _WALKS[(server, deck)] = seen
    return seen


@pytest.mark.parametrize("deck", DECKS)
def test_arrow_right_alone_reveals_every_prediction_and_reaches_the_last_slide(server, tabs, deck):
    seen = walk(server, tabs, deck)
    total = int(re.match(r"Section 1 of (\d+)", seen.shown[0][0]).group(1))
    assert seen.next_disabled and seen.last.startswith(f"Section {total} of {total}")
    numbers = [int(re.match(r"Section (\d+)", title).group(1)) for title, _ in seen.shown]
    assert numbers == list(range(1, total + 1))  # every slide once, in order: none skipped
    prompts = [title for title, text in seen.shown if "Predict" in text or "Reveal" in text]
    assert len(prompts) == len(seen.answers)  # every question revealed by the key, none asked twice
    if deck.startswith(
        ("Pipeline", "Why_position", "Attention", "Long_context", "Todays", "Trained_positions")
    ):
        assert seen.answers  # these decks ask the class something


def _stated(answer: str) -> re.Pattern:
    """``answer`` as a slide would write it, and not as part of a longer number or shape ("4 × 256" is
    not in "8 × 4 × 256", "29 pairs" is not in "129 pairs")."""
    return re.compile(rf"(?<![\w.,×])(?<!× ){re.escape(answer)}(?![\w×])(?! ×)(?![.,]\d)")


@pytest.mark.parametrize("deck", DECKS)
def test_no_answer_is_shown_before_its_reveal(server, tabs, deck):
    seen = walk(server, tabs, deck)
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
