import pytest

from core.views.markup import escape_markdown


@pytest.mark.parametrize(
    "text, escaped",
    [
        ("$x$ cat", r"\$x\$ cat"),
        ("**bold**", r"\*\*bold\*\*"),
        ("[l](javascript:alert(1))", r"\[l\]\(javascript\:alert\(1\)\)"),
        (":red[x]", r"\:red\[x\]"),
        ("<b>hi</b>", r"\<b\>hi\</b\>"),
        ("a\nb", "a b"),
        ("plain words", "plain words"),
    ],
)
def test_every_markdown_active_character_is_escaped(text, escaped):
    assert escape_markdown(text) == escaped
