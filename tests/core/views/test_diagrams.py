"""The lesson's pictures: what each SVG draws follows the numbers it is given."""

import re
import xml.etree.ElementTree as ET

import pytest

from core.views.colors import TENSOR_COLORS
from core.views.diagrams import (
    MARKED,
    MAX_LEAST_FONT,
    broadcast_svg,
    lookup_svg,
    windows_sentence,
    windows_svg,
)

NS = "{http://www.w3.org/2000/svg}"
GREY = "#f3f4f6"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # also proves the document is well-formed XML
    assert root.tag == f"{NS}svg"
    return root


def rects(root: ET.Element, **attrs: str) -> list[ET.Element]:
    return [
        r for r in root.iter(f"{NS}rect") if all(r.get(k.replace("_", "-")) == v for k, v in attrs.items())
    ]


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


@pytest.mark.parametrize("B", [1, 3, 8])
def test_broadcast_draws_b_slabs_and_b_minus_1_ghosts(B):
    root = parse(broadcast_svg(B, 4, 256))
    assert root.get("aria-label").startswith("Broadcasting")
    token_fill, _ = TENSOR_COLORS["token_embeddings"]
    pos_fill, _ = TENSOR_COLORS["pos_embeddings"]
    input_fill, _ = TENSOR_COLORS["input_embeddings"]
    assert len(rects(root, fill=token_fill)) == B
    assert len(rects(root, fill=input_fill)) == B
    positions = rects(root, fill=pos_fill)
    assert len(positions) == B  # one real table ...
    assert sum(r.get("stroke-dasharray") is not None for r in positions) == B - 1  # ... and B - 1 ghosts
    assert f"[{B}, 4, 256] + [4, 256] → [{B}, 4, 256]" in texts(root)


@pytest.mark.parametrize("B", [1, 2, 8, 64])
def test_broadcast_names_stay_apart_and_inside_the_picture(B):
    # a short text gives B = 1: the three names under thin stacks once overlapped and were cut
    root = parse(broadcast_svg(B, 4, 256))
    names = ("token_embeddings", "pos_embeddings", "input_embeddings")
    xs = [float(t.get("x")) for t in root.iter(f"{NS}text") if t.text in names]
    half = 170 / 2  # a bold 18 px name is at most about 170 units wide
    assert len(xs) == 3 and xs[0] - half >= 0 and xs[2] + half <= float(root.get("width"))
    assert all(b - a >= 2 * half for a, b in zip(xs, xs[1:], strict=False))


def test_broadcast_caps_the_drawn_slabs_and_says_how_many():
    root = parse(broadcast_svg(64, 2048, 12288))
    assert len(rects(root, fill=TENSOR_COLORS["token_embeddings"][0])) == 8
    assert "B = 64 … ×64" in texts(root)
    assert "read ×64, not copied" in texts(root)
    assert "64 × 2,048 × 12,288" in texts(root) and "2,048 × 12,288" in texts(root)


def bars(root: ET.Element) -> list[tuple[float, float, bool]]:
    """(x, width, dashed) of every window bar: height-7 rects."""
    return [
        (float(r.get("x")), float(r.get("width")), r.get("stroke-dasharray") is not None)
        for r in root.iter(f"{NS}rect")
        if r.get("height") == "7.0"
    ]


def test_windows_overlap_when_stride_is_below_the_context():
    pieces = [f"w{k}" for k in range(20)]
    root = parse(windows_svg(pieces, [0, 2], 4))  # windows [0, 4) and [2, 6): 2 tokens shared
    inputs = sorted((x, w) for x, w, dashed in bars(root) if not dashed)
    (x0, w0), (x1, _) = inputs
    assert x1 < x0 + w0  # the second window starts inside the first
    assert len(rects(root, fill=GREY)) == 1  # only token 6, the last target, is no input
    assert texts(root).count("w6") == 1 and "w7" not in texts(root)  # drawn up to the last target


def test_windows_leave_gaps_when_stride_is_above_the_context():
    pieces = [f"w{k}" for k in range(20)]
    root = parse(windows_svg(pieces, [0, 6], 4))  # inputs 0-3 and 6-9; 4, 5 and the last target 10 unused
    assert len(rects(root, fill=GREY)) == 3
    assert root.get("aria-label") == "Sliding windows: 2 windows of 4 tokens, one starting every 6 tokens"


