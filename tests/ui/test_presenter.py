"""Presenter mode: one slide at a time, a prediction before each answer (hidden on every slide that would
show it), feedback on a guess it cannot read, kept through page switches."""

import pytest

from ui.families.close_up import close_up_parts
from ui.families.compare import OVERVIEW_PARTS, logit_parts, similarity_parts


def subheaders(at):
    return [s.value for s in at.subheader]


def progress(at) -> str:
    return at.main.get("progress")[0].proto.text


def test_one_step_at_a_time_with_predict_then_reveal(open_page):
    at = open_page(present="true")
    assert not at.exception and not at.error
    assert subheaders(at) == ["1. Text → token IDs"]
    assert progress(at) == "Section 1 of 17: Text → token IDs"
    assert not at.metric  # the shape stays hidden until revealed
    at.text_input(key="predict_1").input("278").run()
    at.button(key="reveal_1").click().run()
    assert at.metric[0].value == "278"
    assert at.success[0].value == "Right: 278."
    assert subheaders(at) == ["1. Text → token IDs"]  # the heading and the code are drawn once
    assert sum('class="code-line"' in h.proto.body for h in at.main.get("html")) == 1
    at.button(key="next_pipeline").click().run()
    assert progress(at) == "Section 2 of 17: Text → token IDs — the tokens"
    assert subheaders(at) == ["1. Text → token IDs"] and not at.metric  # the tokens, on a slide of their own
    at.button(key="next_pipeline").click().run()
    assert subheaders(at) == ["2. Sliding-window batch"]
    at.text_input(key="predict_2").input("4 x 8").run()
    at.button(key="reveal_2").click().run()
    assert at.warning[0].value == "You predicted 4 × 8; the tensor is 8 × 4."


def test_next_on_an_unrevealed_prediction_reveals_it_then_moves_on(open_page):
    at = open_page(present="true")
    at.button(key="next_pipeline").click().run()  # nothing typed: an empty guess is a guess
    assert progress(at) == "Section 1 of 17: Text → token IDs"  # revealed, not moved
    assert at.metric[0].value == "278" and not at.main.text_input
    assert at.info[0].value == "No guess was typed. The tensor is 278."
    at.button(key="next_pipeline").click().run()
    assert progress(at) == "Section 2 of 17: Text → token IDs — the tokens"
    assert not at.main.text_input and not at.button(key="next_pipeline").disabled  # no prompt again
    at.button(key="next_pipeline").click().run()
    at.text_input(key="predict_2").input("8 x 4").run()
    at.button(key="next_pipeline").click().run()  # Next takes the guess as Reveal would
    assert progress(at).startswith("Section 3 of 17") and at.success[0].value == "Right: 8 × 4."
    at.button(key="prev_pipeline").click().run()  # back never reveals: it moves
    assert progress(at).startswith("Section 2 of 17")


def test_each_later_slide_of_a_prediction_shows_its_content_never_the_prompt(open_page):
    at = open_page(present="true")
    for _ in range(40):  # to the last slide by Next alone, two presses where a prediction is
        assert not at.exception
        part = progress(at).split(": ", 1)[1]
        if " — " in part:  # a later slide of its section: its content, no question
            assert not at.main.text_input, part
        if at.button(key="next_pipeline").disabled:
            break
        at.button(key="next_pipeline").click().run()
    assert progress(at) == "Section 17 of 17: Follow one token"


@pytest.mark.parametrize(
    "slide, shown",
    [
        ("5.2", "Section 13 of 17: Broadcasting add — the picture"),
        ("3.3", "Section 8 of 17: Token embedding lookup — the values"),
    ],
)
def test_a_link_to_a_later_slide_of_a_prediction_opens_that_slide(slide, shown, open_page):
    at = open_page(present="true", slide=slide)  # another browser, or a reload
    assert progress(at) == shown and not at.exception
    assert not at.main.text_input and not [b for b in at.button if b.key.startswith("reveal_")]
    assert at.get("vega_lite_chart") or at.table or at.main.get("image")  # the slide's own content
    number = slide.split(".")[0]
    at.button(key="prev_pipeline").click().run()
    while not progress(at).endswith(at.main.subheader[0].value.split(". ", 1)[1]):
        at.button(key="prev_pipeline").click().run()
    assert f"reveal_{number}" not in [b.key for b in at.button]  # passed by the link: not asked again
    assert at.metric and not at.info and not at.success and not at.warning  # no guess, so no verdict


