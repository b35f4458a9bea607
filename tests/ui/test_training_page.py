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
    assert float(metrics["Validation loss"]) < float(metrics["Frequency-only guess"])
    assert at.select_slider(key="snapshot").value is not None  # learned: scrub through snapshots
    table = at.table[-1].value
    assert table.set_index("method").loc["Learned absolute", "status"] == "done"
    assert not at.exception


def test_short_text_offers_the_long_sample(open_page, errors):
    at = open_page(PAGE, corpus="sidebar", sample="lesson")
    assert "training with context 32 needs at least 660" in errors(at)
    at.button(key="use_log").click().run()
    assert not at.error


def test_a_method_the_page_cannot_train_gets_a_way_forward(open_page):
    at = open_page(PAGE, preset="t5-base")
    assert any(
        i.value.startswith("This page trains") and "positions, not **T5 bias**" in i.value for i in at.info
    )
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


def test_a_finished_run_stays_with_its_own_settings_after_a_settings_change(open_page, job_watch):
    """Issue 21: changing Steps after Train lost the finished run ("Press Train", "not trained yet")."""
    at = open_page(PAGE, steps="40", size="tiny", train_context="8", seed="12")
    at.button(key="train").click().run()
    job_watch.until_finished()
    at.number_input(key="steps").set_value(30).run()
    assert not any("Press **Train**" in i.value for i in at.info)
    assert "Validation loss" in {m.label for m in at.metric}
    labels = " ".join(m.value for m in at.markdown)
    assert "**This run:** Learned absolute positions, tiny model, context 8, 40 steps, seed 12." in labels
    assert "The settings above differ (30 steps): press **Train**" in labels
    table = at.table[-1].value.set_index("method")
    assert (
        table.loc["Learned absolute", "status"] == "done" and table.loc["RoPE", "status"] == "not trained yet"
    )
    assert any(c.value.endswith("tiny model, context 8, 40 steps, seed 12.") for c in at.caption)
    at.button(key="train").click().run()  # training again replaces it with the run of the new settings
    job_watch.until_finished()
    at.run()
    labels = " ".join(m.value for m in at.markdown)
    assert "**This run:** Learned absolute positions, tiny model, context 8, 30 steps, seed 12." in labels
    assert "differ" not in labels
    assert not at.exception


def test_stop_of_a_queued_run_says_so_at_once(open_page, job_watch):
    """Issue 21: a run stopped while queued kept saying "Queued" until a worker reached it."""
    busy = open_page(PAGE, steps="400", size="small", train_context="64", seed="9")
    busy.button(key="train").click().run()  # another student's run holds the one worker
    at = open_page(PAGE, steps="50", size="tiny", train_context="8", seed="9")
    at.button(key="train").click().run()
    assert any(i.value.startswith("Queued: 1 run ahead") for i in at.info)
    at.button(key="stop").click().run()
    assert job_watch.jobs[0].status == "running"  # the worker has not reached the queued run
    assert [w.value for w in at.warning] == [
        "Stopped while it was queued: it never started. Press **Train** to queue it again."
    ]
    assert not any(i.value.startswith("Queued") for i in at.info)
    assert at.button(key="stop").disabled
    busy.button(key="stop").click().run()
    job_watch.until_finished()  # leaves no run training for the next test


def test_the_shown_run_and_its_label():
    from core.training.train_queue import Job
    from core.training.training import TrainConfig
    from ui.training.views import run_caption, shown_run

    def job(status: str, **settings) -> Job:
        return Job("k", TrainConfig(**settings), status=status, text="log")

    own, other = job("done", steps=300), job("done", steps=200)
    assert shown_run(None, other) is other and shown_run(None, None) is None
    assert shown_run(own, None) is own  # a finished run stays when the settings have none
    assert shown_run(own, job("running", steps=200)) is own
    assert shown_run(own, other) is other  # the settings above have a finished run: that one
    running = job("running", steps=300)
    assert shown_run(running, other) is running  # a session's run in progress is always shown
    assert run_caption(own, "log", TrainConfig(steps=300)) == (
        "**This run:** Learned absolute positions, small model, context 32, 300 steps, seed 123."
    )
    assert run_caption(own, "sidebar", TrainConfig(method="rope", steps=300)).endswith(
        "The settings above differ (RoPE positions, another text): press **Train** to train them."
    )
