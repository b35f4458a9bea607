"""The Training page through AppTest: a short run from the button to the results."""

import time

from tests.ui.test_pages import errors, open_page

PAGE = "pages/training.py"


def run_until(at, predicate, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        at.run()
        if predicate(at):
            return at
        time.sleep(0.3)
    raise AssertionError("the page did not reach the expected state in time")


def test_short_run_from_button_to_results():
    at = open_page(PAGE, steps="60", size="tiny", train_context="8", seed="7")
    assert not at.exception and not at.error
    assert "Press **Train**" in at.info[0].value
    at.button(key="train").click().run()
    run_until(at, lambda a: any(m.label == "Validation loss" for m in a.metric))
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["Validation loss"]) < float(metrics["Unigram baseline"])
    assert at.select_slider(key="snapshot").value is not None  # learned: scrub through snapshots
    table = at.dataframe[-1].value
    assert table.set_index("method").loc["learned", "status"] == "done"
    assert not at.exception


def test_short_text_offers_the_long_sample():
    at = open_page(PAGE, corpus="sidebar", sample="lesson")
    assert "training with context 32 needs at least 660" in errors(at)
    at.button(key="use_log").click().run()
    assert not at.error


def test_unsupported_method_gets_a_message():
    at = open_page(PAGE, method="t5")
    assert "Training supports learned, sinusoidal, rope, alibi, nope" in errors(at)
    assert not at.exception
