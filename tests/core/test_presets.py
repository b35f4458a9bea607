import pytest

from core.presets import PRESETS

# Published parameter counts: Hugging Face's num_parameters() of each checkpoint's base model
# (GPT-2: GPT2Model, tied head; LLaMA: LlamaForCausalLM; BLOOM: BloomModel; T5: T5ForConditionalGeneration).
PUBLISHED_TOTALS = {
    "gpt2-small": 124_439_808,
    "gpt2-medium": 354_823_168,
    "gpt2-large": 774_030_080,
    "gpt2-xl": 1_557_611_200,
    "llama2-7b": 6_738_415_616,
    "llama3-8b": 8_030_261_248,
    "bloom-176b": 176_247_271_424,
    "t5-base": 222_903_552,
}


@pytest.mark.parametrize("name, total", PUBLISHED_TOTALS.items())
def test_totals_match_the_published_counts(name, total):
    assert PRESETS[name].total_parameters() == total


def test_gpt3_is_175b():
    # Brown et al. 2020 report 175.0B for d 12288, 96 layers, context 2048.
    assert PRESETS["gpt3-175b"].total_parameters() == pytest.approx(175e9, rel=0.005)


@pytest.mark.parametrize(
    "name, vocab, dim, context, method",
    [
        ("book", 50257, 256, 4, "learned"),
        ("gpt3-175b", 50257, 12288, 2048, "learned"),
        ("llama2-7b", 32000, 4096, 4096, "rope"),
        ("llama3-8b", 128256, 4096, 8192, "rope"),
        ("bloom-176b", 250880, 14336, 2048, "alibi"),
        ("t5-base", 32128, 768, 512, "t5"),
    ],
)
def test_configurations(name, vocab, dim, context, method):
    p = PRESETS[name]
    assert (p.vocab_size, p.dim, p.context_length, p.method) == (vocab, dim, context, method)


def test_embedding_tables():
    assert PRESETS["gpt2-small"].embedding_parameters() == 50257 * 768 + 1024 * 768
    assert PRESETS["llama3-8b"].embedding_parameters() == 128256 * 4096
    assert PRESETS["t5-base"].embedding_parameters() == 32128 * 768 + 2 * 32 * 12
    assert PRESETS["llama3-8b"].rope_base == 500000.0 and PRESETS["t5-base"].max_distance == 128


def test_a_preset_sets_a_stride_of_its_context():
    # llama3-8b kept the sidebar's stride 4 at context 8192 (8 windows, each 4 tokens on)
    for p in PRESETS.values():
        assert p.stride == p.context_length
    assert PRESETS["book"].stride == 4  # the book's own setting (ch. 2.8: max_length=4, stride=4)


@pytest.mark.parametrize(
    "name, tokens, batch, expected",
    [
        ("book", 278, 8, (4, 8)),  # the lesson sample: 69 windows of 4
        ("gpt2-small", 9090, 8, (1024, 8)),  # range(0, 8066, 1024): 8 windows, one batch of 8
        ("gpt3-175b", 9090, 8, (2048, 4)),  # 4 windows of 2,048: the batch becomes 4
        ("llama3-8b", 9090, 8, (8192, 1)),  # one window of 8,192
        ("llama3-8b", 8192, 8, (8192, 1)),  # no window at all: at least 1, the page says why
        ("t5-base", 9090, 2, (512, 2)),  # a smaller batch is kept
    ],
)
def test_the_batch_fits_the_windows_the_text_makes_at_that_stride(name, tokens, batch, expected):
    assert PRESETS[name].data_settings(tokens, batch) == expected
