"""Presenter mode: one step at a time, a prediction before each shape."""

from tests.ui.test_pages import open_page


def subheaders(at):
    return [s.value for s in at.subheader]


def test_one_step_at_a_time_with_predict_then_reveal():
    at = open_page(present="1")
    assert not at.exception and not at.error
    assert subheaders(at) == ["1. Text → token IDs"]
    assert not at.metric  # the shape stays hidden until revealed
    at.text_input(key="predict_1").input("278").run()
    at.button(key="reveal_1").click().run()
    assert at.metric[0].value == "278"
    assert "right!" in at.success[0].value
    at.button(key="present_next").click().run()
    assert subheaders(at) == ["2. Sliding-window batch"]
    at.text_input(key="predict_2").input("4 x 8").run()
    at.button(key="reveal_2").click().run()
    assert "the tensor is 8 × 4" in at.warning[0].value


def test_normal_mode_shows_every_step():
    at = open_page()
    assert len(subheaders(at)) == 6
    assert not at.sidebar.toggle(key="present_toggle").value


def test_previous_is_enabled_after_next():
    at = open_page(present="1")
    at.button(key="present_next").click().run()
    assert not at.button(key="present_prev").disabled
    at.button(key="present_prev").click().run()
    assert subheaders(at) == ["1. Text → token IDs"]
