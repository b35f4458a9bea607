import pytest

from core.prediction import (
    example_shape,
    number_problem,
    parse_number,
    parse_shape,
    position_problem,
    shape_problem,
)


@pytest.mark.parametrize(
    "text",
    [
        "8 × 4 × 256",
        "8x4x256",
        "8 X 4 X 256",
        "8*4*256",
        "[8, 4, 256]",
        "(8, 4, 256)",
        "torch.Size([8, 4, 256])",
        "8 4 256",
        " [8,4,256] ",
    ],
)
def test_every_usual_way_of_writing_a_shape(text):
    assert parse_shape(text) == (8, 4, 256)


def test_thousands_separators_between_times_signs():
    assert parse_shape("8 × 2,048 × 12,288") == (8, 2048, 12288)
    assert parse_shape("[8, 2048, 12288]") == (8, 2048, 12288)


@pytest.mark.parametrize(
    "text, shape", [("278", (278,)), ("torch.Size([278])", (278,)), ("(4, 256)", (4, 256))]
)
def test_short_shapes(text, shape):
    assert parse_shape(text) == shape


@pytest.mark.parametrize("text", ["", "   ", "eight by four", "8 × four", "[8, -4]", "8.5 x 4", "[]"])
def test_no_shape_to_read(text):
    assert parse_shape(text) is None


def test_numbers():
    assert parse_number("1") == 1.0
    assert parse_number(" 0.98 ") == 0.98
    assert parse_number("−0.5") == -0.5
    assert parse_number("1,000") == 1000.0
    assert parse_number("one") is None


def test_nan_and_infinity_are_not_predictions():
    assert parse_number("nan") is None
    assert parse_number("inf") is None
    assert parse_number("-infinity") is None


def test_an_example_is_never_the_answer():
    assert example_shape((8, 4, 256)) == "2 × 3 × 5"
    assert example_shape((2, 3, 5)) == "3 × 5 × 7"


def test_a_shape_that_reads_or_is_empty_has_no_problem():
    assert shape_problem("8 × 4 × 256", (8, 4, 256)) is None
    assert shape_problem("[2, 3]", (8, 4, 256)) is None  # wrong, but read
    assert shape_problem("  ", (8, 4, 256)) is None


def test_a_shape_names_what_it_could_not_read_and_gives_an_example():
    message = shape_problem("8 by 4 by 256", (8, 4, 256))
    assert message == (
        "Could not read “by” as a size. Write the sizes as whole numbers, for example "
        "2 × 3 × 5, 2x3x5 or [2, 3, 5]."
    )


@pytest.mark.parametrize(
    "text, quoted",
    [
        ("eight by four", "“eight”, “by” and “four”"),
        ("8 × 4.5 × 256", "“4.5”"),
        ("[8, -4]", "“-4”"),
        ("a b c d e", "“a”, “b”, “c” and more"),
        ("8 × " + "y" * 30, "“" + "y" * 20 + "…”"),
    ],
)
def test_a_shape_quotes_the_pieces_it_could_not_read(text, quoted):
    assert shape_problem(text, (8, 4, 256)).startswith(f"Could not read {quoted} as a size.")


def test_a_shape_with_a_missing_size():
    assert shape_problem("8 × × 256", (8, 4, 256)).startswith("Could not read a size between every two")


def test_the_example_is_not_the_answer_it_helps_with():
    assert "2 × 3 × 5" not in shape_problem("two by three by five", (2, 3, 5))
    assert "3 × 5 × 7" in shape_problem("two by three by five", (2, 3, 5))


def test_a_number_names_what_it_could_not_read():
    assert number_problem("0.9") is None and number_problem("") is None
    assert number_problem("about one") == (
        "Could not read “about one” as a number. Write it in digits, for example 0.5 or −0.25."
    )
    assert number_problem("nan").startswith("Could not read “nan”")


@pytest.mark.parametrize("text", ["(3, 4, 5)", "3, 4, 5", "3 4 5", "[3,4,5]", "", "  "])
def test_a_position_of_three_whole_numbers_reads(text):
    assert position_problem(text) is None


@pytest.mark.parametrize("text", ["3 4", "(3, 4, 5, 6)", "t=3", "three"])
def test_a_position_it_cannot_read_is_quoted_with_an_example(text):
    assert position_problem(text) == (
        f"Could not read “{text}” as 3 whole numbers. Write them in brackets, for example (10, 11, 12)."
    )