def test_a_link_to_why_position_s_shared_tokens_opens_their_table(open_page):
    at = open_page("pages/Why_position.py", present="true", slide="2.2")
    assert progress(at) == "Section 3 of 5: The same token, two positions — every shared token"
    assert len(at.table) == 1 and not at.main.text_input


def test_the_example_in_the_question_is_never_the_answer(open_page):
    at = open_page(present="true")
    at.session_state["slide_pipeline"] = 3  # token_embeddings: 8 × 4 × 256 at the book's settings
    at.run()
    label = at.text_input(key="predict_3").label
    assert "2 × 3 × 5" in label and "8 × 4 × 256" not in label and "[8, 4, 256]" not in label


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


def test_a_shape_it_cannot_read_says_what_and_gives_an_example(open_page):
    at = open_page(present="true")
    at.session_state["slide_pipeline"] = 3
    at.run()
    at.text_input(key="predict_3").input("8 by 4 by 256").run()
    before = at.warning[0].value  # under the box, as soon as it is typed: nothing revealed
    assert before.startswith("Could not read “by” as a size")
    assert "for example 2 × 3 × 5" in before and not at.metric
    at.button(key="reveal_3").click().run()
    assert at.warning[0].value.endswith("The tensor is 8 × 4 × 256.")
    assert "Could not read “by”" in at.warning[0].value and not at.success


def test_a_guess_is_never_echoed_as_markdown(open_page):
    at = open_page(present="true")
    at.text_input(key="predict_1").input("**bold** [x](javascript:alert(1))").run()
    at.button(key="reveal_1").click().run()
    assert not at.success  # nothing read, so no verdict on it
    message = at.warning[0].value
    assert message.startswith("Could not read “bold” and “javascript\\:alert” as a size\\.")  # escaped
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
    at.button(key="next_pipeline").click().run()  # reveals step 1's shape
    at.button(key="next_pipeline").click().run()
    assert not at.button(key="prev_pipeline").disabled
    at.button(key="prev_pipeline").click().run()
    assert progress(at) == "Section 1 of 17: Text → token IDs"


def test_presenter_mode_survives_a_page_switch(open_page):
    at = open_page(present="true")
    at.switch_page("pages/Families.py").run()
    assert at.sidebar.toggle(key="present").value
    assert at.query_params["present"] in (["true"], "true")


def test_why_position_names_the_token_and_hides_the_cosine_until_revealed(open_page):
    at = open_page("pages/Why_position.py", present="true")
    assert at.sidebar.text_input(key="a").value == "The cat sat on the mat"  # typed in the sidebar
    assert progress(at) == "Section 1 of 5: Two sentences"
    assert not at.metric and not at.table
    at.button(key="next_why").click().run()
    question = at.text_input(key="predict_why_1").label
    assert question.startswith("Predict the cosine of ' cat' in A (position 1) and ' cat' in B (position 4)")
    assert not at.metric and not at.table  # no answer above or below the question
    at.text_input(key="predict_why_1").input("0.5").run()
    at.button(key="next_why").click().run()  # Next reveals first, with the guess typed
    assert progress(at) == "Section 2 of 5: The same token, two positions"
    assert [m.value for m in at.metric][0] == "1.000000"
    assert at.warning[0].value == "You predicted 0.5; the answer is 1.000000."
    at.button(key="next_why").click().run()
    assert progress(at) == "Section 3 of 5: The same token, two positions — every shared token"
    assert len(at.table) == 1 and not at.dataframe  # presenting: a table that wraps to the screen
    assert list(at.table[0].value.columns[:2]) == ["token", "ID"]


def test_why_position_a_number_it_cannot_read(open_page):
    at = open_page("pages/Why_position.py", present="true")
    at.session_state["slide_why"] = 2
    at.run()
    at.text_input(key="predict_why_1").input("about one").run()
    assert at.warning[0].value == (
        "Could not read “about one” as a number\\. Write it in digits, for example 0\\.5 or −0\\.25\\."
    )
    at.button(key="reveal_why_1").click().run()
    assert at.warning[0].value.endswith("The answer is 1.000000.")


def test_trained_positions_asks_for_the_neighbour_similarity_first(open_page):
    at = open_page("pages/Trained_positions.py", present="true")
    assert progress(at) == "Section 1 of 7: A table that training changed"
    at.button(key="next_trained").click().run()
    assert not at.metric and not at.get("vega_lite_chart")  # one section, its answer hidden
    at.text_input(key="predict_trained_1").input("0.9").run()
    at.button(key="reveal_trained_1").click().run()
    assert at.metric[0].value == "0.85"
    assert at.success[0].value.startswith("You predicted 0.9; the answer is 0.85")
    assert at.success[0].value.endswith("right!")
    at.button(key="next_trained").click().run()
    assert subheaders(at) == ["1. Three tables of the same shape"]
    assert len(at.get("vega_lite_chart")) == 3  # the three tables in a row; their similarity next


