import pytest

from core.textfile import decode_text_file


def test_utf8_with_bom():
    assert decode_text_file("a.txt", "\ufeffhé".encode()) == "hé"


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\xff\xfe\x00bad", "not UTF-8 text \\(byte 0"),
        (b"x" * 11, "limit is 10 bytes"),
        (b"  \n", "empty"),
    ],
)
def test_bad_files(data, message):
    with pytest.raises(ValueError, match=message):
        decode_text_file("a.txt", data, limit=10)
