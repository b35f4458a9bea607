"""The answer, in short: under its question each page answers it in plain words with the number that
answers it, derived from the page's own numbers; where the method changes the answer, one click on a
method's button changes it."""

import pytest

from core.positional.family import FAMILIES
from tests.ui.conftest import answer_block, page_metrics


def answer_of(at) -> tuple[str, str, str]:
    """The answer box's words, its number's label and its number."""
    box = answer_block(at)
    assert box is not None, "the page has no answer box"
    (metric,) = box.get("metric")
    heading, words, *_ = (m.value for m in box.get("markdown"))  # then, maybe, the methods' line
    assert heading == "**The answer, in short**"
    return words, metric.label, metric.value


def test_why_position_answers_yes_for_the_embedding_layer_and_gives_the_input_vectors_cosine(open_page):
    at = open_page("pages/Why_position.py")
    words, label, number = answer_of(at)
    evidence = page_metrics(at)
    assert label.replace("\\", "") == "' cat': cosine of its input vectors, A vs B"
    assert number == evidence[1].value == "0.483638"  # the section's own number
    # The question asks about the embedding layer: yes, the same vector; the input vectors then differ.
    assert words.startswith("Yes: the embedding layer gives ' cat' the same vector in A and in B")
    assert "That is why positions are added" in words and "position 1 in A and position 4 in B" in words
    assert "(a row a model trained at context 4 would not have)" in words  # position 4 of a 4-row table
    assert "exact number is chance" in words  # the table is random: the number's value is not the method's

    seeded = open_page("pages/Why_position.py", seed="5")
    assert answer_of(seeded)[2] == page_metrics(seeded)[1].value != number  # a setting changes it


@pytest.mark.parametrize("method", ["rope", "alibi", "t5", "shaw"])
def test_a_relative_method_answers_yes_at_the_input_and_names_its_pair_in_attention(method, open_page):
    at = open_page("pages/Why_position.py", method=method)
    words, _, number = answer_of(at)
    assert number == "1.000000" and words.startswith("Yes:") and "adds nothing to the input either" in words
    assert "later, in **attention**" in words
    # The pair whose distance the move kept: the same change in A and B, as section 1's metric says.
    assert "the same distance, the same change, although ' cat' moved" in words
    kept = page_metrics(at)[1].value  # the section's term of that pair
    assert f"by {kept} in A and {kept} in B" in words
    assert ("random and untrained" in words) == (method != "alibi")  # only ALiBi's term is exact


def test_nope_answers_yes_and_credits_order_to_the_causal_mask(open_page):
    words, _, number = answer_of(open_page("pages/Why_position.py", method="nope"))
    assert number == "1.000000" and "causal mask" in words and "see 2 tokens in A and 5 in B" in words


def test_a_methods_button_in_the_answer_sets_the_sidebars_method(open_page):
    at = open_page("pages/Why_position.py")
    at.button(key="answer_rope").click().run()
    assert not at.exception
    assert at.sidebar.selectbox(key="method").value == "rope" and at.query_params["method"] == "rope"
    words, _, number = answer_of(at)
    assert number == "1.000000" and "**RoPE** (rotary position embedding" in words
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


def test_the_pipeline_answers_with_every_steps_shape_parameters_and_bytes_exact(open_page):
    at = open_page("pages/Pipeline.py")
    words, label, number = answer_of(at)
    assert (label, number) == ("`input_embeddings` shape", "8 × 4 × 256")
    assert "278 token IDs" in words and "69 windows of 4 tokens" in words
    assert "positions 0 … 3 (the lecture's positions 1 to 4: Python counts from 0)" in words
    steps = answer_block(at).get("table")[0].value
    assert list(steps["shape"]) == ["278", "8 × 4", "8 × 4 × 256", "4 × 256", "8 × 4 × 256", "8 × 4 × 256"]
    assert list(steps["parameters"]) == ["0", "0", "12,865,792", "1,024", "0", "0"]
    assert list(steps["bytes"]) == ["2,224", "256", "32,768", "4,096", "0 extra", "32,768"]
    assert [m.value for m in page_metrics(at)][:3] == ["278", "0", "2.2 kB"]  # the evidence rounds them

    smaller = answer_of(open_page("pages/Pipeline.py", batch="2"))  # a setting changes the answer
    assert smaller[2] == "2 × 4 × 256" and "2 to a batch" in smaller[0]


def test_the_gpt3_presets_tables_are_exact_on_screen(open_page):
    at = open_page("pages/Pipeline.py", preset="gpt3-175b")
    assert answer_of(at)[2] == "4 × 2,048 × 12,288"  # the long sample makes 4 windows of 2,048
    panel = next(t.value for t in at.table if "bytes in bf16" in t.value.columns)
    assert list(panel["parameters"])[:3] == ["617,558,016", "25,165,824", "642,723,840"]
    steps = answer_block(at).get("table")[0].value
    assert list(steps["parameters"])[2:4] == ["617,558,016", "25,165,824"]
    assert list(steps["bytes"])[-1] == "402,653,184"
    note = " ".join(i.value for i in at.info)  # the token table alone, not the two tables of the panel
    assert (
        "the token table alone (without the position table) would take 2,470,232,064 bytes (2.5 GB)" in note
    )


