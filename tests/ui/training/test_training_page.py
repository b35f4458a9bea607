"""The Training page through AppTest: a short run from the button to the results.

The page's queue trains in a thread of this process; a test waits for its jobs to change state
(the ``job_watch`` fixture), then runs the page once more, as the page's own poll would.
"""

import json

import pytest

from core.positional.family import FAMILIES
from core.training.model import trainable_methods
from tests.core.prose import prose_problems
from tests.ui.test_page_sentences import page_text
from tests.ui.visible_text import reading, undefined_words

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
    assert float(metrics["Validation loss"]) < float(metrics["Guess from token counts"])
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
    """Changing Steps after Train keeps the finished run on screen, not "Press Train", "not trained yet"."""
    at = open_page(PAGE, steps="40", size="tiny", train_context="8", seed="12")
    at.button(key="train").click().run()
    job_watch.until_finished()
    at.number_input(key="steps").set_value(30).run()
    assert not any("Press **Train**" in i.value for i in at.info)
    assert "Validation loss" in {m.label for m in at.metric}
    labels = " ".join(m.value for m in at.markdown)
    assert "**This run:** Learned absolute positions, tiny model, context 8, 40 steps, seed 12." in labels
    assert "The settings above differ (30 steps): press **Train**" in labels
    assert "These are the numbers of the run below, with its own settings" in labels  # so says the answer
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
    assert "The settings above differ" not in labels and "with its own settings" not in labels
    assert not at.exception


def test_stop_of_a_queued_run_says_so_at_once(open_page, job_watch):
    """A run stopped while queued says so at once, not "Queued" until a worker reaches it."""
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


def trained(open_page, job_watch, **params):
    """The page after a finished run of ``params`` (a tiny model unless they say otherwise)."""
    at = open_page(PAGE, **{"size": "tiny", "train_context": "4", "steps": "20", **params})
    at.button(key="train").click().run()
    job_watch.until_finished()
    return at.run()


def undefined(at) -> list[str]:
    """Every glossary term a stream of the page (``reading``) uses before its definition."""
    return undefined_words(at)


def test_the_answer_comes_under_the_question_and_follows_the_settings(open_page):
    at = open_page(PAGE)
    main = reading(at)[0]
    assert main.index("**The question:**") < main.index("**The answer, in short**") < main.index("Train on")
    assert at.metric[0].label == "Position numbers to learn" and at.metric[0].value == "2,048"  # 32 × 64
    assert open_page(PAGE, size="tiny", train_context="8").metric[0].value == "256"  # 8 × 32
    rope = open_page(PAGE, method="rope")
    assert rope.metric[0].value == "0" and "turns vectors inside the model" in reading(rope)[0]
    rope.button(key="answer_learned").click().run()  # the box's way to the method that learns a table
    assert rope.sidebar.selectbox(key="method").value == "learned" and rope.metric[0].value == "2,048"


@pytest.mark.parametrize(
    "params", [{}, {"method": "nope"}, {"method": "alibi", "steps": "1"}, {"method": "t5"}]
)
def test_before_a_run_every_word_is_defined_where_it_first_appears(open_page, params):
    at = open_page(PAGE, **params)
    assert not at.exception
    assert not undefined(at), undefined(at)
    assert not prose_problems(page_text(at)), prose_problems(page_text(at))


@pytest.mark.parametrize("method", trainable_methods())
def test_after_a_finished_run_every_word_is_defined_and_every_sentence_reads(open_page, job_watch, method):
    at = trained(open_page, job_watch, method=method, seed="41")
    assert not at.exception and not at.error
    assert not undefined(at), undefined(at)
    assert not prose_problems(page_text(at)), prose_problems(page_text(at))
    answer = at.metric[0]
    if FAMILIES[method].fixed_length:  # the learned table: its neighbours, against step 0
        assert answer.label == "Neighbour similarity after training"
        assert f"of {answer.value} on average; at step 0" in reading(at)[0]
    else:  # a fixed method: its loss past the trained length, as the comparison table has it
        row = at.table[-1].value.set_index("method").loc[FAMILIES[method].label]
        assert answer.label == "Loss past position 3" and answer.value == row["windows of 8: positions ≥ 4"]


def test_one_step_and_many_answer_from_their_own_numbers(open_page, job_watch):
    one = trained(open_page, job_watch, steps="1", seed="42")
    many = trained(open_page, job_watch, steps="200", seed="42")
    assert "After 1 step," in reading(one)[0] and "1 step is too few" in reading(one)[0]
    assert "After 200 steps," in reading(many)[0]
    assert one.metric[0].value != many.metric[0].value
    for at in (one, many):
        assert not undefined(at) and not prose_problems(page_text(at))


def test_the_table_the_chart_and_the_caption_agree_on_a_learned_table(open_page, job_watch):
    at = trained(open_page, job_watch, seed="43")
    row = at.table[-1].value.set_index("method").loc["Learned absolute"]
    assert (
        row["windows of 8: positions < 4"] == row["windows of 8: positions ≥ 4"] == "cannot run a window of 8"
    )
    (chart,) = [
        json.loads(c.proto.spec) for c in at.get("vega_lite_chart") if "at each position" in c.proto.spec
    ]
    assert chart["layer"][0]["title"] == (
        "Validation loss at each position of Learned absolute, in windows of 4: a window of 8 cannot run"
    )
    assert chart["layer"][0]["encoding"]["color"]["scale"]["domain"] == ["Learned absolute (windows of 4)"]
    caption = " ".join(c.value for c in at.caption)
    assert "both of its cells for windows of 8 say “cannot run a window of 8”" in caption
    assert (
        "its line on the chart below is its loss in windows of 4, its own length, ending at position 3"
        in caption
    )
    assert "empty of losses" not in caption
