import pytest

from core.prediction import parse_number, parse_shape


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