def test_one_window_is_named_as_one_without_a_stride():
    # "The dog bites the man." at T 4: one window, tokens 0-3 and the target 1-4; the "." is never used
    root = parse(windows_svg(["The", " dog", " bites", " the", " man", "."], [0], 4))
    assert root.get("aria-label") == "Sliding windows: 1 window of 4 tokens"
    assert "b=1" not in texts(root) and "." not in texts(root)


def test_windows_escape_token_text_and_say_when_the_batch_goes_on():
    svg = windows_svg(["<b>&", *["x"] * 100], [0, 40], 30)
    assert "<b>" not in svg and "&lt;b&gt;&amp;" in svg
    root = parse(svg)
    assert "… these windows go on to token 70" in texts(root)


def test_windows_draw_at_most_eight_lanes_and_count_the_rest():
    root = parse(windows_svg([f"w{k}" for k in range(40)], list(range(12)), 3))
    assert "… 4 more windows" in texts(root)
    assert root.get("aria-label").startswith("Sliding windows: 12 windows of 3 tokens")
    assert sum(t.startswith("b=") for t in texts(root)) <= 8 * 2  # a lane is labelled in each row it crosses
    assert "b=8" not in texts(root)


def test_windows_sentence_follows_stride_and_context():
    assert "no token is shared" in windows_sentence(4, 4)
    assert "overlap by 3 tokens" in windows_sentence(4, 1)
    assert "overlap by 1 token." in windows_sentence(4, 3)
    assert "2 tokens between two windows" in windows_sentence(4, 6)
    assert "1 token between two windows (grey) is never" in windows_sentence(4, 5)


def test_lookup_places_each_row_by_its_id_in_the_tall_table():
    root = parse(
        lookup_svg(["a", "b", "c"], [50_000, 0, 25_000], 50_257, 256, "table", "out", "token_embeddings")
    )
    _, ink = TENSOR_COLORS["token_embeddings"]
    bands = [float(r.get("y")) for r in rects(root, fill=ink) if r.get("height") == "3.0"]
    assert len(bands) == 3
    assert bands[1] < bands[2] < bands[0]  # row 0 at the top, row 50,000 near the bottom
    assert ["row 50,000", "row 0", "row 25,000"] == [t for t in texts(root) if t.startswith("row")]
    assert "50,257 × 256" in texts(root) and "3 × 256" in texts(root)


def test_lookup_draws_at_most_eight_rows_and_counts_the_rest():
    root = parse(
        lookup_svg([f"t = {t}" for t in range(8)], list(range(100)), 100, 16, "p", "q", "pos_embeddings")
    )
    assert sum(t.startswith("row ") for t in texts(root)) == 8
    assert "… 92 more rows" in texts(root)
    assert re.search(r"takes 100 rows of p", root.get("aria-label"))


def test_lookup_marks_the_followed_tokens_row_without_colour_alone():
    root = parse(lookup_svg(["a 7", "b 9", "c 7"], [7, 9, 7], 10, 4, "table", "out", "token_embeddings", {1}))
    assert "▶ b 9" in texts(root) and "a 7" in texts(root)  # a glyph before its label, none before others
    (slot,) = rects(root, fill=MARKED)
    assert slot.get("stroke") == "#111827" and float(slot.get("stroke-width")) > 3
    assert root.get("aria-label").endswith("; the followed token's row 9 at t = 1 is marked")
    plain = parse(lookup_svg(["a 7", "b 9", "c 7"], [7, 9, 7], 10, 4, "table", "out", "token_embeddings"))
    assert rects(plain, fill=MARKED) == [] and not any(t.startswith("▶") for t in texts(plain))


