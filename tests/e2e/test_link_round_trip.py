"""Copy link round trip for every URL-bound setting, in Chromium.

For each setting: change it through its widget (never the URL), press Copy link, read the link back
from the clipboard, and open it in a fresh browser context. Every widget on the page must show the
same value there, with no warning: the link was written the way the reader reads it. (Copy link once
wrote Python's ``False``, which the reader refused, so a student's link switched its settings back.)
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ScriptRuns, app_ready, settled
from ui.state.url_keys import url_keys

SETTLE_MS = 120_000  # a page's rerun after a change, on a loaded 2-core machine: a wait, not a bound


@dataclass(frozen=True)
class Setting:
    key: str
    page: str  # the URL path of a page that draws its widget
    kind: str  # number | select | switch | text | radio
    label: str
    value: str = ""  # what to type (number, text); select and radio pick another option
    expander: str = ""  # the expander the widget sits in, opened first


LC = "Change the model or its settings"  # the Long context page's settings expander
FAM = "Family settings"  # the Families page's, folded
LC_YARN = "Long_context?lc_rope_type=yarn"
SETTINGS = [
    Setting("vocab", "", "number", "Vocab V", "1000"),
    Setting("dim", "", "number", "Dim d", "64"),
    Setting("context", "", "number", "Context T", "8"),
    Setting("batch", "", "number", "Batch B", "4"),
    Setting("stride", "", "number", "Stride", "2"),
    Setting("seed", "", "number", "Seed", "7"),
    Setting("method", "", "select", "Positional method"),
    Setting("preset", "", "select", "Preset"),
    Setting("sample", "", "select", "Sample"),
    Setting("present", "", "switch", "Presenter mode"),
    Setting("a", "Why_position", "text", "Sentence A", "The dog bites the man"),
    Setting("b", "Why_position", "text", "Sentence B", "The man bites the dog"),
    Setting("space", "Why_position", "switch", "Read each sentence as if it stood mid-sentence"),
    Setting("head", "Attention", "number", "Head shown", "3", "Attention settings"),
    Setting("causal", "Attention", "switch", "Causal mask", expander="Attention settings"),
    Setting("corpus", "Training", "radio", "Train on"),
    Setting("train_context", "Training", "number", "Trained context T", "16"),
    Setting("size", "Training", "select", "Model size"),
    Setting("steps", "Training", "number", "Steps", "50"),
    Setting("heads", "Families", "number", "Heads H", "4", FAM),
    Setting("init", "Families", "select", "Learned table's random start", expander=FAM),
    Setting("base", "Families", "number", "Base", "500000.5", FAM),
    Setting("layout", "Families", "select", "Sinusoid: order of the numbers", expander=FAM),
    Setting("clip", "Families", "number", "Shaw clip k", "8", FAM),
    Setting("buckets", "Families", "number", "T5 buckets", "16", FAM),
    Setting("max_distance", "Families", "number", "T5 max distance", "64", FAM),
    Setting("pairing", "Families", "select", "RoPE: numbers turned together", expander=FAM),
    Setting("extrapolate", "Families", "select", "How far the charts go", expander=FAM),
    Setting("lc_preset", "Long_context", "select", "Preset: a released model's config", expander=LC),
    Setting("lc_rope_type", "Long_context", "select", "Scaling method (rope_type)", expander=LC),
    Setting("lc_head_dim", "Long_context", "number", "Dimensions per head (head_dim)", "64", LC),
    Setting("lc_rope_theta", "Long_context", "number", "Frequency base (rope_theta)", "10000.5", LC),
    Setting(
        "lc_max_position_embeddings",
        "Long_context",
        "number",
        "Length in the config (max_position_embeddings)",
        "65536",
        LC,
    ),
    Setting(
        "lc_original_max_position_embeddings",
        "Long_context",
        "number",
        "Trained length L (original_max_position_embeddings)",
        "4096",
        LC,
    ),
    Setting("lc_factor", "Long_context", "number", "Slow-down factor s (factor)", "4", LC),
    Setting(
        "lc_low_freq_factor",
        "Long_context",
        "number",
        "Slowed by s below this many turns within L (low_freq_factor)",
        "2",
        LC,
    ),
    Setting(
        "lc_high_freq_factor",
        "Long_context",
        "number",
        "Kept above this many turns within L (high_freq_factor)",
        "8",
        LC,
    ),
    Setting(
        "lc_partial_rotary_factor",
        "Long_context",
        "number",
        "Share of each head that turns (partial_rotary_factor)",
        "0.5",
        LC,
    ),
    Setting("lc_beta_fast", LC_YARN, "number", "Kept above this many turns within L (beta_fast)", "16", LC),
    Setting(
        "lc_beta_slow", LC_YARN, "number", "Slowed by s below this many turns within L (beta_slow)", "2", LC
    ),
    Setting("lc_mscale", LC_YARN, "number", "Attention factor, numerator (mscale)", "0.707", LC),
    Setting(
        "lc_mscale_all_dim", LC_YARN, "number", "Attention factor, denominator (mscale_all_dim)", "1", LC
    ),
    Setting(
        "lc_attention_factor",
        LC_YARN,
        "number",
        "Attention factor, set by hand (attention_factor)",
        "1.5",
        LC,
    ),
    Setting(
        "lc_truncate", LC_YARN, "switch", "Round the blend's ends to whole pairs (truncate)", expander=LC
    ),
]

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
def _served_once(server, browser):
    """A server that has run once, as a class's server has: a fresh server's first run of a deep link takes
    Streamlit's legacy pages/ path, after which a page's widgets get new IDs (docs/architecture.md)."""
    page = browser.new_page()
    page.goto(server)
    app_ready(page)
    page.close()


def test_every_url_bound_setting_is_covered_here():
    import ui.attention.settings  # noqa: F401  (each module registers the keys it draws)
    import ui.families.controls  # noqa: F401
    import ui.long_context.views  # noqa: F401
    import ui.sidebar  # noqa: F401
    import ui.training.views  # noqa: F401
    import ui.why_position.sentences  # noqa: F401

    assert {s.key for s in SETTINGS} == set(url_keys())


def _open(page, setting: Setting) -> None:
    """Open the expander ``setting``'s widget sits in, if any."""
    if setting.expander:
        expander = page.get_by_test_id("stExpander").filter(has_text=setting.expander)
        expander.locator("summary").click()
        expect(expander.locator("input").first).to_be_visible()  # drawn by the rerun the opening asks for
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
        choice = next(n for n in reversed(names) if n != current)
        options.filter(has_text=choice).first.click()
    elif setting.kind == "radio":
        group = page.get_by_role("radiogroup", name=setting.label)
        group.locator("label").filter(has_not=page.locator("input:checked")).last.click()
    runs.wait_after(since, SETTLE_MS)
    settled(page, SETTLE_MS)
    if setting.kind == "select":  # read once the rerun is done: meanwhile a remounted box and its stale twin
        expect(page.get_by_role("combobox", name=setting.label, exact=True)).to_have_value(choice)