def test_families_comes_a_part_at_a_time_with_its_settings_in_the_sidebar(open_page):
    at = open_page("pages/Families.py", present="true", method="rope")
    assert at.sidebar.number_input(key="heads").value == 8  # the family settings wait in the sidebar
    sections = [OVERVIEW_PARTS, logit_parts(), similarity_parts(None, None), close_up_parts("rope")]
    total = sum(len(parts) for parts in sections)
    assert progress(at) == f"Section 1 of {total}: 7 families — what each gives"
    seen = []
    for _ in range(total - 1):
        at.button(key="next_families").click().run()
        assert not at.exception
        seen.append(progress(at).split(": ", 1)[1])
    assert seen[-1] == "Close-up: RoPE — two pairings"
    assert at.button(key="next_families").disabled


def test_training_shows_one_section_at_a_time(open_page):
    at = open_page("pages/Training.py", present="true")
    assert not at.exception
    assert at.sidebar.number_input(key="steps").value == 300  # its settings wait in the sidebar
    assert "Every method on this text" not in subheaders(at)
    at.button(key="next_training").click().run()
    assert progress(at) == "Section 2 of 5: Train one model — the loss"
    assert at.info[0].value.startswith("No finished run to show yet")
    at.session_state["slide_training"], at.session_state["part_training"] = 2, 0
    at.run()
    assert subheaders(at) == ["Every method on this text"]
    assert "train" not in [b.key for b in at.button]  # the Train button belongs to section 1
    captions = " ".join(c.value for c in at.caption)
    assert "The methods: **NoPE** (" in captions and "Past the trained length" not in captions
    at.button(key="next_training").click().run()  # the table again, with what its cells past T mean
    assert progress(at) == "Section 5 of 5: Every method on this text — past the trained length"
    captions = " ".join(c.value for c in at.caption)
    assert "The methods:" not in captions and "Past the trained length: each model reads windows" in captions
    assert len(at.table) == 1


def test_presenting_the_families_overview_wraps_its_facts_in_the_projector_s_type(open_page):
    # a grid in presenter type cut the right-hand columns off at 1280 px; an HTML table wraps them
    at = open_page("pages/Families.py", present="true")
    assert not at.exception and not at.error
    table = at.table[0].value
    assert list(table.index) == [
        "NoPE",
        "▶ Learned absolute",  # the sidebar's method
        "Sinusoidal",
        "Shaw relative",
        "T5 bias",
        "ALiBi",
        "RoPE",
    ]
    assert "source" not in table.columns and "numbers to train" in table.columns
    assert not at.dataframe
    past = open_page("pages/Families.py", present="true", slide="1.2").table[0].value
    assert list(past.columns) == ["kind", "past the trained length (T = 4)"]
    normal = open_page("pages/Families.py")
    assert "source" in normal.table[0].value.columns


def slide_in_url(at) -> str | None:
    value = at.query_params.get("slide")
    return value[-1] if isinstance(value, list) else value


def test_the_slide_shown_is_in_the_url_and_a_link_opens_on_it(open_page):
    at = open_page(present="true")
    assert slide_in_url(at) == "1.1"  # section 1 has two parts
    for _ in range(10):  # 7 slides on, and steps 1 to 3's shapes revealed on the way
        at.button(key="next_pipeline").click().run()
    assert progress(at) == "Section 8 of 17: Token embedding lookup — the values"
    assert slide_in_url(at) == "3.3"
    at.button(key="prev_pipeline").click().run()
    assert slide_in_url(at) == "3.2"
    link = open_page(present="true", slide="3.2")  # another browser opening the copied link
    assert progress(link) == "Section 7 of 17: Token embedding lookup — the lookup"
    assert not link.exception and not link.warning


@pytest.mark.parametrize(
    "slide, shown",
    [
        ("99", "Section 17 of 17: Follow one token"),  # past the last section: the last
        ("2.99", "Section 5 of 17: Sliding-window batch — inputs and targets"),  # past its last part
        ("4", "Section 9 of 17: Positional embedding"),  # a section of parts: its first
    ],
)
def test_a_slide_past_the_end_is_clamped(slide, shown, open_page):
    at = open_page(present="true", slide=slide)
    assert progress(at) == shown and not at.exception and not at.warning


