"""The Training page's extrapolation chart: every method's loss at each position, to 2T, with a title that
names the windows each line is read in (the learned table's of T), and a page that reads."""

import json

from core.positional.family import FAMILIES
from core.training.model import trainable_methods
from tests.core.prose import prose_problems
from tests.ui.test_page_sentences import page_text
from tests.ui.visible_text import undefined_words


def test_every_trained_method_is_drawn_to_twice_t_and_the_learned_table_stops_at_t(open_page, job_watch):
    at = open_page("pages/Training.py", steps="20", size="tiny", train_context="8", seed="3")
    at.button(key="train_all").click().run()
    for _ in trainable_methods():  # one run after another: the page asks for the next as each ends
        job_watch.until_finished()
        at.run()
    assert not at.exception
    charts = [
        json.loads(c.proto.spec) for c in at.get("vega_lite_chart") if "at each position" in c.proto.spec
    ]
    assert len(charts) == 1
    assert charts[0]["layer"][0]["title"] == (
        "Validation loss at each position, in windows of 16 (twice the trained length); Learned absolute in "
        "windows of 8"
    )
    text = " ".join(m.value for m in at.markdown)
    assert (
        "Learned absolute stops at position 7: its table has no row for 8, so it cannot run a window of 16"
        in text
    )
    for method in trainable_methods():
        if method != "learned":
            assert f"{FAMILIES[method].label}: mean " in text and "past them: it " in text
    assert not prose_problems(page_text(at)), prose_problems(page_text(at))
    assert not undefined_words(at), undefined_words(at)
