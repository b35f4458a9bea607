"""The Attention page through AppTest: every family, the moved token's row, bad input, payload."""

import pytest
import torch

from core.attention.compare import top_key
from core.attention.heads import RandomHead
from core.attention.maps import attention_map
from core.config import PipelineConfig
from core.embeddings import token_embedding_rows
from core.positional.family import FAMILIES, FamilyConfig
from core.scripts.attention import attention_script
from core.text.tokenizer import encode
from tests.ui.conftest import page_metrics
from tests.ui.drawn_charts import drawn

PAGE = "pages/Attention.py"
MAX_CHART_BYTES = 1_000_000
CAT = (" The cat sat on the mat", " On the mat the cat sat")
MAPS, HEATMAPS = "ui.server.cache._sentence_maps", "ui.attention.heatmaps.heatmap"  # as ui.server.cache.KEPT


def charts(at):
    return at.get("vega_lite_chart")


@pytest.mark.parametrize("method", list(FAMILIES))
def test_every_family_shows_where_it_acts(method, open_page):
    at = open_page(PAGE, method=method)
    assert not at.exception and not at.error
    assert at.title[0].value == "Attention: where position acts"
    family = FAMILIES[method]
    subheaders = [s.value for s in at.subheader]
    assert subheaders == [
        "1. Attention in one minute",
        f"2. Where {family.label} acts, on sentence A (head 1 of 8)",
        "3. A and B, side by side",
        "4. Every family on sentence A (head 1 of 8)",
    ]
    # a query row (2), the split, A and B, and the open tab of every family's maps: none and absolute
    assert len(charts(at)) == 2 + 4 + 2 + sum(f.kind != "relative" for f in FAMILIES.values())
    assert len(at.info) == 1  # the family's key fact
    text = " ".join(m.value for m in at.markdown)
    if family.additive:
        assert "computed from **x + p**" in text
    elif family.where:
        assert f"{family.where}: the position part is exactly that term" in text
    else:
        assert "its only position signal is the **causal mask**" in text
    assert "' cat' moved from position 1 to 4." in text.replace("\\", "")
    captions = [c.value for c in at.caption]
    assert any(
        c.startswith("Weights: random `W_q` and `W_k` (256 → 32 numbers per token, drawn with seed 123)")
        for c in captions
    )
    assert "NoPE changes no score: only the causal mask (15 hidden cells) tells positions apart." in captions


def test_every_familys_maps_are_in_two_tabs_of_which_only_the_open_one_is_drawn(open_page):
    kinds = {"None and absolute": False, "Relative": True}
    for tab, relative in kinds.items():
        at = open_page(PAGE, maps=tab)
        assert [t.label for t in at.tabs] == list(kinds) and not at.exception
        maps = [s for s in charts(at)[8:] if s.proto.spec]  # after the query row, the split, A and B
        labels = {f.label for f in FAMILIES.values() if (f.kind == "relative") == relative}
        assert len(maps) == len(labels)
        assert all(any(label in m.proto.spec for label in labels) for m in maps)


def test_the_moved_tokens_row_is_cores():
    """The page's numbers, computed here from core directly: ' cat' gives ' The' in A what core says."""
    ids = [encode(t, 50257) for t in CAT]
    rows = token_embedding_rows(torch.tensor(ids[0] + ids[1]), 50257, 256, 123)
    head = RandomHead(256, 8, 0, 123)
    q, k = head.project(rows.lookup(torch.tensor(ids[0])))
    m = attention_map(FAMILIES["alibi"], q, k, head=0, fam=FamilyConfig(), dim=256, seed=123)
    assert float(m.weights[1, 0]) == pytest.approx(0.2626, abs=5e-5)  # as the page's table shows it
    assert top_key(m, 1) == 1


