"""Follow one token of sentence A or B on Why position? and Attention: the URL's token_a / token_b, the
chips that set it, and the rows they outline and mark."""

import pytest
import torch

from core.attention.heads import RandomHead
from core.attention.maps import attention_map
from core.embeddings import token_embedding_rows
from core.positional.family import FAMILIES, FamilyConfig
from core.text.tokenizer import encode
from tests.ui.drawn_charts import drawn

ATTENTION, WHY = "pages/Attention.py", "pages/Why_position.py"
CAT = (" The cat sat on the mat", " On the mat the cat sat")


OPEN_TAB_MAPS = sum(f.kind != "relative" for f in FAMILIES.values())  # every family's maps: the first tab


def outlined(at) -> int:
    """How many of the page's charts say a query row is outlined."""
    said = [d.said or "" for d in drawn(at)]
    return sum("is outlined" in s for s in said)


def test_a_token_of_b_outlines_its_row_in_every_map_and_shows_its_row_in_a_and_b(open_page):
    at = open_page(ATTENTION, method="alibi", token_b="3")  # ' the', at 3 in B and first at 4 in A
    assert not at.exception and not at.error and not at.warning
    assert outlined(open_page(ATTENTION, method="alibi")) == 2  # the moved token's, in A and B side by side
    # B's four maps, A and B side by side, the map of A of every family in the open tab (none and absolute)
    assert outlined(at) == 4 + 2 + OPEN_TAB_MAPS
    captions = " ".join(c.value for c in at.caption)
    assert (
        "Outlined: the query row of the token you follow, ' the' at position 3 in B (and 4 in A)." in captions
    )
    ids = [encode(t, 50257) for t in CAT]
    rows = token_embedding_rows(torch.tensor(ids[0] + ids[1]), 50257, 256, 123)
    head = RandomHead(256, 8, 0, 123)
    maps = [
        attention_map(
            FAMILIES["alibi"],
            *head.project(rows.lookup(torch.tensor(s))),
            head=0,
            fam=FamilyConfig(),
            dim=256,
            seed=123,
        )
        for s in ids
    ]
    table = at.table[0].value.set_index("key token")
    assert table.loc["' The'", "weight in A"] == pytest.approx(float(maps[0].weights[4, 0]), abs=1e-9)
    assert table.loc["' the'", "weight in B"] == pytest.approx(
        float(maps[1].weights[3, [1, 3]].sum()), abs=1e-9
    )
    assert table[["weight in B"]].loc["' cat'"].isna().all()  # after ' the' in B: hidden by the mask


def test_a_chip_of_a_follows_it_and_a_chip_of_b_replaces_it(open_page):
    at = open_page(ATTENTION)
    at.button_group(key="pick_token_a").set_value(1).run()
    assert at.query_params["token_a"] in ("1", ["1"]) and "token_b" not in at.query_params
    assert outlined(at) == 4 + 2 + OPEN_TAB_MAPS
    said = " ".join(m.value for m in at.markdown)
    assert "Below, ' cat' (position 1 of A, the token you follow) as the query" in said  # section 1's row
    at.button_group(key="pick_token_b").set_value(0).run()  # ' On': not in A
    assert at.query_params["token_b"] in ("0", ["0"]) and "token_a" not in at.query_params
    assert at.button_group(key="pick_token_a").value is None
    assert outlined(at) == 4 + 1  # B's four maps and B's side by side: A has no ' On'
    at.button_group(key="pick_token_b").set_value(None).run()  # a second click
    assert "token_b" not in at.query_params and outlined(at) == 2


def test_a_place_past_the_sentence_is_explained_and_dropped(open_page):
    at = open_page(ATTENTION, token_a="40")
    assert not at.exception
    assert (
        at.warning[0].value
        == "The link follows token 40 of sentence A, which has 6 tokens: none is followed."
    )
    assert "token_a" not in at.query_params and outlined(at) == 2


def test_why_position_marks_the_followed_tokens_row_of_shared_tokens(open_page):
    at = open_page(WHY, token_a="1")
    assert not at.exception
    shared = at.table[0].value
    assert shared["token"].tolist()[0] == "▶ ' cat'" and not any(
        t.startswith("▶") for t in shared["token"][1:]
    )
    captions = " ".join(c.value for c in at.caption)
    assert "▶ and bold on yellow: the token you follow, ' cat' at position 1 in A (and 4 in B)." in captions
    alone = open_page(WHY, token_a="0")  # ' The': A only
    assert (
        "The token you follow, ' The' at position 0 in A (it is not in B), has no row: it is not shared."
        in (" ".join(c.value for c in alone.caption))
    )
    assert not any(t.startswith("▶") for t in alone.table[0].value["token"])


def said(at) -> str:
    return " ".join(m.value for m in [*at.markdown, *at.caption, *at.subheader])


def test_a_chip_of_b_makes_bs_token_the_query_at_its_place_in_b(open_page):
    at = open_page(ATTENTION)
    at.button_group(key="pick_token_b").set_value(4).run()  # ' cat': position 4 of B, 1 of A
    assert at.query_params["token_b"] in ("4", ["4"]) and not at.exception
    text = said(at)
    # B's row: the mask hides the 1 token after position 4 (A's ' cat', at 1, would have 4 hidden)
    assert "Below, ' cat' (position 4 of B, the token you follow) as the query" in text
    assert "the causal mask hides the 1 token after it" in text and "(position 1 of A" not in text
    assert "2. Where Learned absolute acts, on sentence B (head 1 of 8)" in text
    assert "Outlined: the query row of the token you follow, ' cat' at position 4 in B (and 1 in A)." in text
    section_4 = "Outlined: ' cat' at position 1 of A, where the token you follow (position 4 of B) also"
    assert section_4 in text
    why = open_page(WHY, token_b="4")
    assert "the token you follow, ' cat' at position 4 in B (and 1 in A)." in said(why)


def test_a_token_only_in_b_is_followed_in_b_without_falling_back_to_a(open_page):
    at = open_page(ATTENTION, token_b="0")  # ' On': B only (A has ' on', another token)
    assert not at.exception and not at.warning
    text = said(at)
    assert "Below, ' On' (position 0 of B, the token you follow) as the query" in text
    assert "of A, the token you follow" not in text and "' on'" not in text
    assert "in B; it is not in A, so it has no row there to compare (its column is empty):" in text
    assert "is not in A, which this section draws: no row is outlined." in text
    row = at.table[0].value.set_index("key token")
    assert row["weight in A"].isna().all() and row.loc["' On'", "weight in B"] == pytest.approx(1.0)


def test_the_answers_buttons_after_nope_say_which_methods_are_absolute_and_which_act_in_attention(open_page):
    # After NoPE the buttons offer the absolute methods and RoPE: the sentence above them says each's kind.
    at = open_page("pages/Why_position.py", method="nope")
    (said,) = [m.value for m in at.markdown if m.value.endswith("See the page with:")]
    assert said.startswith("Absolute methods add a vector per position")
    assert "RoPE tells the two places apart later, inside attention." in said
    buttons = [b.label for b in at.button if b.key and b.key.startswith("answer_")]
    assert buttons == ["Learned absolute", "Sinusoidal", "RoPE"]
