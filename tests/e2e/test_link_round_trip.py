"""Copy link round trip for every URL-bound setting, in Chromium.

The settings come in groups, one per page (and expander) that draws their widgets. For each group, one
writer changes each setting in turn through its widget (never the URL); after each change it presses
Copy link and reads the link back from the clipboard: the link carries that setting, and every value
in it is written the way the reader reads it. Then someone else opens the group's last link in a fresh
browser context: every widget on the page must show the writer's values, with no new warning (a value
the reader refuses, Python's ``False`` say, would switch a student's setting back). A group is ordered
so that no later change overwrites an earlier one's value: a preset, which writes many settings, is the
last change of a group that changes none of them, so every changed value is read back.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ScriptRuns, app_ready, settled
from ui.state.url_keys import url_keys
from ui.state.url_params import accepted, parse

SETTLE_MS = 120_000  # a page's rerun after a change, on a loaded 2-core machine: a wait, not a bound


@dataclass(frozen=True)
class Setting:
    key: str
    kind: str  # number | select | switch | text | radio
    label: str
    # What to type (number, text) or the option to pick; without it a select or radio picks another.
    value: str = ""


@dataclass(frozen=True)
class Group:
    """Settings changed one after another on one page, then read back from one link."""

    name: str
    page: str  # the URL path of a page that draws every widget of the group
    settings: tuple[Setting, ...]
    expander: str = ""  # the expander the page's widgets sit in, opened first


LC = "Change the model or its settings"  # the Long context page's settings expander
FAM = "Family settings"  # the Families page's, folded
PRESET = Setting(
    "preset", "select", "Preset"
)  # the sidebar's: it writes vocab, dim, context, ..., the sample
GROUPS = [
    Group(
        "sidebar",
        "",
        (
            Setting("vocab", "number", "Vocab V", "1000"),
            Setting("dim", "number", "Dim d", "64"),
            Setting("context", "number", "Context T", "8"),
            Setting("batch", "number", "Batch B", "4"),
            Setting("stride", "number", "Stride", "2"),
            Setting("seed", "number", "Seed", "7"),
            Setting("method", "select", "Positional method"),
            Setting("sample", "select", "Sample"),
            Setting("present", "switch", "Presenter mode"),  # last: presenting collapses the sidebar
        ),
    ),
    Group(
        "Why_position",
        "Why_position",
        (
            Setting("a", "text", "Sentence A", "The dog bites the man"),
            Setting("b", "text", "Sentence B", "The man bites the dog"),
            Setting("space", "switch", "Read each sentence as if it stood mid-sentence"),
            PRESET,  # here, where no other change is one it writes
        ),
    ),
    Group(
        "Attention",
        "Attention",
        (
            Setting("head", "number", "Head shown", "3"),
            Setting("causal", "switch", "Causal mask"),
        ),
        "Attention settings",
    ),
    Group(
        "Training",
        "Training",
        (
            Setting("train_context", "number", "Trained context T", "16"),
            Setting("size", "select", "Model size"),
            Setting("steps", "number", "Steps", "50"),
            Setting("corpus", "radio", "Train on"),
        ),
    ),
    Group(
        "Families",
        "Families",
        (
            Setting("heads", "number", "Heads H", "4"),
            Setting("init", "select", "Learned table's random start"),
            Setting("base", "number", "Base", "500000.5"),
            Setting("layout", "select", "Sinusoid: order of the numbers"),
            Setting("clip", "number", "Shaw clip k", "8"),
            Setting("buckets", "number", "T5 buckets", "16"),
            Setting("max_distance", "number", "T5 max distance", "64"),
            Setting("pairing", "select", "RoPE: numbers turned together"),
            Setting("extrapolate", "select", "How far the charts go"),
        ),
        FAM,
    ),
    Group(  # the default preset's method, Llama 3, reads each of these
        "Long_context",
        "Long_context",
        (
            Setting("lc_head_dim", "number", "Dimensions per head (head_dim)", "64"),
            Setting("lc_rope_theta", "number", "Frequency base (rope_theta)", "10000.5"),
            Setting(
                "lc_max_position_embeddings",
                "number",
                "Length in the config (max_position_embeddings)",
                "65536",
            ),
            Setting(
                "lc_original_max_position_embeddings",
                "number",
                "Trained length L (original_max_position_embeddings)",
                "4096",
            ),
            Setting("lc_factor", "number", "Slow-down factor s (factor)", "4"),
            Setting(
                "lc_low_freq_factor",
                "number",
                "Slowed by s below this many turns within L (low_freq_factor)",
                "2",
            ),
            Setting(
                "lc_high_freq_factor", "number", "Kept above this many turns within L (high_freq_factor)", "8"
            ),
            Setting(
                "lc_partial_rotary_factor",
                "number",
                "Share of each head that turns (partial_rotary_factor)",
                "0.5",
            ),
        ),
        LC,
    ),
    Group(  # YaRN first: it draws the rest
        "Long_context_yarn",
        "Long_context",
        (
            Setting("lc_rope_type", "select", "Scaling method (rope_type)", "YaRN"),
            Setting("lc_beta_fast", "number", "Kept above this many turns within L (beta_fast)", "16"),
            Setting("lc_beta_slow", "number", "Slowed by s below this many turns within L (beta_slow)", "2"),
            Setting("lc_mscale", "number", "Attention factor, numerator (mscale)", "0.707"),
            Setting("lc_mscale_all_dim", "number", "Attention factor, denominator (mscale_all_dim)", "1"),
            Setting(
                "lc_attention_factor", "number", "Attention factor, set by hand (attention_factor)", "1.5"
            ),
            Setting("lc_truncate", "switch", "Round the blend's ends to whole pairs (truncate)"),
        ),
        LC,
    ),
    Group(  # alone: a preset writes every other setting of the page
        "Long_context_preset",
        "Long_context",
        (Setting("lc_preset", "select", "Preset: a released model's config"),),
        LC,
    ),
]
SETTINGS = [s for group in GROUPS for s in group.settings]

# Every widget's value, as a person reads it: numbers, choices, switches, texts and radio choices.
_VALUES_JS = """() => {
  const out = {};
  for (const el of document.querySelectorAll(
      'input[type=number], input[role=combobox], input[role=switch], input[type=text], textarea')) {
    const name = el.getAttribute('aria-label') || el.closest('[data-testid]')?.innerText || '?';
    out[name] = el.getAttribute('role') === 'switch' ? String(el.checked) : el.value;
  }
  for (const group of document.querySelectorAll('[role=radiogroup]')) {
    const checked = group.querySelector('input[type=radio]:checked');
    out['radio ' + (group.getAttribute('aria-label') || '?')] = checked ? checked.value : '';
  }
  return out;
}"""


@pytest.fixture(scope="module", autouse=True)
def _served_once(server, tabs):
    """A server that has run once, as a class's server has: a fresh server's first run of a deep link takes
    Streamlit's legacy pages/ path, after which a page's widgets get new IDs (docs/architecture.md)."""
    page = tabs.new_page()
    page.goto(server)
    app_ready(page)
    page.close()


def test_every_url_bound_setting_is_covered_here_once():
    import ui.attention.settings  # noqa: F401  (each module registers the keys it draws)
    import ui.families.controls  # noqa: F401
    import ui.long_context.views  # noqa: F401
    import ui.sidebar  # noqa: F401
    import ui.training.views  # noqa: F401
    import ui.why_position.sentences  # noqa: F401

    keys = [s.key for s in SETTINGS]
    assert set(keys) == set(url_keys()) and len(keys) == len(set(keys))


def _open(page, expander: str) -> None:
    """Open the expander titled ``expander``, if any."""
    if expander:
        box = page.get_by_test_id("stExpander").filter(has_text=expander)
        box.locator("summary").click()
        expect(box.locator("input").first).to_be_visible()  # drawn by the rerun the opening asks for
        settled(page, SETTLE_MS)


def _change(page, runs: ScriptRuns, setting: Setting) -> None:
    """Change ``setting`` through its widget, as a person would, and wait for the rerun it starts."""
    since = runs.finished
    if setting.kind == "number":
        box = page.get_by_role("spinbutton", name=setting.label, exact=True)
        box.fill(setting.value)
        box.press("Enter")
    elif setting.kind == "text":
        box = page.get_by_role("textbox", name=setting.label, exact=True)
        box.fill(setting.value)
        box.press("Enter")
    elif setting.kind == "switch":
        switch = page.get_by_role("switch", name=setting.label)
        checked = switch.is_checked()
        page.get_by_test_id("stCheckbox").filter(has=switch).locator("label").first.click()
        if setting.key == "present":  # presenting collapses the sidebar, and a collapsed one is hidden
            page.get_by_role("button", name="Expand sidebar").click()
        expect(switch).to_be_checked(checked=not checked)
    elif setting.kind == "select":
        box = page.get_by_role("combobox", name=setting.label, exact=True)
        current = box.input_value()
        box.click()
        options = page.get_by_role("option")
        expect(options.first).to_be_visible()
        names = [o.inner_text().strip() for o in options.all()]
        choice = setting.value or next(n for n in reversed(names) if n != current)
        options.filter(has_text=choice).first.click()
    elif setting.kind == "radio":
        group = page.get_by_role("radiogroup", name=setting.label)
        group.locator("label").filter(has_not=page.locator("input:checked")).last.click()
    runs.wait_after(since, SETTLE_MS)
    settled(page, SETTLE_MS)
    if setting.kind == "select":  # read once the rerun is done: meanwhile a remounted box and its stale twin
        expect(page.get_by_role("combobox", name=setting.label, exact=True)).to_have_value(choice)


def _steady_values(page, steady_ms: int = 500, most_ms: int = 15_000, every_ms: int = 100) -> dict:
    """The widgets' values once they have stayed the same for ``steady_ms``: a box that another
    widget's callback changed (a preset turned to custom) can be drawn a moment after the run ends."""
    last, same, waited = page.evaluate(_VALUES_JS), 0, 0
    while same < steady_ms and waited < most_ms:
        page.wait_for_timeout(every_ms)
        waited += every_ms
        now = page.evaluate(_VALUES_JS)
        same = same + every_ms if now == last else 0
        last = now
    return last


