import pytest

from core.text.textfile import decode_text_file


def test_utf8_with_bom():
    assert decode_text_file("a.txt", "\ufeffhé".encode()) == "hé"


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\xff\xfe\x00bad", "not UTF-8 text \\(byte 0"),
        (b"x" * 11, "has 11 bytes: 11 tokens at V = 257.*at most 10 bytes"),
        (b"  \n", "empty"),
    ],
)
def test_bad_files(data, message):
    with pytest.raises(ValueError, match=message):
        decode_text_file("a.txt", data, limit=10)


def test_the_cap_is_the_budgets_and_a_file_just_over_it_is_refused_with_its_cost():
    from core.serving.budget import MAX_TEXT_BYTES
    from core.text.textfile import MAX_UPLOAD_BYTES

    assert MAX_UPLOAD_BYTES == MAX_TEXT_BYTES
    emoji = "\U0001f600" * (MAX_TEXT_BYTES // 4)
    assert decode_text_file("ok.txt", emoji.encode()) == emoji
    over = (emoji + "a").encode()
    with pytest.raises(ValueError, match=f"{len(over):,} bytes: {len(over):,} tokens at V = 257") as info:
        decode_text_file("big.txt", over)
    assert f"at most {MAX_TEXT_BYTES:,} bytes" in str(info.value)
    assert f"{MAX_TEXT_BYTES // 4:,} emoji" in str(info.value)
