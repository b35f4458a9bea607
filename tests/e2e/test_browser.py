"""End-to-end: the app in headless Chromium, as a student opens it."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import settled
from ui.families.compare import SECTION_TABS as FAMILIES_TABS


def number_input(page, label: str):
    return page.get_by_role("spinbutton", name=label, exact=True)


def test_changing_the_context_changes_the_shapes(server, page, wait_for_app, shots):
    page.goto(server + "/Pipeline")
    wait_for_app(page)
    metrics = page.get_by_test_id("stMetricValue")
    expect(metrics.filter(has_text="8 × 4 × 256").first).to_be_visible()
    box = number_input(page, "Context T")
    box.fill("8")
    box.press("Enter")
    expect(metrics.filter(has_text="8 × 8 × 256").first).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"context=8"))
    assert page.get_by_test_id("stException").count() == 0
    assert page.get_by_test_id("stVegaLiteChart").count() == 5  # 2 vocab trade-off charts + 3 heatmaps
    page.screenshot(path=str(shots / "pipeline_context_8.png"), full_page=True)


@pytest.mark.parametrize(
    "path, title",
    [
        ("/Pipeline?context=16&dim=64&method=sinusoidal", "From text to input embeddings"),
        ("/Why_position?context=8&dim=32&a=a%20dog%20bites&b=it%20bites%20a%20dog", "Why position?"),
        ("/Families?context=8&method=rope&heads=4", "Positional-encoding families, side by side"),
        ("/Training?context=8&steps=77", "Watch positions being learned"),
        ("/Trained_positions?context=8", "What trained positions look like"),
    ],
)
def test_deep_link_is_the_first_request_to_a_fresh_server(
    fresh_server, page, path, title, wait_for_app, wait_for_settled, shots
):
    """No "Page not found" dialog, the whole page with its sidebar, and clicks work at once."""
    page.goto(fresh_server + path)
    wait_for_app(page)
    expect(page.get_by_role("heading", name=title)).to_be_visible()
    # "Page not found" comes during the first script run: once the run has ended and the page has
    # settled, any such dialog is drawn.
    wait_for_settled(page)
    expect(page.get_by_role("dialog")).to_have_count(0)
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_role("link", name="2. Pipeline")).to_be_visible()
    expect(sidebar.get_by_role("link", name="1. Why position?")).to_be_visible()
    expect(sidebar.get_by_test_id("stNumberInput")).to_have_count(6)
    context = "16" if "context=16" in path else "8"
    expect(number_input(page, "Context T")).to_have_value(context)
    for name, value in (("Dim d", "64"), ("Heads H", "4"), ("Steps", "77")):
        if f"{value}" in path and page.get_by_role("spinbutton", name=name, exact=True).count():
            expect(number_input(page, name)).to_have_value(value)
    if "a=a%20dog" in path:
        expect(page.get_by_role("textbox", name="Sentence A")).to_have_value("a dog bites")
    assert page.get_by_test_id("stException").count() == 0
    page.screenshot(path=str(shots / f"deep_link_{title[:8].replace(' ', '_')}.png"), full_page=True)
    box = number_input(page, "Batch B")  # a click, with nothing to dismiss first
    box.fill("2")
    box.press("Enter")
    expect(page).to_have_url(re.compile("batch=2"), timeout=30_000)
    expect(page.get_by_role("heading", name=title)).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0


def test_bad_input_shows_a_message_and_the_app_keeps_working(server, page, wait_for_app):
    page.goto(server + "/Pipeline?stride=0")
    wait_for_app(page)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("Stride must be between 1")
    box = number_input(page, "Stride")
    box.fill("2")
    box.press("Enter")
    expect(page.get_by_test_id("stMetricValue").filter(has_text="8 × 4 × 256").first).to_be_visible(
        timeout=30_000
    )
    assert page.get_by_test_id("stException").count() == 0


def test_address_bar_keeps_the_settings_through_page_switches_and_reloads(
    server, page, wait_for_app, switch_page
):
    page.goto(server + "/Pipeline?context=8&dim=64&method=rope")
    wait_for_app(page)
    for link, title in [
        ("Families side by side", "Positional-encoding families, side by side"),
        ("Why position?", "Why position?"),
        ("Pipeline", "From text to input embeddings"),
    ]:
        switch_page(page, link, title)
        for param in ("context=8", "dim=64", "method=rope"):
            expect(page).to_have_url(re.compile(param), timeout=10_000)
        page.reload()
        wait_for_app(page)
        expect(page.get_by_role("heading", name=title)).to_be_visible(timeout=30_000)
        # The sidebar may mount its inputs after the heading (a skeleton stands in), later on a busy machine.
        expect(number_input(page, "Context T")).to_have_value("8", timeout=30_000)
        expect(number_input(page, "Dim d")).to_have_value("64", timeout=30_000)
    assert page.get_by_test_id("stException").count() == 0


def test_a_page_keeps_its_own_settings_while_another_page_is_shown(server, page, wait_for_app, switch_page):
    page.goto(server + "/Families?heads=4&context=16")
    wait_for_app(page)
    switch_page(page, "Pipeline", "From text to input embeddings")
    switch_page(page, "Families side by side", re.compile("side by side"))
    expect(page).to_have_url(re.compile("heads=4"), timeout=10_000)
    expect(page).to_have_url(re.compile("context=16"))
    page.get_by_test_id("stMain").get_by_text("Family settings", exact=True).click()  # folded at first
    expect(number_input(page, "Heads H")).to_have_value("4")


def upload(page, tmp_path, name: str, data: bytes) -> None:
    page.get_by_test_id("stSidebar").get_by_text("Upload", exact=True).click()
    path = tmp_path / name
    path.write_bytes(data)
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))


def test_upload_of_bad_and_good_files(server, page, tmp_path, wait_for_app):
    page.goto(server + "/Pipeline")
    wait_for_app(page)
    upload(page, tmp_path, "latin1.txt", "café crème ".encode("latin-1") * 20)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("latin1.txt is not UTF-8 text")
    upload(page, tmp_path, "notes.txt", ("<b>bold</b> and plain words " * 20).encode())
    expect(page.get_by_text("uploaded file notes.txt: 560 characters")).to_be_visible(timeout=30_000)
    # The tag is shown as text, never as markup.
    expect(page.locator(".st-key-chips-token").get_by_text("bold")).not_to_have_count(0)  # drawn, as text
    expect(page.locator(".st-key-chips-token b")).to_have_count(0)
    assert page.get_by_test_id("stException").count() == 0


def test_families_page_draws_every_sections_charts_in_its_tab(server, page, wait_for_app, shots):
    page.goto(server + "/Families?method=alibi&context=512&extrapolate=4")
    wait_for_app(page)
    charts = page.get_by_test_id("stVegaLiteChart")
    # 7 method panels; 3 similarity matrices and their curves; the slopes and head 1's bias
    for tab, count in zip(FAMILIES_TABS, (7, 4, 2), strict=True):
        page.get_by_role("tab", name=tab).click()
        expect(charts).to_have_count(count, timeout=30_000)  # only the open section's
        # Every chart has drawn something (Vega renders to canvas or SVG).
        page.wait_for_function(
            "[...document.querySelectorAll('[data-testid=stVegaLiteChart]')].every("
            "c => c.querySelector('canvas, svg'))",
            timeout=60_000,
        )
    expect(page.get_by_role("heading", name="3. Close-up: ALiBi — Press, Smith & Lewis 2022")).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
    page.screenshot(path=str(shots / "families_alibi.png"), full_page=True)


# Set on the page before it loads: whether a progress bar was ever drawn, however briefly.
SEE_PROGRESS = """
new MutationObserver(() => {
  if (document.querySelector('[data-testid=stProgress]')) window.sawProgress = true;
}).observe(document, {childList: true, subtree: true});
"""


def test_training_shows_progress_then_results(server, page, wait_for_app, shots):
    # A tiny run (about a second of CPU when idle): long enough for the page's 0.5 s poll to draw its
    # progress, short enough to end on a loaded machine well within the waits.
    page.add_init_script(SEE_PROGRESS)
    page.goto(server + "/Training?steps=60&size=tiny&train_context=8&seed=11")
    wait_for_app(page)
    expect(page.get_by_text("steps of a tiny model", exact=False)).to_be_visible()
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_text("Validation loss", exact=True)).to_be_visible(timeout=180_000)
    assert page.evaluate("window.sawProgress === true"), "no progress bar was drawn while the run trained"
    expect(page.get_by_test_id("stProgress")).to_have_count(0)
    assert page.get_by_test_id("stException").count() == 0
    page.screenshot(path=str(shots / "training_done.png"), full_page=True)


def test_download_the_batch(server, page, tmp_path, wait_for_app):
    import numpy as np

    page.goto(server + "/Pipeline?context=6&batch=3")
    wait_for_app(page)
    # Once the page has settled, as a person clicks: during a rerun that moves the page's elements, a
    # button's old file ID may name another button's file (Streamlit's deferred downloads, by path).
    settled(page, 120_000)
    button = page.locator(".st-key-dl_inputs_npy").get_by_role("button", name=".npy", exact=True)
    with page.expect_download(timeout=90_000) as info:  # built when clicked: slow on a loaded machine
        button.click()  # the batch's (inputs) button
    path = tmp_path / "inputs.npy"
    info.value.save_as(path)
    inputs = np.load(path)
    assert inputs.shape == (3, 6) and inputs.dtype == np.int64
    # The first window starts with the sample's first tokens, as the table on the page shows.
    first_cell = page.get_by_test_id("stTable").first
    expect(first_cell).to_be_visible()


def test_presenter_mode_reveals_the_shape(server, page, wait_for_app, shots):
    page.goto(server + "/Pipeline?present=true")
    wait_for_app(page)
    expect(page.get_by_text("Section 1 of 17: Text → token IDs")).to_be_visible()
    page.get_by_role("textbox").first.fill("torch.Size([278])")
    page.get_by_role("button", name="Reveal").click()
    expect(page.get_by_text("Right: 278.")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("stMetricValue").filter(has_text="278")).to_be_visible()
    expect(page.get_by_role("heading", name="1. Text → token IDs")).to_have_count(1)
    page.get_by_role("button", name="Next ▶").click()  # the tokens: a slide of their own
    expect(page.get_by_text("Section 2 of 17: Text → token IDs — the tokens")).to_be_visible(timeout=30_000)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_role("heading", name="2. Sliding-window batch")).to_be_visible(timeout=30_000)
    page.screenshot(path=str(shots / "presenter.png"), full_page=True)


def test_presenter_mode_fits_a_projector_and_survives_a_page_switch(
    server, tabs, wait_for_app, wait_for_settled
):
    page = tabs.new_page({"width": 1280, "height": 720})
    page.goto(server + "/Pipeline?present=true&context=8")
    wait_for_app(page)
    reveal = page.get_by_role("button", name="Reveal")
    box = reveal.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 720  # the prediction is above the fold
    wait_for_settled(page)  # as a person would, before a click (see conftest.click_page_link)
    page.get_by_test_id("stExpandSidebarButton").click()  # presenting, the sidebar starts collapsed
    page.get_by_test_id("stSidebar").get_by_role("link", name="Real trained positions").click()
    expect(page.get_by_role("heading", name="What trained positions look like")).to_be_visible(timeout=30_000)
    wait_for_app(page)
    expect(page).to_have_url(re.compile("present=true"))
    expect(page.get_by_text("Section 1 of 7: A table that training changed")).to_be_visible()
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text("Section 2 of 7: Neighbours after training")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="Reveal")).to_be_visible()
    page.close()


def test_chart_downloads_as_png(server, page, tmp_path, wait_for_app):
    page.goto(server + "/Families?context=16")
    wait_for_app(page)
    chart = page.get_by_test_id("stVegaLiteChart").first
    expect(chart.locator("canvas, svg").first).to_be_visible(timeout=30_000)
    chart.hover()
    container = page.get_by_test_id("stElementContainer").filter(has=chart).first
    button = container.get_by_role("button", name="Download as PNG")
    with page.expect_download() as info:
        # The toolbar floats over the chart, which may catch a pointer click: send the click to the button.
        button.dispatch_event("click")
    path = tmp_path / "chart.png"
    info.value.save_as(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_preset_from_the_default_url_renders_its_shapes(server, page, wait_for_app):
    page.goto(server + "/Pipeline?preset=gpt3-175b")
    wait_for_app(page)
    metrics = page.get_by_test_id("stMetricValue")
    # stride 2,048 (the preset's context): the long sample makes 4 such windows, so the batch is 4
    expect(metrics.filter(has_text="4 × 2,048 × 12,288").first).to_be_visible(timeout=60_000)
    expect(page.get_by_text("the text is now the long sample")).to_be_visible()
    assert page.get_by_test_id("stAlertContentError").count() == 0
    assert page.get_by_test_id("stException").count() == 0