def test_a_slide_that_is_no_section_number_falls_back_to_the_first(open_page):
    at = open_page(present="true", slide="three")
    assert progress(at) == "Section 1 of 17: Text → token IDs" and not at.exception
    assert "URL parameter **slide** = “three” is not a section number" in at.warning[0].value


def test_the_slide_is_in_the_url_only_while_presenting(open_page):
    at = open_page(present="true", slide="3")
    at.sidebar.toggle(key="present").set_value(False).run()
    assert slide_in_url(at) is None
    assert len(subheaders(at)) == 6  # every step
    plain = open_page(slide="3")  # a link that is not presenting: the slide means nothing
    assert slide_in_url(plain) is None and not plain.warning and len(subheaders(plain)) == 6


def test_each_page_keeps_its_own_slide_in_the_url(open_page):
    at = open_page(present="true", slide="2")
    at.switch_page("pages/Why_position.py").run()
    assert progress(at) == "Section 1 of 5: Two sentences"  # not the Pipeline's slide
    assert slide_in_url(at) == "1"
    at.button(key="next_why").click().run()
    assert slide_in_url(at) == "2.1"
    at.switch_page("pages/Pipeline.py").run()
    assert progress(at).startswith("Section 3 of 17") and slide_in_url(at) == "2.1"
    at.switch_page("pages/Why_position.py").run()
    assert slide_in_url(at) == "2.1" and progress(at).startswith("Section 2 of 5")


def test_a_cosine_is_answered_to_the_digits_its_page_shows(open_page):
    at = open_page("pages/Trained_positions.py", present="true")
    at.session_state["slide_trained"] = 2
    at.run()
    at.text_input(key="predict_trained_1").input("-0.5").run()
    at.button(key="reveal_trained_1").click().run()
    verdict = at.warning[0].value
    shown = at.metric[0].value  # the answer's metric, two decimals
    assert verdict == f"You predicted -0.5; the answer is {shown}."


def test_the_broadcasting_step_asks_for_input_embeddings_and_says_what_0_b_means(open_page):
    at = open_page(present="true")
    at.session_state["slide_pipeline"] = 5
    at.run()
    label = at.text_input(key="predict_5").label
    assert label.startswith("Predict the shape of `input_embeddings`") and "broadcast" not in label
    at.button(key="reveal_5").click().run()
    assert [m.value for m in at.metric] == ["8 × 4 × 256", "0", "0 B"]
    note = " ".join(c.value for c in at.main.caption)
    assert "Extra memory 0 B: the positional rows are not copied" in note
    assert "input_embeddings (step 6), does hold 8×4×256 values" in note


def test_the_start_page_presents_the_route_on_one_screen(open_page):
    at = open_page("pages/Start.py", present="true")
    assert not at.exception
    titles = [link.proto.label for link in at.main.get("page_link")]
    assert len(titles) == 8 and titles[0] == "**1. Why position?**"
    assert "How to use it" not in subheaders(at)  # a projector's screen holds the route alone


@pytest.mark.parametrize("page", ["pages/Start.py", "pages/Pipeline.py", "pages/Training.py"])
def test_the_switch_is_the_first_thing_in_the_sidebar(page, open_page):
    at = open_page(page)
    first = next(node for node in at.sidebar if node.type != "sidebar")
    assert first.type == "toggle" and first.key == "present" and first.label == "Presenter mode"


def test_the_start_page_says_how_to_present(open_page):
    at = open_page("pages/Start.py")
    text = " ".join(m.value for m in at.main.markdown)
    assert "turn on **Presenter mode** at the top of the sidebar" in text  # the switch's name and where
    assert "a clicker's → (or Page Down, Space) reveals the answer and moves on, ← goes back" in text
    assert "a link with `?present=true` opens a page already presenting" in text
    link = open_page("pages/Start.py", present="true")  # what the sentence promises
    assert link.sidebar.toggle(key="present").value


def test_step_1_shows_the_text_before_asking_for_its_token_ids(open_page):
    at = open_page(present="true")
    said = [m.value for m in at.main.markdown]
    lead = next(m for m in said if m.startswith("The text, sample"))
    assert "characters), begins: “" in lead and lead.endswith("…”")  # its first words, not all of it
    assert "278" not in " ".join(said)  # the answer: the number of tokens
    assert at.main.text_input[0].key == "predict_1"
    pasted = open_page(present="true", text="**bold** [l](javascript:alert(1)) $x$")
    lead = next(m.value for m in pasted.main.markdown if m.value.startswith("The text, pasted text"))
    assert "\\*\\*bold\\*\\*" in lead and "\\$x\\$" in lead  # a pasted text stays text