def test_the_row_table_and_the_sentences_agree(open_page):
    at = open_page(PAGE, method="alibi")
    table = at.table[0].value.set_index("key token")
    assert table.loc["' The'", "weight in A"] == pytest.approx(0.26264531296728694, abs=1e-9)
    assert table.loc["' the'", "weight in B"] == pytest.approx(0.8379351594247277, abs=1e-9)
    assert table.loc["' cat'", "B − A"] == pytest.approx(0.0884513264314451 - 0.7373546870327131, abs=1e-9)
    assert table[["weight in A", "weight in B"]].loc["' sat'"].isna().all()  # hidden from ' cat' in both
    text = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert "In A and in B, ' sat' looks 1 token back to ' cat': the ALiBi term is -0.5000 in both" in text
    assert "in B ' cat' looks 2 tokens back to ' mat': the ALiBi term is -2.0000 in A and -1.0000" in text
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "the causal mask, which lets ' cat' see 2 tokens in A and 5 in B" in captions
    assert "A token that occurs more than once gets the sum of its weights: ' the' in B." in captions
    # the hidden cells are drawn empty (not "None"), and the note under the table says so
    assert "An empty cell: the key token is not in that sentence, or the causal mask hides it" in captions


def test_without_the_mask_nope_cannot_tell_the_orders_apart(open_page):
    at = open_page(PAGE, method="nope", causal="false", a="dog bites man", b="man bites dog")
    assert not at.exception and not at.error
    assert "No mask: every token sees every token." in " ".join(c.value for c in at.caption)
    table = at.table[0].value
    assert (table["B − A"].abs() < 1e-12).all()  # ' dog' attends alike wherever it stands
    assert "NoPE changes no score, and nothing is masked: order cannot matter here." in [
        c.value for c in at.caption
    ]


def test_head_and_family_settings_come_from_the_url(open_page):
    at = open_page(PAGE, method="alibi", heads="4", head="4", dim="64", code=True)
    assert not at.exception and not at.error
    assert at.subheader[1].value == "2. Where ALiBi acts, on sentence A (head 4 of 4)"
    assert any("(64 → 16 numbers per token," in c.value for c in at.caption)
    assert "ALiBi gives head 4 of 4 the slope m = 0.003906" in at.info[0].value  # 2^(-8·4/4) = 2^-8
    script = attention_script(
        PipelineConfig(method="alibi", output_dim=64), FamilyConfig(heads=4), 3, True, *CAT
    )
    assert script.py().strip() in [c.value.strip() for c in at.code]  # what you see is what you download


@pytest.mark.parametrize(
    "params, message",
    [
        ({"heads": "3"}, "does not split into 3 heads"),
        ({"head": "9"}, "Head shown must be between 1 and 8 (the heads H); it is 9."),
        ({"head": "0"}, "Head shown must be between 1 and 8"),
        ({"a": "   "}, "Type a sentence in both boxes."),
        ({"dim": "16384", "a": "x " * 60}, "A sentence may have at most"),
    ],
)
def test_bad_settings_get_a_message_not_a_traceback(params, message, open_page, errors):
    at = open_page(PAGE, **params)
    assert not at.exception
    assert message in errors(at)


def test_user_text_is_shown_as_text(open_page):
    at = open_page(PAGE, a="$x$ **b** cat", b="cat $x$ **b**")
    assert not at.exception and not at.error
    text = " ".join(m.value for m in at.markdown)
    assert "' $' moved from position 0 to" in text.replace("\\", "")  # the first moved token, as typed
    assert "**b**" not in text and "$x$" not in text  # only escaped


def test_64_tokens_stay_under_1_mb_of_chart_data(open_page):
    words = [f"w{k}" for k in range(32)]
    a, b = " ".join(words), " ".join(reversed(words))
    at = open_page(PAGE, a=a, b=b, method="learned")
    assert not at.exception and not at.error
    assert len(encode(" " + a, 50257)) == 64  # " w12" is two tokens: the sentence bound's 64
    total = sum(c.proto.ByteSize() for c in charts(at))
    assert 300_000 < total < MAX_CHART_BYTES, total  # 13 heatmaps of 64 × 64, half of each masked