@pytest.mark.parametrize("b, t", [(0, 0), (2, 3), (9, 1)])
def test_broadcast_marks_the_followed_tokens_slab_and_row(b, t):
    T = 4
    root = parse(broadcast_svg(10, T, 256, (b, t)))
    bands = [r for r in rects(root, fill=MARKED, stroke="#111827") if float(r.get("height")) < 72]
    assert [float(r.get("height")) for r in bands] == [72 / T] * (1 if b >= 8 else 3)  # 8 slabs drawn a stack
    table = bands[1] if b < 8 else bands[0]
    assert float(table.get("y")) - 16 - 7 * 7 == pytest.approx(72 * t / T)  # row t of the table's front slab
    label = root.get("aria-label")
    assert f"row t = {t} of sequence b = {b}" in label and ("behind" in label) == (b >= 8)


def sizes(root: ET.Element) -> dict[str, float]:
    """Each text's font size, by its text (the last one drawn of a repeated text)."""
    return {t.text or "": float(t.get("font-size")) for t in root.iter(f"{NS}text")}


PICTURES = {  # each picture at the book's settings, drawn with a given least font
    "windows": lambda least: windows_svg([f"w{k}" for k in range(20)], [0, 4], 4, least_font=least),
    "lookup": lambda least: lookup_svg(
        [f"t = {t}" for t in range(10)], list(range(10)), 50_257, 256, "p", "q", "pos_embeddings", {1}, least
    ),
    "broadcast": lambda least: broadcast_svg(8, 4, 256, (1, 2), least),
}


@pytest.mark.parametrize("name", PICTURES)
@pytest.mark.parametrize("least", [14, 16, MAX_LEAST_FONT])
def test_every_text_of_a_picture_is_at_least_the_font_asked_for(name, least):
    drawn = sizes(parse(PICTURES[name](least)))
    assert min(drawn.values()) == least  # its smallest texts are raised to it, no further
    plain = sizes(parse(PICTURES[name](0)))
    assert all(drawn[text] == max(size, least) for text, size in plain.items())


@pytest.mark.parametrize("name", PICTURES)
def test_a_least_font_larger_than_the_labels_is_refused(name):
    with pytest.raises(ValueError, match="least_font is at most 17 units; it is 18"):
        PICTURES[name](MAX_LEAST_FONT + 1)


def test_by_default_the_pictures_keep_their_own_small_texts():
    assert sizes(parse(PICTURES["windows"](0)))["3"] == 11  # a token's number
    assert sizes(parse(PICTURES["lookup"](0)))["50,256"] == 12  # the table's last row
    assert sizes(parse(PICTURES["broadcast"](0)))["read ×8, not copied"] == 14


def test_a_larger_tokens_number_stays_under_its_token_in_a_taller_cell():
    root = parse(PICTURES["windows"](16))
    cell = next(r for r in root.iter(f"{NS}rect") if r.get("rx") == "5")
    top, height = float(cell.get("y")), float(cell.get("height"))
    at = {t.text: float(t.get("y")) for t in root.iter(f"{NS}text")}
    assert at["w3"] + 4 <= at["3"] - 16 * 0.75  # the token's descent clears the number's capitals
    assert at["3"] + 4 <= top + height  # and the number's descent is inside its cell


def test_larger_notes_above_the_stacks_stay_clear_of_them():
    for least in (0, 16, MAX_LEAST_FONT):
        root = parse(PICTURES["broadcast"](least))
        note = next(t for t in root.iter(f"{NS}text") if t.text == "read ×8, not copied")
        highest = min(float(r.get("y")) for r in root.iter(f"{NS}rect"))  # the back slab's top
        assert float(note.get("y")) + 4 <= highest  # the note's descent clears it
        assert float(note.get("y")) - float(note.get("font-size")) * 0.75 >= 0  # inside the picture


def test_the_tables_last_row_number_goes_under_its_corner_when_larger():
    root = parse(PICTURES["lookup"](16))
    texts_at = {t.text: float(t.get("y")) for t in root.iter(f"{NS}text")}
    table = max(
        (r for r in root.iter(f"{NS}rect") if r.get("fill") == "#f9fafb"),
        key=lambda r: float(r.get("height")),
    )
    bottom = float(table.get("y")) + float(table.get("height"))
    assert texts_at["50,256"] - 16 * 0.75 >= bottom  # below the table, clear of the last label
    assert texts_at["50,256"] + 4 <= float(root.get("height"))
