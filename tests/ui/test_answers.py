"""The answer, in short: under its question each page answers it in plain words with the number that
answers it, derived from the page's own numbers; where the method changes the answer, one click on a
method's button changes it."""

import pytest

from tests.ui.conftest import answer_block, page_metrics


def answer_of(at) -> tuple[str, str, str]:
    """The answer box's words, its number's label and its number."""
    box = answer_block(at)
    assert box is not None, "the page has no answer box"
    (metric,) = box.get("metric")
    heading, words, *_ = (m.value for m in box.get("markdown"))  # then, maybe, the methods' line
    assert heading == "**The answer, in short**"
    return words, metric.label, metric.value


def test_why_position_answers_no_with_the_cosine_its_section_shows(open_page):
    at = open_page("pages/Why_position.py")
    words, label, number = answer_of(at)
    evidence = page_metrics(at)
    assert label.replace("\\", "") == "cosine of ' cat' in A and in B, with positions"
    assert number == evidence[1].value == "0.483638"  # the section's own number
    assert (
        words.startswith("No: not once positions are added.")
        and "position 1 in A and position 4 in B" in words
    )
    assert "exact number is chance" in words  # the table is random: the number's value is not the method's

    seeded = open_page("pages/Why_position.py", seed="5")
    assert answer_of(seeded)[2] == page_metrics(seeded)[1].value != number  # a setting changes it


@pytest.mark.parametrize("method", ["rope", "alibi", "t5", "shaw"])
def test_a_relative_method_answers_yes_at_the_input_and_names_its_pair_in_attention(method, open_page):
    at = open_page("pages/Why_position.py", method=method)
    words, _, number = answer_of(at)
    assert number == "1.000000" and words.startswith("Yes:")
    assert "later, in **attention**" in words and "to how strongly it attends" in words
    terms = [m.value for m in page_metrics(at)[1:]]  # the section's pair terms: the answer quotes one
    assert any(t in words for t in terms)


def test_nope_answers_yes_and_credits_order_to_the_causal_mask(open_page):
    words, _, number = answer_of(open_page("pages/Why_position.py", method="nope"))
    assert number == "1.000000" and "causal mask" in words and "see 2 tokens in A and 5 in B" in words


def test_a_methods_button_in_the_answer_sets_the_sidebars_method(open_page):
    at = open_page("pages/Why_position.py")
    at.button(key="answer_rope").click().run()
    assert not at.exception
    assert at.sidebar.selectbox(key="method").value == "rope" and at.query_params["method"] == "rope"
    words, _, number = answer_of(at)
    assert number == "1.000000" and words.startswith("Yes: RoPE adds nothing")
    assert [b.label for b in answer_block(at).get("button")] == ["Learned absolute", "Sinusoidal"]


def test_no_moved_token_answers_with_zero_and_says_why(open_page):
    words, label, number = answer_of(open_page("pages/Why_position.py", a="the cat", b="the dog"))
    assert (label, number) == ("shared tokens that moved", "0") and "nothing to compare" in words


def test_presenting_shows_no_answer_box(open_page):
    assert answer_block(open_page("pages/Why_position.py", present="true")) is None


def test_a_method_change_says_why_the_preset_is_now_custom(open_page):
    at = open_page("pages/Why_position.py")
    assert at.sidebar.selectbox(key="preset").value == "book"
    at.sidebar.selectbox(key="method").set_value("rope").run()
    assert at.sidebar.selectbox(key="preset").value == "custom"
    notes = [c.value for c in at.sidebar.caption]
    assert (
        "Custom settings: you changed Positional method, which The book's setting (ch. 2.8) sets to Learned "
        "absolute. Choose the preset again to get all of its values back." in notes
    )
    at.sidebar.number_input(key="dim").set_value(64).run()  # a second edit: still the first reason
    assert any("you changed Positional method" in n for n in [c.value for c in at.sidebar.caption])
