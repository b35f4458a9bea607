"""Follow one token on the Pipeline: the URL's ``token``, its chip, and the panel "This token"."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from core.pipeline import token_windows
from core.text.samples import SAMPLES
from tests.book import book_tables
from tests.tables import row_labels
from tests.ui.drawn_charts import drawn
from tests.ui.test_pages import copied_link, paste, picture_labels
from ui.server.cache import token_ids

DEFAULT_TEXT = SAMPLES["lesson"]


def panel_rows(at: AppTest) -> dict[str, list[float]]:
    """The panel's table: row label -> its values."""
    for table in at.table:
        frame = table.value
        labels = row_labels(frame)
        if any(label.startswith("token_embeddings[") and "token table" in label for label in labels):
            return {
                label: row.astype(float).tolist()
                for label, (_, row) in zip(labels, frame.iterrows(), strict=True)
            }
    raise AssertionError("no panel table")


def warnings(at: AppTest) -> str:
    return " ".join(w.value for w in at.warning)


def test_the_windows_that_hold_a_token_and_its_place_in_each():
    assert token_windows(5, 8, 4, 4) == [(1, 1)]
    assert token_windows(5, 8, 4, 1) == [(2, 3), (3, 2), (4, 1), (5, 0)]
    assert token_windows(6, 8, 2, 4) == []  # between two windows when the stride is longer than them
    assert token_windows(40, 8, 4, 4) == []  # past the last window


@pytest.mark.parametrize("stride, place", [(4, (1, 1)), (1, (2, 3))])
def test_the_panel_rows_are_the_books_rows_and_their_sum(stride, place, open_page):
    at = open_page(token="5", stride=str(stride))
    assert not at.exception and not at.error
    token_id = token_ids(DEFAULT_TEXT)[5]
    token_table, pos_table = book_tables(50257, 256, 4)
    b, t = place
    rows = list(panel_rows(at).values())
    assert rows[0] == pytest.approx(token_table[token_id, :8].tolist(), abs=5e-5)
    assert rows[1] == pytest.approx(pos_table[t, :8].tolist(), abs=5e-5)
    assert rows[2] == pytest.approx((token_table[token_id, :8] + pos_table[t, :8]).tolist(), abs=5e-5)
    labels = list(panel_rows(at))
    assert labels[0].startswith(f"token_embeddings[{b}, {t}]")
    assert labels[2] == f"input_embeddings[{b}, {t}]: their sum"
    said = " ".join(m.value for m in at.markdown)
    if stride == 1:  # the token is in four windows of the first batch: each is listed
        assert "It is in 4 windows of the first batch: b = 2 at t = 3, b = 3 at t = 2, b = 4 at t = 1" in said
    else:
        assert "It is in 1 window of the first batch: b = 1 at t = 1." in said


def test_a_click_on_a_chip_follows_it_and_a_second_click_stops(open_page):
    at = open_page()
    assert "token" not in at.query_params and "This token" not in " ".join(m.value for m in at.markdown)
    pills = at.button_group(key="pick_token")
    pills.set_value(5).run()
    assert at.query_params["token"] in ("5", ["5"])
    assert "**This token**" in [m.value for m in at.markdown]
    at.button_group(key="pick_token").set_value(None).run()
    assert "token" not in at.query_params
    assert "**This token**" not in [m.value for m in at.markdown]


@pytest.mark.parametrize("value", ["abc", "1.5", "$x$"])
def test_a_token_that_is_no_whole_number_gets_the_urls_message(value, open_page):
    at = open_page(token=value)
    assert not at.exception
    assert "URL parameter **token**" in warnings(at) and "using the default, no token." in warnings(at)
    assert "token" not in at.query_params


@pytest.mark.parametrize("value", ["-1", "9007199254740991"])
def test_a_token_outside_the_text_is_explained_and_dropped(value, open_page):
    at = open_page(token=value)
    assert not at.exception and not at.error
    n = len(token_ids(DEFAULT_TEXT))
    said = f"but this text has {n:,} tokens, numbered 0 to {n - 1:,}: no token is followed."
    assert said in warnings(at)
    assert "token" not in at.query_params


def test_a_token_past_the_first_batch_says_where_it_is(open_page):
    at = open_page(token="100")  # 4 tokens a window, stride 4, 8 windows a batch: window 25, batch 4
    assert not at.exception and not at.error
    info = " ".join(i.value for i in at.info)
    where = "It is in one window only: window 25 (row b = 1 of batch 4, at t = 0); the first batch is batch 1"
    assert where in info
    assert "This page draws the first batch only" in info and "pick one of tokens 0 to 31" in info


