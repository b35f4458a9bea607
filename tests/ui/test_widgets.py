"""ui.widgets drawn through AppTest.from_function: token chips are bounded and escaped (issue 21.5)."""

from streamlit.testing.v1 import AppTest


def chips_app(count: int, piece: str = "\n", total: int | None = None) -> None:
    from ui.widgets import token_chips

    token_chips([piece] * count, list(range(count)), total=total)


def drawn(at: AppTest) -> tuple[str, list[str]]:
    """The chips' HTML and the captions under them."""
    body = next(h.proto.body for h in at.get("html") if 'class="chips"' in h.proto.body)
    return body, [c.value for c in at.caption]


def test_at_most_max_chips_are_drawn_with_a_note():
    from ui.widgets import MAX_CHIPS

    at = AppTest.from_function(chips_app, kwargs={"count": 10_000}).run()
    body, captions = drawn(at)
    assert body.count('class="chip ') == MAX_CHIPS == 240
    assert "↵" in body and "\n" not in body.split('class="chips"', 1)[1]
    assert captions == [f"First {MAX_CHIPS} of 10,000 tokens shown."]


def test_a_caller_that_passes_the_first_tokens_gives_the_total():
    at = AppTest.from_function(chips_app, kwargs={"count": 240, "total": 5_000}).run()
    assert drawn(at)[1] == ["First 240 of 5,000 tokens shown."]


def test_all_tokens_drawn_no_note():
    at = AppTest.from_function(chips_app, kwargs={"count": 12}).run()
    body, captions = drawn(at)
    assert body.count('class="chip ') == 12 and captions == []


def test_a_long_piece_is_cut_and_stays_escaped():
    at = AppTest.from_function(chips_app, kwargs={"count": 1, "piece": "<b>" + "=" * 100}).run()
    body, _ = drawn(at)
    assert "&lt;b&gt;" in body and "<b>" not in body
    assert "=" * 37 + "…" in body and "=" * 38 not in body  # the first 40 characters: "<b>" and 37 "="


def test_the_chips_box_is_a_named_region_that_takes_the_focus():
    label = 'aria-label="{}"'
    at = AppTest.from_function(chips_app, kwargs={"count": 1}).run()
    body, _ = drawn(at)
    assert 'tabindex="0" role="region"' in body and label.format("Token chips: 1 token") in body
    at = AppTest.from_function(chips_app, kwargs={"count": 10_000}).run()
    assert label.format("Token chips: the first 240 of 10,000 tokens") in drawn(at)[0]
