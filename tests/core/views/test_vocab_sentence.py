from core.text.tokenizer import encode
from core.text.vocab import table_parameters, vocab_sweep
from core.views.vocab_sentence import tradeoff_sentence

TEXT = "I HAD always thought Jack Gisburn rather a cheap genius--though a good fellow enough. " * 20


def test_the_sentence_states_the_sweeps_numbers():
    points = vocab_sweep(TEXT)
    sentence = tradeoff_sentence(points, 1000, len(encode(TEXT, 1000)), 256)
    assert f"{points[0].num_tokens:,} to {points[-1].num_tokens:,} tokens" in sentence
    assert f"{table_parameters(50257, 256):,} parameters at d = 256" in sentence
    assert f"V = 1,000: {len(encode(TEXT, 1000)):,} tokens and 256,000 parameters" in sentence
