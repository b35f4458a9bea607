"""What today's models do with position on the student's sentences (core/positional/on_sentence.py): the
counts are the released configs', and whether a window or chunk holds a sentence whole, and the NoPE
layers' temperature, change exactly where the masks and the formula say (worked by hand below)."""

import math

import pytest
import torch

from core.positional.layer_plans import CHUNK, FULL, WINDOW, LayerPlan, layer_mask
from core.positional.on_sentence import held_whole, on_sentence
from core.views.glossary import first_undefined, plain

LLAMA_CHUNK, GEMMA_WINDOW = 8192, 1024  # Llama 4 Scout's attention_chunk_size, Gemma 3 27B's sliding_window


@pytest.mark.parametrize("span", [1, 3, 8, None])
@pytest.mark.parametrize("sees", [CHUNK, WINDOW, FULL])
def test_a_window_or_chunk_holds_a_sentence_whole_exactly_when_its_mask_is_the_causal_mask(sees, span):
    if (sees == FULL) != (span is None):
        return
    plan = LayerPlan(rotates=True, sees=sees, span=span, base=10_000.0)
    for tokens in range(1, 12):
        causal = torch.ones(tokens, tokens, dtype=torch.bool).tril()
        assert held_whole(plan, tokens) == torch.equal(layer_mask(plan, tokens), causal)
    assert held_whole(plan, 100_000) == (sees == FULL)  # a long text: no [T, T] mask built


def test_rope_on_a_short_sentence_names_each_models_layers_and_base():
    llama, gemma, qwen, part = (plain(s) for s in on_sentence("rope", 11))
    assert (
        "Llama 4 Scout rotates as RoPE does on 36 of its 48 layers, with base 500,000" in llama
    )  # 48 − 48/4
    assert "its chunk of 8,192 tokens holds each of your sentences whole (11 tokens at most)" in llama
    assert "so on them its mask is just the causal mask" in llama
    assert "52 layers of sliding-window attention" in gemma and "10 full layers with base 1,000,000" in gemma
    assert "their positions divided by 8 before they turn" in gemma  # the linear factor on full layers only
    assert "that holds each of your sentences whole" in gemma
    assert "it turns your sentences exactly as RoPE does, base 1,000,000" in qwen
    # int(96 · 0.25), int(64 · 0.5), int(128 · 0.5): transformers' rotary dims; DeepSeek-V3 128 + 64
    assert "GPT-NeoX-20B turns 24 of 96, Phi-1.5 32 of 64 and GLM-4 9B 64 of 128" in part
    assert "DeepSeek-V3 turns 64 of the 192 numbers of a head's query" in part
    assert "its key's 64 turned numbers are one part shared by all 128 heads" in part


@pytest.mark.parametrize(
    ("tokens", "llama", "gemma"),
    [
        (GEMMA_WINDOW, "holds each of your sentences whole (1,024 tokens at most)", "holds each"),
        (
            GEMMA_WINDOW + 1,
            "holds each",
            "a sentence of 1,025 tokens is longer: a token there sees at most 1,024",
        ),
        (LLAMA_CHUNK, "holds each", "sees at most 1,024"),
        (LLAMA_CHUNK + 1, "chunks of 8,192 tokens cut a sentence of 8,193 into 2", "sees at most 1,024"),
        (3 * LLAMA_CHUNK, "cut a sentence of 24,576 into 3", "sees at most 1,024"),
    ],
)
def test_a_long_text_is_cut_where_the_window_and_the_chunk_end(tokens, llama, gemma):
    said = [plain(s) for s in on_sentence("rope", tokens)]
    assert llama in said[0] and gemma in said[1]


@pytest.mark.parametrize(
    ("tokens", "factor"),
    [
        (1, "it is 1."),
        (LLAMA_CHUNK - 1, "it is 1."),  # the last position 8,190: ⌊8,191 / 8,192⌋ = 0
        (LLAMA_CHUNK, f"it rises to {1 + 0.1 * math.log(2):.3f} at the last"),  # position 8,191: 1 + 0.1 ln 2
        (3 * LLAMA_CHUNK, f"it rises to {1 + 0.1 * math.log(4):.3f} at the last"),  # ⌊24,576 / 8,192⌋ = 3
    ],
)
def test_the_nope_layers_temperature_is_one_until_position_8191(tokens, factor):
    (said,) = on_sentence("nope", tokens)
    assert "uses no position on every 4th layer, 12 of its 48" in plain(said)
    assert factor in plain(said)
    assert f"{1 + 0.1 * math.log(2):.3f}" == "1.069"  # the hand-worked value


def test_a_family_today_s_models_do_not_use_gets_no_sentence():
    assert on_sentence("alibi", 11) == on_sentence("t5", 11) == on_sentence("learned", 11) == []


@pytest.mark.parametrize("method", ["rope", "nope"])
def test_every_word_is_defined_where_first_written_and_a_known_word_stays_plain(method):
    text = " ".join(on_sentence(method, 11))
    # attention and RoPE: the pages that show these sentences teach them first (tests/ui/test_glossary.py)
    assert [name for name, _ in first_undefined(text)] in ([], ["attention", "RoPE"])
    plain_known = " ".join(on_sentence(method, 11, known=("causal mask", "score")))
    assert "**causal mask** (" not in plain_known and "causal mask" in plain_known
    assert "**causal mask** (" in text


def test_the_sentences_follow_the_length_they_are_given():
    # one token: the singular, and every window holds it
    said = plain(" ".join(on_sentence("rope", 1)))
    assert "(1 token at most)" in said and "1 tokens" not in said
    assert [len(on_sentence("rope", n)) for n in (1, 10, 10_000)] == [4, 4, 4]