def _steady_values(page, steady_ms: int = 1_000, most_ms: int = 15_000) -> dict:
    """The widgets' values once they have stayed the same for ``steady_ms``: a box that another
    widget's callback changed (a preset turned to custom) can be drawn a moment after the run ends."""
    last, same, waited = page.evaluate(_VALUES_JS), 0, 0
    while same < steady_ms and waited < most_ms:
        page.wait_for_timeout(250)
        waited += 250
        now = page.evaluate(_VALUES_JS)
        same = same + 250 if now == last else 0
        last = now
    return last


def _warnings(page) -> list[str]:
    return page.get_by_test_id("stAlertContentWarning").all_inner_texts()


@pytest.mark.parametrize("setting", SETTINGS, ids=[s.key for s in SETTINGS])
def test_a_setting_changed_in_its_widget_travels_in_the_copied_link(server, browser, setting):
    writer = browser.new_context(
        permissions=["clipboard-read", "clipboard-write"], viewport={"width": 1400, "height": 1600}
    )
    page = writer.new_page()
    runs = ScriptRuns(page)
    page.goto(f"{server}/{setting.page}")
    app_ready(page)
    settled(page, SETTLE_MS)
    _open(page, setting)
    before = page.evaluate(_VALUES_JS)
    _change(page, runs, setting)
    shown = _steady_values(page)
    assert shown != before, f"changing {setting.label} changed no widget"
    warned = _warnings(page)  # a preset's own notes, say; the reader may see these, and nothing else
    if page.get_by_test_id("stExpandSidebarButton").is_visible():  # presenting: the sidebar starts collapsed
        page.get_by_test_id("stExpandSidebarButton").click()
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_role("button", name="Copy link").click()
    expect(sidebar.get_by_text("Copied: paste it anywhere")).to_be_visible()
    link = page.evaluate("navigator.clipboard.readText()")
    params = parse_qs(urlsplit(link).query, keep_blank_values=True)
    assert setting.key in params, f"the link {link} does not carry {setting.key}"
    for key, values in params.items():  # written the way the reader spells it: no "False", no "7.0"
        assert values[-1] not in ("True", "False"), (key, values)
    writer.close()

    reader = browser.new_context(viewport={"width": 1400, "height": 1600})  # someone else, opening it
    opened = reader.new_page()
    opened.goto(link)
    app_ready(opened)
    settled(opened, SETTLE_MS)
    _open(opened, setting)
    assert opened.evaluate(_VALUES_JS) == shown
    assert not [w for w in _warnings(opened) if w not in warned], "the link was not read as written"
    assert opened.get_by_test_id("stException").count() == 0
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