def test_any_chip_of_the_text_follows_its_token_past_the_first_batch(open_page):
    at = open_page(stride="1")  # 8 windows of 4 a batch, one starting at every token
    pills = at.button_group(key="pick_token")
    assert len(pills.proto.options) == 240  # the text's chips, not the first batch's 11 tokens
    pills.set_value(40).run()  # windows 37 to 40: all in batch 5
    assert at.query_params["token"] in ("40", ["40"]) and at.button_group(key="pick_token").value == 40
    info = " ".join(i.value for i in at.info)
    assert (
        "It is in 4 windows, none of them in the first batch: window 37 (row b = 5 of batch 5, at t = 3), "
        "window 38 (row b = 6 of batch 5, at t = 2), window 39 (row b = 7 of batch 5, at t = 1) and 1 more "
        "window; the first batch is batch 1. Windows overlap: one starts every token and each holds 4 "
        "tokens, so 4 windows hold this one." in info
    )


def test_a_token_of_a_long_text_is_followed_from_the_chips_that_hold_it(open_page):
    at = open_page(sample="log", token="5000")  # 9,090 tokens: chips 240 at a time
    assert not at.exception and not at.error
    assert at.selectbox(key="pick_token_page").value == 20  # tokens 4,800 to 5,039
    pills = at.button_group(key="pick_token")
    assert pills.value == 5000 and len(pills.proto.options) == 240
    info = " ".join(i.value for i in at.info)
    assert "window 1,250 (row b = 2 of batch 157, at t = 0); the first batch is batch 1." in info


def test_chips_made_of_markup_stay_text(open_page):
    at = paste(open_page(), "<b>bold</b> $x$ **y** " * 4)
    assert not at.exception
    labels = [
        o.content.lstrip() for o in at.button_group(key="pick_token").proto.options
    ]  # as Markdown shows them
    assert labels[0].startswith("\\<") and any("\\$" in label for label in labels)
    assert not any("<b>" in label for label in labels)


def test_the_followed_tokens_rows_are_marked_in_the_tables_of_values(open_page):
    at = open_page(token="1", stride="1")  # in windows b = 0 (t = 1) and b = 1 (t = 0)
    assert not at.exception
    labels = [label for table in at.table for label in row_labels(table.value)]
    assert "▶ t=1: ' language'" in labels and "t=0: 'Large'" in labels  # token_embeddings[0]'s rows
    assert "▶ t=0" in labels and "▶ t=1" in labels  # both position rows it takes
    assert "▶ token_embeddings[1, 0]" in labels and "token_embeddings[0, 0]" in labels  # the broadcast rows
    windows = picture_labels(at)[0]
    assert windows.startswith("Sliding windows")
    assert windows.endswith("; token 1 is marked, in lanes b = 0, 1")


def test_copy_link_carries_the_followed_token_after_a_click(open_page):
    from urllib.parse import parse_qs, urlsplit

    at = open_page(stride="2")
    at.button_group(key="pick_token").set_value(3).run()
    query = parse_qs(urlsplit(copied_link(at)).query)
    assert query["token"] == ["3"] and query["stride"] == ["2"]


@pytest.mark.parametrize(
    "params, why",
    [
        (
            {"token": "5", "stride": "8"},
            "the stride (8) is longer than a window (4 tokens), so the windows skip it",
        ),
        ({"token": "277"}, "the last window ends before it"),
    ],
)
def test_a_token_no_window_holds_says_why(params, why, open_page):
    at = open_page(**params)
    assert not at.exception and not at.error
    info = " ".join(i.value for i in at.info)
    assert f"No window holds it: {why}" in info and "So it is in no batch and has no input embedding." in info


def test_presenting_keeps_the_token_and_marks_it_on_the_windows_slide(open_page):
    at = open_page(present="true", slide="2.2", token="5")  # section 2 of step 2: the windows
    assert not at.exception  # a link to a later slide of a prediction opens that slide, no Reveal
    assert at.query_params["token"] in ("5", ["5"])
    assert picture_labels(at)[0].endswith("; token 5 is marked, in lane b = 1")


