"""The Training page through AppTest: a short run from the button to the results.

The page's queue trains in a thread of this process; a test waits for its jobs to change state
(the ``job_watch`` fixture), then runs the page once more, as the page's own poll would.
"""

PAGE = "pages/Training.py"


def test_short_run_from_button_to_results(open_page, job_watch):
    at = open_page(PAGE, steps="60", size="tiny", train_context="8", seed="7")
    assert not at.exception and not at.error
    assert "Press **Train**" in at.info[0].value
    at.button(key="train").click().run()
    assert len(job_watch.jobs) == 1
    job_watch.until_finished()
    at.run()
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["Validation loss"]) < float(metrics["Unigram baseline"])
    assert at.select_slider(key="snapshot").value is not None  # learned: scrub through snapshots
    table = at.dataframe[-1].value
    assert table.set_index("method").loc["learned", "status"] == "done"
    assert not at.exception


def test_short_text_offers_the_long_sample(open_page, errors):
    at = open_page(PAGE, corpus="sidebar", sample="lesson")
    assert "training with context 32 needs at least 660" in errors(at)
    at.button(key="use_log").click().run()
    assert not at.error


def test_a_method_the_page_cannot_train_gets_a_way_forward(open_page):
    at = open_page(PAGE, preset="t5-base")
    assert any(i.value.startswith("This page trains") and "positions, not **t5**" in i.value for i in at.info)
    assert not at.error and not at.exception
    at.button(key="use_learned").click().run()
    assert at.sidebar.selectbox(key="method").value == "learned"
    assert any("Press **Train**" in i.value for i in at.info)


def test_stop_after_a_settings_change_stops_the_run_and_train_starts_again(open_page, job_watch):
    at = open_page(PAGE, steps="400", size="small", train_context="64", seed="8")
    at.button(key="train").click().run()
    at.number_input(key="steps").set_value(399).run()  # the settings no longer name the running run
    assert not at.button(key="stop").disabled
    assert any("is still training with its own settings" in c.value for c in at.caption)
    at.button(key="stop").click().run()
    job_watch.until_finished()
    at.run()
    assert not any("still training" in c.value for c in at.caption)
    assert at.button(key="stop").disabled
    at.number_input(key="steps").set_value(400).run()
    assert any("Stopped at step" in w.value for w in at.warning)
    at.button(key="train").click().run()  # Train right after Stop starts a new run
    assert not any("Stopped at step" in w.value for w in at.warning)
    assert not at.button(key="stop").disabled
    at.button(key="stop").click().run()
    job_watch.until_finished()  # leaves no run training for the next test


def test_a_run_over_the_budget_is_refused_with_what_to_change(open_page, errors):
    at = open_page(PAGE, steps="5000", size="medium", train_context="256")
    assert "a run may take at most 60 s. Lower the steps to at most" in errors(at)
    assert not at.exception
