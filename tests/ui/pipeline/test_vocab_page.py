"""The vocab size is the tokenizer's: the Pipeline and Why position? at several V."""

import re

import pytest

from core.text.tokenizer import encode

TEXT = "The cat sat on the mat, and the dog sat on the log; the cat saw the dog."


def token_count(at) -> int:
    caption = next(c.value for c in at.main.caption if "characters →" in c.value)
    return int(re.search(r"→ ([\d,]+) tokens", caption).group(1).replace(",", ""))


@pytest.mark.parametrize("vocab", [300, 1000, 50257, 50304])
def test_the_pipeline_tokenizes_with_the_sidebars_v(vocab, open_page):
    at = open_page(vocab=str(vocab), text=TEXT, context="4", batch="2")
    assert not at.exception and not at.error
    assert token_count(at) == len(encode(TEXT, vocab))
    chips = at.button_group(key="pick_token").proto.options  # the text's chips, each "piece :small[ID]"
    ids = [int(re.search(r":small\[(\d+)\]", chip.content).group(1)) for chip in chips]
    assert ids == encode(TEXT, vocab)[: len(ids)] and max(ids) < vocab


def test_token_counts_differ_across_v_on_the_same_text(open_page):
    counts = [token_count(open_page(vocab=str(v), text=TEXT, batch="2")) for v in (300, 1000, 50257)]
    assert counts[0] > counts[1] > counts[2] == len(encode(TEXT))


def test_the_trade_off_sentence_states_the_sidebars_v(open_page):
    at = open_page(vocab="1000", text=TEXT, batch="2")
    sentence = next(c.value for c in at.main.caption if "the 256 single bytes and" in c.value)
    assert f"V = 1,000: {len(encode(TEXT, 1000)):,} tokens and 256,000 parameters" in sentence


@pytest.mark.parametrize("vocab", ["256", "100"])
def test_a_vocab_below_257_is_explained(vocab, open_page):
    at = open_page(vocab=vocab)
    assert not at.exception
    assert "256 byte tokens" in " ".join(e.value for e in at.error)


def test_why_position_uses_the_cut_tokenizer(open_page):
    at = open_page("pages/Why_position.py", vocab="300")
    assert not at.exception and not at.error
    chips = [
        *at.button_group(key="pick_token_a").proto.options,
        *at.button_group(key="pick_token_b").proto.options,
    ]  # the two sentences' chips, each "piece :small[ID]"
    ids = [int(re.search(r":small\[(\d+)\]", chip.content).group(1)) for chip in chips]
    assert ids and max(ids) < 300
