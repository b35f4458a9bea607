"""ui.token_chips drawn through AppTest.from_function: token chips are bounded and escaped, and
chips to pick are one widget however long the text."""

from streamlit.testing.v1 import AppTest

NEWLINE, EQUALS = 198, 23926  # GPT-2's "\n", and 64 "=" (a piece longer than a chip shows)
TAG = [27, 65, 29]  # "<", "b", ">"


def chips_app(ids: list[int]) -> None:
    from ui.token_chips import token_chips

    token_chips(ids, 50257)


def drawn(at: AppTest) -> tuple[str, list[str]]:
    """The chips' HTML and the captions under them."""
    body = next(h.proto.body for h in at.get("html") if 'class="chips"' in h.proto.body)
    return body, [c.value for c in at.caption]


def test_at_most_max_chips_are_drawn_with_a_note():
    from ui.token_chips import MAX_CHIPS

    at = AppTest.from_function(chips_app, kwargs={"ids": [NEWLINE] * 10_000}).run()
    body, captions = drawn(at)
    assert body.count('class="chip ') == MAX_CHIPS == 240
    assert "↵" in body and "\n" not in body.split('class="chips"', 1)[1]
    assert captions == [f"First {MAX_CHIPS} of 10,000 tokens shown."]


def test_all_tokens_drawn_no_note():
    at = AppTest.from_function(chips_app, kwargs={"ids": list(range(12))}).run()
    body, captions = drawn(at)
    assert body.count('class="chip ') == 12 and captions == []


def test_a_long_piece_is_cut_and_markup_stays_escaped():
    at = AppTest.from_function(chips_app, kwargs={"ids": [*TAG, EQUALS]}).run()
    body, _ = drawn(at)
    assert "&lt;" in body and "<b>" not in body
    assert "=" * 40 + "…" in body and "=" * 41 not in body


def test_the_chips_box_is_a_named_region_that_takes_the_focus():
    label = 'aria-label="{}"'
    at = AppTest.from_function(chips_app, kwargs={"ids": [NEWLINE]}).run()
    body, _ = drawn(at)
    assert 'tabindex="0" role="region"' in body and label.format("Token chips: 1 token") in body
    at = AppTest.from_function(chips_app, kwargs={"ids": [NEWLINE] * 10_000}).run()
    assert label.format("Token chips: the first 240 of 10,000 tokens") in drawn(at)[0]


def picking_app(ids: list[int]) -> None:
    from ui.token_chips import Pick, token_chips

    token_chips(ids, 50257, pick=Pick("token", "Pick one"))


def test_a_long_texts_chips_to_pick_are_one_widget_a_page_at_a_time_and_follow_the_link():
    at = AppTest.from_function(picking_app, kwargs={"ids": [NEWLINE, *TAG] * 2_500})
    at.query_params["token"] = "5001"
    at.run()
    assert not at.exception
    (pills,) = at.get("button_group")
    assert len(pills.proto.options) == 240 and pills.value == 5001  # the page that holds the link's token
    assert at.selectbox(key="pick_token_page").value == 20  # tokens 4,800 to 5,039
    at.selectbox(key="pick_token_page").set_value(41).run()  # the last: tokens 9,840 to 9,999
    pills = at.button_group(key="pick_token")
    assert len(pills.proto.options) == 160 and pills.value is None
    pills.set_value(9999).run()
    assert at.query_params["token"] in ("9999", ["9999"])


def test_chips_to_pick_are_named_by_token_and_position_and_stay_text():
    at = AppTest.from_function(picking_app, kwargs={"ids": [NEWLINE, *TAG] * 2}).run()
    labels = [
        o.content.lstrip() for o in at.button_group(key="pick_token").proto.options
    ]  # as Markdown shows them
    assert labels[1:4] == ["\\< :small[27]", "b :small[65]", "\\> :small[29]"]
    names = next(h.proto.body for h in at.get("html") if "chip-names" in h.proto.body)
    assert "&#x27;&lt;&#x27;, position 5, ID 27" in names and "<b>" not in names


def test_each_chip_of_a_repeated_token_follows_its_own_place():
    at = AppTest.from_function(picking_app, kwargs={"ids": [NEWLINE, *TAG] * 2}).run()
    for place in (0, 4):  # the two "\n" (Streamlit sends a pick as its label's text)
        at.button_group(key="pick_token").set_value(place).run()
        assert at.query_params["token"] in (str(place), [str(place)])
        assert at.button_group(key="pick_token").value == place