def _warnings(page) -> list[str]:
    return page.get_by_test_id("stAlertContentWarning").all_inner_texts()


def _copied_link(page) -> str:
    """Press Copy link and read the link from the clipboard."""
    if page.get_by_test_id("stExpandSidebarButton").is_visible():  # presenting: the sidebar starts collapsed
        page.get_by_test_id("stExpandSidebarButton").click()
    # The last copy's "Copied" is cleared first, so that the one awaited is this copy's.
    page.evaluate("() => document.querySelectorAll('.copy-status').forEach((s) => { s.textContent = ''; })")
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_role("button", name="Copy link").click()
    expect(sidebar.get_by_text("Copied: paste it anywhere")).to_be_visible()
    return page.evaluate("navigator.clipboard.readText()")


def misspelt(params: dict[str, list[str]]) -> list[tuple[str, str]]:
    """The parameters not written the way the reader spells them (``parse``: "false", not "False"; "7",
    not "7.0"); a sentence is any text, but no Python ``True`` or ``False``."""
    wrong = []
    for key, values in params.items():
        value = values[-1]
        if value in ("True", "False"):
            wrong.append((key, value))
        elif key in accepted():
            try:
                if parse(key, value) != value:
                    wrong.append((key, value))
            except ValueError:
                wrong.append((key, value))
    return wrong