@pytest.mark.parametrize("method", ["rope", "alibi", "nope"])
def test_a_method_without_a_table_says_where_position_enters_and_why_zeros_cost_0_b(method, open_page):
    at = open_page("pages/Pipeline.py", method=method)
    words, _, _ = answer_of(at)
    assert "adds nothing at the input" in words
    info = " ".join(i.value for i in at.info).replace("\\", "")
    assert "writes `torch.zeros(4, 256)` only so that the lesson's add still runs" in info
    assert "that would take 4,096 bytes in the script" in info and "0 parameters and 0 B" in info
    assert "Families side by side" not in info
    links = [link.proto.label for link in at.main.get("page_link")]
    assert (f"Where {FAMILIES[method].label} acts: Attention" in links) == (method != "nope")
    assert [b.label for b in answer_block(at).get("button")] == ["Learned absolute", "Sinusoidal"]


@pytest.mark.parametrize(
    "batch, says",
    [
        ("8", "Python duplicates these values eight times, and"),
        ("2", "eight times; with B = 2 here, it is 2 times"),
    ],
)
def test_broadcasting_quotes_the_lectures_eight_at_any_batch(batch, says, open_page):
    at = open_page("pages/Pipeline.py", batch=batch)
    text = " ".join(m.value for m in at.markdown)
    assert says in text and "The lecture, at B = 8" in text
    assert "duplicates the values 2 times" not in text and "implicit leading axis" not in text


def test_a_token_of_two_hyphens_reads_the_same_on_its_chip_and_in_the_drawing():
    from ui.token_chips import chip_label

    label = chip_label("--", 438)
    assert label.replace("\u200b", "").lstrip().startswith("\\-\\-")  # two hyphens, never an em dash


def test_a_text_too_short_for_a_window_answers_why(open_page):
    words, label, number = answer_of(open_page("pages/Pipeline.py", source="paste", text="Hi", context="4"))
    assert (label, number) == ("windows", "0") and "one window of T = 4 needs 5" in words


def test_attention_answers_inside_attention_with_alibis_number_three_tokens_back(open_page):
    at = open_page("pages/Attention.py", method="alibi")
    words, label, number = answer_of(at)
    assert (label, number) == (
        "ALiBi, a key 3 tokens back (head 1 of 8)",
        "-1.5",
    )  # slope 1/2, once only a hover
    assert words.startswith("Inside **attention**") and "+0, -0.5, -1, -1.5, -2, -2.5" in words
    assert [b.label for b in answer_block(at).get("button")] == ["Learned absolute", "Sinusoidal"]
    other_head = answer_of(open_page("pages/Attention.py", method="alibi", head="2"))
    assert other_head[2] == "-0.75"  # head 2's slope 1/4: the answer follows the settings


def test_attention_answers_with_ropes_term_on_the_pair_section_3_shows(open_page):
    at = open_page("pages/Attention.py", method="rope")
    words, label, number = answer_of(at)
    assert label.replace("\\", "") == "RoPE, ' sat' → ' cat' in A"  # the pair at one distance in A and B
    section_3 = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert f"the RoPE term is {number} in both" in section_3
    assert "For the same two tokens only their distance counts" in words
    assert words.count("turns the vectors") == 1  # said once, in RoPE's definition
    assert "the same distance, the same change" in words and "random and untrained" in words


def test_an_absolute_method_answers_not_inside_attention_but_at_the_input(open_page):
    at = open_page("pages/Attention.py", method="sinusoidal")
    words, _, _ = answer_of(at)
    assert words.startswith("Inside **attention**")  # the question's answer first, then the method's
    assert (
        "Sinusoidal, the sidebar's method, is not one of them: it adds position to the input embeddings"
        in words
    )
    assert [b.label for b in answer_block(at).get("button")] == ["Shaw relative", "T5 bias", "ALiBi", "RoPE"]


def test_nope_answers_that_only_the_mask_tells_positions_apart(open_page):
    words, label, number = answer_of(open_page("pages/Attention.py", method="nope"))
    assert (label, number) == (
        "tokens the moved token sees in B",
        "5",
    ) and "sees 2 tokens in A and 5 in B" in words


def test_the_sinusoids_signature_joins_the_families_pages_distance_only_similarity(open_page):
    # Families: the sinusoid's vectors' similarity depends only on |i − j|; here its scores do not: say why.
    at = open_page("pages/Attention.py")
    line = next(c.value for c in at.caption if c.value.startswith("Sinusoidal changes the scores"))
    assert "not only on i − j (its position vectors are added to the tokens' before the query and key" in line


def test_ropes_key_fact_says_for_which_vectors_the_score_depends_only_on_the_distance(open_page):
    at = open_page("pages/Attention.py", method="rope")
    fact = next(i.value for i in at.info if i.value.startswith("RoPE turns"))
    assert "for the same two vectors the score depends only on the distance i − j" in fact
    assert (
        "the tokens differ, so the scores differ there" in fact
    )  # section 4's "not the same along a diagonal"