def test_a_presets_heads_are_used_and_a_large_head_is_drawn_in_blocks(open_page):
    at = open_page(PAGE, preset="bloom-176b")  # BLOOM's 112 heads of 128
    assert not at.exception and not at.error
    assert any("(14336 → 128 numbers" in c.value and "Head 1 of 112." in c.value for c in at.caption)
    at = open_page(PAGE, dim="16384", method="alibi")  # 8 heads of 2,048: W is 33.5 M values, in blocks
    assert not at.exception and not at.error
    assert any(
        "(16384 → 2048 numbers per token, drawn with seed 123, in blocks of rows)" in c.value
        for c in at.caption
    )


def test_presenting_asks_a_question_the_class_can_reason_out(open_page):
    at = open_page(PAGE, method="alibi", present="true")
    assert not at.exception
    assert [s.value for s in at.subheader] == ["1. Attention in one minute"]
    assert not charts(at)  # the words first; the picture is the next slide
    at.button(key="next_attention").click().run()
    assert [s.value for s in at.subheader] == ["1. Attention in one minute"] and len(charts(at)) == 2
    at.button(key="next_attention").click().run()
    assert [s.value for s in at.subheader] == ["2. Where ALiBi acts, on sentence A (head 1 of 8)"]
    at.button(key="next_attention").click().run()
    assert [s.value for s in at.subheader] == ["3. A and B, side by side"]
    assert not charts(at)  # the answer is hidden until the class has guessed
    question = at.text_input(key="predict_attention_pairs")
    assert question.label.replace("\\", "") == (
        "In head 1 of 8, ALiBi adds -0.5 to the score of two tokens 1 apart. What does it add to the "
        "score of ' mat' → ' cat' in A, 4 tokens back?"
    )
    question.input("-2").run()
    at.button(key="reveal_attention_pairs").click().run()
    assert len(at.success) == 1 and "right" in at.success[0].value.lower()
    assert len(charts(at)) == 2


@pytest.mark.parametrize(
    "method, answer", [("t5", "yes"), ("rope", "yes"), ("shaw", "yes"), ("learned", "no")]
)
def test_presenting_asks_whether_a_kept_pair_keeps_its_term(method, answer, open_page):
    at = open_page(PAGE, method=method, present="true")
    for _ in range(3):
        at.button(key="next_attention").click().run()
    question = at.text_input(key="predict_attention_pairs")
    assert "' sat' → ' cat' is 1 token back in A and in B" in question.label.replace("\\", "")
    question.input(answer).run()
    at.button(key="reveal_attention_pairs").click().run()
    assert len(at.success) == 1


@pytest.mark.parametrize(
    "method, answer, told",
    [
        ("alibi", "-2", "-2 for a key 4 tokens back"),
        ("learned", "no", "get another term elsewhere in the sentence"),
        ("rope", "yes", "the same two tokens at the same distance score the same"),
    ],
)
def test_presenting_the_key_fact_waits_for_the_pair_question(method, answer, told, open_page):
    at = open_page(PAGE, method=method, present="true", slide="2")
    fact = at.info[0].value
    assert told not in fact and fact.endswith(".")  # what the method does, not what section 3 asks
    at.button(key="next_attention").click().run()
    at.text_input(key="predict_attention_pairs").input(answer).run()
    at.button(key="reveal_attention_pairs").click().run()
    assert len(at.success) == 1
    at.button(key="prev_attention").click().run()
    assert told in at.info[0].value  # once revealed, the key fact says it


def test_presenting_nope_asks_what_the_mask_lets_the_token_see(open_page):
    at = open_page(PAGE, method="nope", present="true")
    for _ in range(3):
        at.button(key="next_attention").click().run()
    question = at.text_input(key="predict_attention_pairs")
    assert "how many tokens (itself included) can ' cat' see in B?" in question.label.replace("\\", "")
    question.input("5").run()
    at.button(key="reveal_attention_pairs").click().run()
    assert len(at.success) == 1