@pytest.mark.parametrize("group", GROUPS, ids=[g.name for g in GROUPS])
def test_settings_changed_in_their_widgets_travel_in_the_copied_link(server, browser, group):
    writer = browser.new_context(
        permissions=["clipboard-read", "clipboard-write"], viewport={"width": 1400, "height": 1600}
    )
    try:
        page = writer.new_page()
        runs = ScriptRuns(page)
        page.goto(f"{server}/{group.page}")
        app_ready(page)
        settled(page, SETTLE_MS)
        _open(page, group.expander)
        shown = page.evaluate(_VALUES_JS)
        for setting in group.settings:
            before = shown
            _change(page, runs, setting)
            shown = _steady_values(page)
            assert shown != before, f"changing {setting.label} changed no widget"
            link = _copied_link(page)
            params = parse_qs(urlsplit(link).query, keep_blank_values=True)
            assert setting.key in params, f"the link {link} does not carry {setting.key}"
            assert misspelt(params) == [], link
        warned = _warnings(page)  # a preset's own notes, say; the reader may see these, and nothing else
    finally:
        writer.close()

    reader = browser.new_context(viewport={"width": 1400, "height": 1600})  # someone else, opening it
    try:
        opened = reader.new_page()
        opened.goto(link)
        app_ready(opened)
        settled(opened, SETTLE_MS)
        _open(opened, group.expander)
        assert _steady_values(opened) == shown
        assert not [w for w in _warnings(opened) if w not in warned], "the link was not read as written"
        assert opened.get_by_test_id("stException").count() == 0
    finally:
        reader.close()


def test_a_link_streamlit_drops_whole_is_explained_on_the_page(server, page):
    # More than 1,000 parameters: Streamlit ignores the whole query string, so the server sees none.
    junk = "&".join(f"x{i}=1" for i in range(1200))
    page.goto(f"{server}/Why_position?dim=64&{junk}")
    app_ready(page)
    note = page.locator("div.dropped-url")
    expect(note).to_be_visible()
    expect(note).to_contain_text("This link has 1,201 parameters")
    expect(note).to_contain_text("at most 1,000 parameters")
    assert note.bounding_box()["height"] > 20
    page.goto(f"{server}/Why_position?dim=64")  # an ordinary link: no note
    app_ready(page)
    expect(page.get_by_role("spinbutton", name="Dim d", exact=True)).to_have_value("64")
    assert not page.locator("div.dropped-url").is_visible()
