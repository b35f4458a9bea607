"""What the Pipeline, Families, Training and Trained positions pages write, over odd settings: one
sequence, one position, a method that adds nothing, one head, clip 0, few buckets. Every sentence must
pass ``tests.core.prose.prose_problems`` (counts that agree, labels not keys, no "0.0e+00", no "1.0×")."""

import json

import pytest

from core.positional.family import FAMILIES
from core.presets import PRESETS
from tests.core.prose import prose_problems

PAGES = {
    "pages/Pipeline.py": [
        {},
        {"batch": "1", "context": "1", "method": "nope"},
        {"batch": "2", "context": "3", "stride": "1", "method": "rope", "dim": "2"},
        {"batch": "1", "context": "8", "stride": "20", "method": "sinusoidal", "vocab": "257"},
    ],
    "pages/Families.py": [
        {},
        {"context": "1", "heads": "1", "clip": "0", "buckets": "4", "max_distance": "3", "dim": "8"},
        {"context": "2", "heads": "2", "clip": "1", "method": "t5", "dim": "4", "extrapolate": "1"},
        {"method": "rope", "dim": "4", "heads": "2"},
        {"method": "shaw", "clip": "0", "dim": "2", "heads": "2"},
        {"method": "sinusoidal", "context": "1", "dim": "2"},
    ],
    "pages/Training.py": [{}, {"method": "t5"}, {"method": "nope", "steps": "1"}],
    "pages/Trained_positions.py": [{}],
}


def page_text(at) -> str:
    """Every sentence the page shows: markdown, captions, notes, warnings, errors, metric labels, and what
    a screen reader says for each chart (its description)."""
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.error, *at.success]
    charts = [json.loads(c.proto.spec).get("description", "") for c in at.get("vega_lite_chart")]
    return "\n".join([*(p.value for p in parts), *(m.label for m in at.metric), *charts])


@pytest.mark.parametrize(
    "page, params", [(page, params) for page, settings in PAGES.items() for params in settings]
)
def test_every_sentence_reads_at_odd_settings(page, params, open_page):
    at = open_page(page, **params)
    assert not at.exception
    text = page_text(at)
    assert text
    assert not prose_problems(text), prose_problems(text)


def test_a_finished_runs_sentences_read(open_page, job_watch):
    # The results: the loss and the guess from token counts, the learned table's picture, the comparison table
    # and the chart's sentences; a run of one step, and a context of 4 (two positions per half).
    at = open_page("pages/Training.py", steps="1", size="tiny", train_context="4", seed="5")
    at.button(key="train").click().run()
    job_watch.until_finished()
    at.run()
    assert not at.exception
    text = page_text(at)
    assert "1 step," in text and "Guess from token counts" in text and "nats" not in text
    assert "Step 1: " in text  # the picture of the table at the step shown, said from its numbers
    assert "cannot run a window of 8" in text and "Learned absolute stops at position 3" in text
    assert not prose_problems(text), prose_problems(text)


# The lesson's own pages over the settings a student tries: B = 1, 2 and 8, every method, every preset, a
# text of six tokens. Each page's every sentence (the answer's included) must read and quote the lecture
# right.
LESSON_CASES = (
    [("pages/Pipeline.py", {"batch": b, "method": m}) for b in ("1", "2", "8") for m in ("learned", "rope")]
    + [("pages/Pipeline.py", {"preset": p}) for p in PRESETS]
    + [("pages/Pipeline.py", {"source": "paste", "text": "The cat sat on the mat", "context": "4"})]
    + [(page, {"method": m}) for page in ("pages/Why_position.py", "pages/Attention.py") for m in FAMILIES]
    + [("pages/Why_position.py", {"a": "the cat", "b": "the dog"}), ("pages/Start.py", {})]
)


@pytest.mark.parametrize(
    "page, params",
    LESSON_CASES,
    ids=[f"{p[6:-3]}-{'-'.join(f'{k}={v}' for k, v in q.items())}" for p, q in LESSON_CASES],
)
def test_the_lessons_pages_read_at_every_batch_method_and_preset(page, params, open_page):
    at = open_page(page, **params)
    assert not at.exception
    text = page_text(at)
    assert not prose_problems(text), prose_problems(text)


def test_the_books_text_reads_on_the_pipeline(open_page, verdict_text):
    at = open_page()
    at.sidebar.radio(key="source").set_value("paste").run()
    at.sidebar.text_area(key="text").input(verdict_text).run()
    text = page_text(at)
    assert "5,145 token IDs" in text  # the book's count, in the answer
    assert not prose_problems(text), prose_problems(text)


def test_the_misquote_check_finds_a_number_the_lecture_never_said():
    assert prose_problems("The lesson says Python duplicates the values 2 times.") == []  # not the lecture
    assert prose_problems("The lecture says Python duplicates the values 2 times.")
    assert not prose_problems("The lecture, at B = 8, says Python duplicates these values eight times.")