def test_every_picture_and_heatmap_marks_the_followed_tokens_place(open_page):
    at = open_page(token="5")  # ' as', ID 355: window b = 1, t = 1 (stride 4)
    assert not at.exception
    windows, token_lookup, position_lookup, broadcast = picture_labels(at)
    assert windows.endswith("; token 5 is marked, in lane b = 1")
    # Steps 3 and 6 draw the sequence that holds it
    assert token_lookup == (
        "Lookup: token_embeddings[1] takes 4 rows of token_embedding_layer; "
        "the followed token's row 355 at t = 1 is marked"
    )
    assert position_lookup.endswith("; the followed token's row 1 at t = 1 is marked")
    assert broadcast.endswith(
        "the followed token is marked: row t = 1 of sequence b = 1 and row t of the table"
    )
    said = "The followed token's row t = 1: outlined."
    outlined = [d.spec for d in drawn(at) if d.said and d.said.endswith(said)]
    assert [s["title"]["text"] for s in outlined] == [
        "token_embeddings[1]",
        "pos_embeddings",
        "input_embeddings[1]",
    ]
    for spec in outlined:  # a black rectangle across the rows of position t, its own layer
        (row,) = [m for m in spec["layer"][0]["layer"] if m["mark"].get("stroke") == "#111827"]
        assert row["mark"]["type"] == "rect" and row["encoding"] == {
            "y": {"field": "position t", "type": "ordinal"}
        }


def test_the_inputs_and_targets_mark_where_the_token_stands_and_where_it_is_guessed(open_page):
    at = open_page(token="4")  # window b = 1 at t = 0 (stride 4): the last target of window b = 0
    inputs, targets = (t.value for t in at.table if row_labels(t.value)[:1] == ["b=0"])
    assert inputs.iat[1, 0] == "▶ 2420" and sum(str(v).startswith("▶") for v in inputs.values.ravel()) == 1
    assert targets.iat[0, 3] == "▶ 2420" and sum(str(v).startswith("▶") for v in targets.values.ravel()) == 1


def test_row_labels_made_of_markup_stay_text(open_page):
    at = open_page()
    paste(at, "<b>$x$</b> and more words to make a window or two of text here and there")
    labels = [str(label) for table in at.table for label in table.value.index]
    assert any(label.startswith("\\+ pos") for label in labels)  # "+ pos_embeddings[0]", not a list item
    pieces = [label for label in labels if label.startswith("t\\=")]  # token_embeddings[0]'s rows, by piece
    assert pieces[0] == "t\\=0\\: '\\<'" and any("\\$" in p for p in pieces)


@pytest.mark.parametrize(
    "params, token, b, t",
    [({}, 5, 1, 1), ({"token": "2", "stride": "1"}, 2, 0, 2), ({"token": "900"}, 5, 1, 1)],
)
def test_the_last_slide_asks_for_the_tokens_position_row_then_shows_its_rows(params, token, b, t, open_page):
    at = open_page(present="true", slide="7", **params)
    assert not at.exception and at.subheader[0].value == "7. Follow one token"
    said = " ".join(m.value for m in at.markdown)
    assert (
        f"Token {token} of the text (counting from 0)" in said
        and f"is in window b = {b} of the first batch" in said
    )
    (box,) = at.text_input
    assert box.label == "Which row of the position table does it get there?"
    assert not at.table  # nothing is revealed before the prediction
    box.input(str(t)).run()
    at.button(key="reveal_follow").click().run()
    assert at.success[0].value == f"You predicted {t}; the answer is {t} — right!"
    token_table, pos_table = book_tables(50257, 256, 4)
    token_id = token_ids(DEFAULT_TEXT)[token]
    rows = list(panel_rows(at).values())
    assert rows[0] == pytest.approx(token_table[token_id, :4].tolist(), abs=5e-5)  # four numbers: one screen
    assert rows[1] == pytest.approx(pos_table[t, :4].tolist(), abs=5e-5)
    assert rows[2] == pytest.approx((token_table[token_id, :4] + pos_table[t, :4]).tolist(), abs=5e-5)


def test_without_a_position_table_the_slide_asks_for_the_place(open_page):
    at = open_page(present="true", slide="7", method="rope")
    assert at.text_input[0].label == "At which position t does it stand there?"


def test_a_token_between_the_heatmaps_rows_is_said_to_fall_between_them(open_page):
    at = open_page(
        token="5", context="256", batch="1", stride="256"
    )  # every 4th position drawn: t = 5 is not
    assert not at.exception and not at.error
    notes = [c.value for c in at.caption if "Downsampled for drawing" in c.value]
    assert len(notes) == 3 and all(
        n.endswith("The followed token's t = 5 falls between the rows drawn.") for n in notes
    )
    said = [json.loads(c.proto.spec)["description"] for c in at.get("vega_lite_chart")]
    assert not any("outlined" in s for s in said)
