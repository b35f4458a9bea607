"""Where the keyboard's focus goes, read in Chromium: the Tabs from the top of a page to its content or to
a slide's Next, and every control Tab can reach that has no visible box (``test_keyboard``, ``test_layout``
and ``test_presenter_fit``'s walk use them)."""

from __future__ import annotations

TABS_TO_NEXT = 6  # presenting: skip link, sidebar's », the page, Previous, Next (and a spare)
MOST_TABS_TO_CONTENT = 21  # after the skip link, before the page's content: 10 links, 10 settings, Copy link

# What the focus is on: its name, whether it is in the sidebar, whether it is Next (by its key's class).
FOCUSED_JS = """() => {
  const e = document.activeElement;
  return {name: `${e.tagName} ${(e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 40)}`,
          sidebar: !!e.closest('[data-testid=stSidebar]'), next: !!e.closest('[class*="st-key-next_"]'),
          body: e === document.body};
}"""

# Where the focus is: in the page's content (the page itself included, where the skip link leads)?
WHERE_JS = """() => {
  const f = document.activeElement, main = document.querySelector('[data-testid=stMain]');
  return {name: `${f.tagName} ${(f.getAttribute('aria-label') || f.textContent || '').trim().slice(0, 40)}`,
          content: !!main && main.contains(f), skip: (f.textContent || '').trim() === 'Skip to main content'};
}"""

# Every control Tab stops on that has no visible box: each one the page lets Tab reach is focused in turn
# (the browser scrolls a focused element into view; one moved off screen stays off) and must have a box
# of its own (for an input drawn by something else, a radio button's or a slider's, the label or the thumb
# that draws it), be visible, not transparent, and on screen. One pass, not a Tab per stop: a page has
# a hundred.
UNSEEN_JS = """() => {
  const unseen = [], stops = 'a[href], button, input, select, textarea, summary, [tabindex]';
  for (const el of document.querySelectorAll(stops)) {
    if (el.tabIndex < 0 || el.disabled) continue;
    el.focus();
    if (document.activeElement !== el) continue;  // not focusable: hidden, so no Tab stop either
    const wrapper = el.closest('[style*="clip"]');
    const e = wrapper ? (el.closest('label') || wrapper.parentElement) : el;
    const r = e.getBoundingClientRect();
    let opacity = 1;
    for (let n = e; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    const onScreen = r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
    if (!(r.width >= 2 && r.height >= 2 && getComputedStyle(e).visibility === 'visible' && opacity > 0.05
          && onScreen)) {
      const name = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
      unseen.push(`${el.tagName} ${name}`);
    }
  }
  document.activeElement.blur();
  return unseen;
}"""


def tabs_to_content(page, most: int = 60) -> tuple[int, list[str]]:
    """Tab from the top of the page until the focus is in the page's content: how many stops came between
    the skip link and the content, and every stop's name."""
    names = []
    for _ in range(most):
        page.keyboard.press("Tab")
        where = page.evaluate(WHERE_JS)
        names.append(where["name"])
        if where["content"]:
            break
    assert names and names[0].endswith("Skip to main content"), names[:3]
    return len(names) - 2, names


def tab_through(page, stop, most: int = 200) -> list[dict]:
    """Press Tab until ``stop(focused)`` (a dict of FOCUSED_JS) is true, at most ``most`` times; what
    each Tab focused."""
    seen = []
    for _ in range(most):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(FOCUSED_JS))
        if stop(seen[-1]):
            break
    return seen


def tabs_to_next_from_the_top(page) -> list[dict]:
    seen = tab_through(page, lambda f: f["next"], most=TABS_TO_NEXT)
    names = [f["name"] for f in seen]
    assert seen[-1]["next"], f"Next is not within {TABS_TO_NEXT} Tabs: {names}"
    return seen
