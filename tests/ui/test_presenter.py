"""Presenter mode: one section at a time, a prediction before each shape, kept through page switches."""

import pytest


def subheaders(at):
    return [s.value for s in at.subheader]


def test_one_step_at_a_time_with_predict_then_reveal(open_page):
    at = open_page(present="true")
    assert not at.exception and not at.error
    assert subheaders(at) == ["1. Text → token IDs"]
    assert not at.metric  # the shape stays hidden until revealed
    at.text_input(key="predict_1").input("278").run()
    at.button(key="reveal_1").click().run()
    assert at.metric[0].value == "278"
    assert at.success[0].value == "Right: 278."
    assert subheaders(at) == ["1. Text → token IDs"]  # the heading and the code are drawn once
    assert len(at.main.code) == 1
    at.button(key="next_pipeline").click().run()
    assert subheaders(at) == ["2. Sliding-window batch"]
    at.text_input(key="predict_2").input("4 x 8").run()
    at.button(key="reveal_2").click().run()
    assert at.warning[0].value == "You predicted 4 × 8; the tensor is 8 × 4."


@pytest.mark.parametrize(
    "guess", ["8 × 4 × 256", "8x4x256", "[8, 4, 256]", "(8, 4, 256)", "torch.Size([8, 4, 256])"]
)
def test_every_way_of_writing_the_shape_is_right(guess, open_page):
    at = open_page(present="true")
    at.session_state["slide_pipeline"] = 3
    at.run()
    at.text_input(key="predict_3").input(guess).run()
    at.button(key="reveal_3").click().run()
    assert at.success[0].value == "Right: 8 × 4 × 256."


def test_a_guess_is_never_echoed_as_markdown(open_page):
    at = open_page(present="true")
    at.text_input(key="predict_1").input("**bold** [x](javascript:alert(1))").run()
    at.button(key="reveal_1").click().run()
    assert not at.success and not at.warning  # nothing to read: no verdict, just the answer
    assert at.metric[0].value == "278"


def test_normal_mode_shows_every_step(open_page):
    at = open_page()
    assert len(subheaders(at)) == 6
    assert not at.sidebar.toggle(key="present").value


def test_old_links_with_present_1_still_present(open_page):
    at = open_page(present="1")
    assert at.sidebar.toggle(key="present").value
    assert subheaders(at) == ["1. Text → token IDs"]


def test_previous_is_enabled_after_next(open_page):
    at = open_page(present="true")
    at.button(key="next_pipeline").click().run()
    assert not at.button(key="prev_pipeline").disabled
    at.button(key="prev_pipeline").click().run()
    assert subheaders(at) == ["1. Text → token IDs"]


def test_presenter_mode_survives_a_page_switch(open_page):
    at = open_page(present="true")
    at.switch_page("pages/Families.py").run()
    assert at.sidebar.toggle(key="present").value
    assert at.query_params["present"] in (["true"], "true")


def test_trained_positions_asks_for_the_neighbour_similarity_first(open_page):
    at = open_page(present="true")
    at.switch_page("pages/Trained_positions.py").run()
    assert not at.metric and not at.get("vega_lite_chart")  # one section, its answer hidden
    at.text_input(key="predict_trained_1").input("0.9").run()
    at.button(key="reveal_trained_1").click().run()
    assert at.metric[0].value == "0.85"
    assert at.success[0].value.startswith("You predicted 0.9; the answer is 0.85")
    assert at.success[0].value.endswith("right!")
    at.button(key="next_trained").click().run()
    assert subheaders(at) == ["1. Three tables of the same shape"]


def test_training_shows_one_section_at_a_time(open_page):
    at = open_page(present="true")
    at.switch_page("pages/Training.py").run()
    assert not at.exception
    assert "Every method on this text" not in subheaders(at)
    at.button(key="next_training").click().run()
    assert subheaders(at) == ["Every method on this text"]
    assert "train" not in [b.key for b in at.button]  # the Train button belongs to section 1
