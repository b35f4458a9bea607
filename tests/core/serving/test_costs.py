"""``core.serving.costs``: the cost models' inputs, computed as their definitions say."""

import pytest

from core.serving.costs import _pieces, longest_piece


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Hello, world!",
        "a" * 5000 + " b",  # one long word
        "   \n\n\t  spaces and     runs  ",
        "naïve café — 北京欢迎你 🙂🙂🙂 ok",  # UTF-8 bytes, not characters
        "𓀀" * 300,
        "I'm can't we'll 123456 ...!!!",
    ],
)
def test_the_longest_piece_is_the_longest_utf8_match_of_gpt2s_pattern(text):
    by_definition = max((len(m.group().encode("utf-8")) for m in _pieces().finditer(text)), default=0)
    assert longest_piece(text) == by_definition


def test_known_longest_pieces():
    assert longest_piece("") == 0
    assert longest_piece("the cat") == 4  # " cat": the space belongs to the word after it
    assert longest_piece(" 北京") == 7  # a space and two 3-byte characters
