"""End-to-end: a training run's life on the Training page, as students see it.

Each test uses its own seed, so no run of another test on the shared server answers its request.
"""

import re

from playwright.sync_api import expect

from tests.e2e.layout import drawn_size

TRAIN_WAIT = 180_000  # ms: a run of a few seconds, on a loaded machine; not a performance bound


def number_input(page, label: str):
    return page.get_by_role("spinbutton", name=label, exact=True)


def comparison_cells(page, method: str):
    """The cells of the comparison table's row of ``method``, the method's name first."""
    rows = page.locator("[data-testid=stTable] tbody tr")
    row = rows.filter(has=page.locator("td:first-child", has_text=re.compile(f"^{method}$")))
    return row.locator("td")


def test_a_finished_run_stays_when_steps_change_mid_run(server, page, wait_for_app, wait_for_charts, shots):
    """Train 300 steps, change Steps to 250 while it trains: the finished run stays, with its settings."""
    page.goto(server + "/Training?steps=300&size=small&train_context=8&seed=31")
    wait_for_app(page)
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_test_id("stProgress")).to_be_visible(timeout=TRAIN_WAIT)
    box = number_input(page, "Steps")
    box.fill("250")
    box.press("Enter")
    # Mid-run: the page names the run that still trains with its own settings.
    expect(page.get_by_text("is still training with its own settings")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Validation loss", exact=True)).to_be_visible(timeout=TRAIN_WAIT)
    expect(page.get_by_test_id("stProgress")).to_have_count(0)
    label = page.get_by_text(
        "This run: Learned absolute positions, small model, context 8, 300 steps, seed 31."
    )
    expect(label).to_be_visible()
    expect(label).to_contain_text("The settings above differ (250 steps): press Train to train them.")
    expect(page.get_by_text("steps of a small model")).to_have_count(0)  # no "Press Train: 250 steps …"
    expect(number_input(page, "Steps")).to_have_value("250")  # the student's new setting is kept
    expect(page).to_have_url(re.compile("steps=250"))
    # The finished curve is drawn, with a size: the loss chart, the similarity heatmap, the structure and
    # the loss per position out to 2T.
    charts = page.get_by_test_id("stVegaLiteChart")
    expect(charts).to_have_count(4)
    wait_for_charts(page)
    width, height = drawn_size(charts.first.locator("canvas, svg").first)
    assert width > 400 and height > 150, (width, height)
    # The comparison is filled for the run's own settings, with its validation loss.
    expect(page.get_by_text("trained on this text: small model, context 8, 300 steps")).to_be_visible()
    metric = page.get_by_test_id("stMetric").filter(has=page.get_by_text("Validation loss", exact=True))
    loss = metric.get_by_test_id("stMetricValue").inner_text()
    learned = comparison_cells(page, "Learned absolute")
    expect(learned.last).to_have_text("done")
    expect(learned.nth(1)).to_have_text(loss)
    expect(comparison_cells(page, "RoPE").last).to_have_text("not trained yet")
    # The answer, under the question: from the run on screen, and it says the settings above are others.
    answer = page.locator(".st-key-answer")
    expect(answer.get_by_text("Neighbour similarity after training")).to_be_visible()
    expect(answer).to_contain_text(
        "After 300 steps, two neighbouring positions' vectors have a cosine similarity"
    )
    expect(answer).to_contain_text("These are the numbers of the run below, with its own settings")
    assert page.get_by_test_id("stException").count() == 0
    page.screenshot(path=str(shots / "training_finished_run.png"), full_page=True)


def test_stop_of_a_queued_run_says_so_before_a_worker_reaches_it(server, tabs, page, wait_for_app):
    """One student's long run holds the worker; another's queued run, stopped, says so at once."""
    page.goto(server + "/Training?steps=3000&size=small&train_context=64&seed=32")
    wait_for_app(page)
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_test_id("stProgress")).to_be_visible(timeout=TRAIN_WAIT)
    other = tabs.new_page({"width": 1400, "height": 1600})  # a second session
    try:
        other.goto(server + "/Training?steps=30&size=tiny&train_context=8&seed=32")
        wait_for_app(other)
        other.get_by_role("button", name="Train", exact=True).click()
        expect(other.get_by_text("Queued: 1 run ahead")).to_be_visible(timeout=60_000)
        other.get_by_role("button", name="Stop", exact=True).click()
        expect(other.get_by_text("Stopped while it was queued: it never started.")).to_be_visible(
            timeout=60_000
        )
        expect(other.get_by_text(re.compile("^Queued: "))).to_have_count(0)
        expect(other.get_by_role("button", name="Stop", exact=True)).to_be_disabled()
        # The long run still trains: the worker never reached the stopped run, the page did not wait for it.
        expect(page.get_by_test_id("stProgress")).to_have_count(1)
        assert other.get_by_test_id("stException").count() == 0
    finally:
        other.close()
    page.get_by_role("button", name="Stop", exact=True).click()  # leaves no run training
    expect(page.get_by_text("Stopped at step")).to_be_visible(timeout=60_000)