def test_after_training_a_switch_shows_the_trained_models_own_heads(open_page, job_watch):
    at = open_page("pages/Training.py", steps="30", size="tiny", train_context="8", seed="7")
    at.button(key="train").click().run()
    job_watch.until_finished()
    at.switch_page(PAGE).run()
    assert not at.exception
    at.text_input(key="a").input("the wind was a gale from the north").run()
    at.text_input(key="b").input("the north wind was a gale").run()
    at.toggle(key="trained_heads").set_value(True).run()
    assert not at.exception and not at.warning
    weights = next(c.value for c in at.caption if c.value.startswith("Weights:"))
    assert weights.startswith(
        "Weights: the trained tiny GPT's first block (learned, tiny: layer norm, then `qkv`"
    )
    assert (
        "32 → 16), a decoder, so its mask is on; the sentences are cut to its context of 8 tokens" in weights
    )
    assert [s.value for s in at.subheader] == [
        "1. Attention in one minute",
        "2. Where Learned absolute acts, on sentence A (head 1 of 2)",
        "3. A and B, side by side",
        "4. Every family on sentence A (head 1 of 8)",  # a trained model has one family: the rest are random
    ]
    assert len(at.get("vega_lite_chart")) == 2 + 4 + 2 + sum(f.kind != "relative" for f in FAMILIES.values())
    at.text_input(key="a").input("the zebra was quantum").run()  # words the log never uses
    assert "The trained model knows only the" in at.warning[0].value
    assert "3 of the sentences' tokens are not among them (' z', 'ebra', ' quantum')" in at.warning[0].value
    assert at.warning[0].value.endswith("Showing the random head.")
    assert next(c.value for c in at.caption if c.value.startswith("Weights:")).startswith("Weights: random")


@pytest.mark.parametrize("method", ["shaw", "t5", "alibi", "rope"])
def test_why_position_headlines_the_methods_own_term_on_pairs(method, open_page):
    """For a family that adds nothing to the input, Why position? shows its own term on a pair whose
    distance the move kept and on one whose distance it changed, with the Attention page's head."""
    at = open_page("pages/Why_position.py", method=method)
    assert not at.exception and not at.error
    label = FAMILIES[method].label
    cos, kept, changed = page_metrics(at)
    assert cos.value == "1.000000" and not any("added" in m.label for m in page_metrics(at))
    assert kept.label.replace("\\", "") == f"{label} term, ' sat' → ' cat' in B"
    assert kept.delta == "the same in A · 1 token back in both"  # the same distance: the same term
    assert changed.label.replace("\\", "") == f"{label} term, ' cat' → ' mat' in B"
    assert changed.delta.endswith("· 4 back in A, 2 in B")
    caption = next(c.value for c in at.caption if "moved from position" in c.value).replace("\\", "")
    assert "sees how far apart they are, not where they stand" in caption
    text = " ".join(m.value for m in open_page(PAGE, method=method).markdown).replace("\\", "")
    for metric in (kept, changed):  # the Attention page says the same numbers
        assert f"is {metric.value}" in text or f"and {metric.value} in B" in text
    links = [link.proto.label for link in at.main.get("page_link")]
    assert f"{label} on these two sentences, pair by pair: Attention" in links
    assert "See it on your own sentence: Attention, section 1" in links  # the bridge, folded


def test_why_position_headlines_differ_between_methods_and_nope_names_the_mask(open_page):
    pages = {m: open_page("pages/Why_position.py", method=m) for m in FAMILIES}
    values = {m: [x.value for x in page_metrics(at)[1:]] for m, at in pages.items()}
    assert values["alibi"] == ["-0.5000", "-1.0000"]  # head 1's slope 1/2: 1 and 2 tokens back in B
    assert values["nope"] == ["5"]  # ' cat' sees 5 tokens in B (itself included)
    assert values["alibi"] != values["t5"] != values["nope"]
    at = open_page("pages/Why_position.py", method="nope")
    assert page_metrics(at)[1].label.replace("\\", "") == "Tokens ' cat' can see in B (the causal mask)"
    assert page_metrics(at)[1].delta == "in A: 2"
    caption = next(c.value for c in at.caption if "moved from position" in c.value).replace("\\", "")
    assert "only the causal mask carries order, and it lets ' cat' see 2 tokens in A and 5 in B" in caption


def test_why_positions_rope_headline_agrees_with_its_table(open_page):
    at = open_page("pages/Why_position.py", method="rope")
    table = at.table[0].value.set_index("token")  # the tokens as the page shows them: ' cat'
    table.index = table.index.str.strip("' ")
    cosine = float(page_metrics(at)[0].value)
    assert cosine == pytest.approx(table.loc["cat", "cosine, with positions"], abs=1e-6)
    assert not any("rotated" in m.label for m in at.metric)  # no cosine of a rotated key to contradict it


def test_why_position_still_says_added_where_a_table_is_added(open_page):
    at = open_page("pages/Why_position.py", method="learned")
    assert "… with positions 1 and 4 added" in [m.label for m in at.metric]
    links = [link.proto.label for link in at.main.get("page_link")]
    assert "Learned absolute on these two sentences, pair by pair: Attention" not in links
    assert links[-1].startswith("Next: step 2 of 8, Pipeline")


def test_a_batch_or_stride_change_finds_the_maps_and_a_seed_change_recomputes_them(open_page):
    from ui.server.cache import counts

    before = counts(MAPS)
    at = open_page(PAGE, seed="321")  # a seed no other test keeps maps for
    heatmaps = [c.proto.spec for c in charts(at)]
    assert (counts(MAPS) - before).builds == 1  # sentence A's families and B's method, at once
    before = counts(MAPS)
    at.sidebar.number_input(key="batch").set_value(3).run()
    at.sidebar.number_input(key="stride").set_value(2).run()
    found = counts(MAPS) - before
    assert found.builds == 0 and found.hits >= 2 and not at.exception  # neither is read by a map
    assert [c.proto.spec for c in charts(at)] == heatmaps
    at.sidebar.number_input(key="seed").set_value(322).run()
    assert (counts(MAPS) - before).builds == 1  # new heads and embeddings


def test_a_rerun_that_changes_no_map_draws_the_kept_heatmaps_and_a_new_seed_new_ones(open_page):
    from ui.server.cache import counts

    at = open_page(PAGE, method="alibi")
    sent = [d.sent for d in drawn(at)]
    captions = [c.value for c in at.caption]
    heatmaps, maps = counts(HEATMAPS), counts(MAPS)
    at.sidebar.number_input(key="batch").set_value(4).run()  # no map reads the batch size
    assert not at.exception and (counts(HEATMAPS) - heatmaps).builds == 0
    assert (counts(MAPS) - maps).builds == 0  # the signatures are kept with the maps
    assert [d.sent for d in drawn(at)] == sent  # the same charts, drawn again
    assert [c.value for c in at.caption] == captions
    heatmaps, maps = counts(HEATMAPS), counts(MAPS)
    at.sidebar.number_input(key="seed").set_value(7).run()  # new embeddings: new maps, new charts
    built = (counts(HEATMAPS) - heatmaps).builds
    assert not at.exception and built == len(charts(at)) - 2 == len(sent) - 2  # not the row's two
    assert (counts(MAPS) - maps).builds == 1  # each family's signature read once, on the new maps of A
    now = [d.sent for d in drawn(at)]  # the same specs (the browser keeps its views), new data
    assert [s[0] for s in now] == [s[0] for s in sent] and sum(
        a != b for a, b in zip(now, sent, strict=True)
    ) >= built
