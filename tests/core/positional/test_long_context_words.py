"""The Long context page's answer, joins and reading sentences over many configs: every sentence reads
for one, many and zero and names no config key; the answer is two to four sentences with no word it
would have to define; each join says both of its halves; glossary words are defined at first use."""

import re

import pytest
import torch

from core.positional.long_context import attention_factor_curves, long_context_view
from core.positional.long_context_presets import PRESETS
from core.positional.long_context_story import story
from core.positional.long_context_words import (
    attention_words,
    drawn_words,
    factors_words,
    measured_lead,
    method_words,
    pair_findings,
    pairs_lead,
    score_words,
    short_answer,
    tiny_factor_words,
)
from core.positional.rope_scaling_charts import (
    PLAIN_WIDTH,
    attention_chart,
    attention_frame,
    line_chart_height,
    score_chart,
    score_frame,
)
from core.views.glossary import GLOSSARY, FirstUse, define, first_undefined
from tests.contrast import contrast
from tests.core.positional.test_long_context_sentences import CONFIGS, problems
from tests.core.prose import prose_problems

LABEL = "your config"


def page_sentences(view, words: FirstUse) -> list[str]:
    """Every sentence the page builds from the config, in the order it writes them."""
    return [
        *story(view, "A model with your settings", words),
        factors_words(view, words),
        method_words(view, words),
        pairs_lead(words),
        *pair_findings(view, words),
        drawn_words(view, LABEL, words),
        score_words(view, LABEL, words),
        attention_words(view, words),
        measured_lead(words),
        tiny_factor_words(32, 128, view, LABEL),
    ]


def sentences(text: str) -> int:
    """How many sentences ``text`` has (a decimal point is no sentence's end)."""
    return len(re.findall(r"[.!?](?=\s|$)", text))


@pytest.mark.parametrize("name", list(CONFIGS))
@pytest.mark.parametrize("teach", [True, False], ids=["defined", "plain"])
def test_every_sentence_reads_for_one_many_and_zero(name, teach):
    view = long_context_view(CONFIGS[name], LABEL)
    for text in [*page_sentences(view, FirstUse(teach)), short_answer(view, "A model").words]:
        assert text.endswith("."), text
        assert prose_problems(text) == [], text
        assert problems(text) == [], text


QUESTION = define("RoPE")  # the page's question defines RoPE above everything else


@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_page_defines_every_word_where_it_first_writes_it(name):
    view = long_context_view(CONFIGS[name], LABEL)
    assert first_undefined("\n".join([QUESTION, *page_sentences(view, FirstUse())])) == []


def test_a_word_is_defined_once_then_written_plain():
    words = FirstUse()
    assert words("YaRN") == f"**YaRN** ({GLOSSARY['YaRN'].gloss})"
    assert words("YaRN") == "YaRN" and words("NTK scaling", "dynamic NTK") != "dynamic NTK"
    assert FirstUse(teach=False)("NTK scaling", "dynamic NTK") == "dynamic NTK"


@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_answer_is_two_to_four_plain_sentences_with_the_length_it_reads(name):
    view = long_context_view(CONFIGS[name], LABEL)
    said = short_answer(view, "A model")
    assert 2 <= sentences(said.words) <= 4, said.words
    assert (
        said.number == f"{view.cfg.extended:,}"
        and f"L' = {view.cfg.extended:,}" in said.words
        or (view.cfg.extended == view.cfg.original and "L' = L" in said.words)
    )
    assert first_undefined(f"{QUESTION} {said.words}") == []  # no word but RoPE, which the question defines


def test_the_answer_says_how_for_each_released_model():
    def said(key):
        return short_answer(long_context_view(PRESETS[key].config, "x"), PRESETS[key].name).words

    llama = said("llama3.1-8b")
    # The answer in plain words first, then this model's numbers.
    assert llama.startswith("RoPE has no position table that could run out")
    assert "released models slow RoPE down for long texts and then train further on them" in llama
    assert "**Llama 3.1 8B** was trained on texts of up to L = 8,192 positions, and its config" in llama
    assert "lets it read L' = 131,072, 16 × L." in llama
    assert "keeps 29 pairs as trained, slows 6 pairs by less than s = 8 and slows 29 pairs by s" in llama
    assert "reach only 2 times the largest angle seen in training, not 16 times: s·L = 65,536" in llama
    assert "so by L' they stay within the angles seen in training" in said("deepseek-v3")
    assert "reads no further: L' = L." in said("llama2-7b")
    assert "each of its 64 turning pairs makes at least one full turn within L" in said("gemma4-global")
    assert "**Qwen2.5 7B** was trained" in said("qwen2.5-7b")  # the model's name, not its method's


def test_the_lectures_claim_is_joined_to_the_unseen_angles():
    text = " ".join(story(long_context_view(PRESETS["llama3.1-8b"].config, "x"), "M", FirstUse()))
    unseen = text.index("turn to angles the model never saw in training")
    lecture = text.index("The lecture says a relative method “can generalize better")
    assert unseen < lecture < text.index("Scaling slows pairs down")  # beside the half it joins
    assert "**extrapolates** (" in text
    assert "depends only on how far apart their two tokens are, so past L no position is missing" in text
    assert "the model never saw two tokens further apart than L, nor the angles" in text
    assert "That is why released models scale RoPE and then train further on long texts." in text
    none = " ".join(story(long_context_view(CONFIGS["no slow pair"], "x"), "M"))
    assert "further apart than L. That is why" in none  # no slow pair: no unseen angle to name


def test_the_three_factors_are_joined():
    llama = long_context_view(PRESETS["llama3.1-8b"].config, "Llama 3.1 8B")
    text = factors_words(llama, FirstUse(teach=False))
    assert text.startswith(
        "L'/L = 16 is how much longer than in training the config lets the model read; s = 8 is"
    )
    assert "another number: the factor the config gives its scaling" in text
    assert (
        "Here s is smaller than L'/L: a pair slowed by s passes the angles seen in training at s·L = 65,536"
        in text
    )
    deepseek = factors_words(long_context_view(PRESETS["deepseek-v3"].config, "x"), FirstUse(teach=False))
    assert "and s = 40 is the factor" in deepseek and "They are equal" in deepseek
    tiny = tiny_factor_words(32, 128, llama, "Llama 3.1 8B")
    assert tiny.startswith("This run's s = 4 is its own: it reads windows of 128 = 4 × T")
    assert "It is not Llama 3.1 8B's s = 8 above" in tiny
    same = factors_words(long_context_view(PRESETS["llama2-7b"].config, "x"), FirstUse(teach=False))
    assert same.startswith("s = 1: the config reads no further than L")


def test_a_line_above_1_is_joined_to_this_configs_attention_factor():
    view = long_context_view(PRESETS["llama3.1-8b"].config, "Llama 3.1 8B")
    text = score_words(view, "Llama 3.1 8B", FirstUse(teach=False))
    assert "A line starts near its attention factor squared: YaRN's near 1.4591 (1.2079²)." in text
    assert "Llama 3.1 8B's attention factor is 1.0000, the metric above, so its line starts near 1." in text
    metrics = factors_words(view, FirstUse(teach=False))
    assert (
        "This config has no attention factor: its attention factor of 1 leaves every query and key as it is"
        in metrics
    )
    qwen = long_context_view(PRESETS["qwen2.5-7b"].config, "Qwen2.5 7B with YaRN")
    assert "its line starts near 1.2965 (1.1386²)" in score_words(qwen, "Qwen2.5 7B with YaRN", FirstUse())


def test_a_point_of_the_score_chart_is_said_in_plain_words():
    text = score_words(long_context_view(PRESETS["llama3.1-8b"].config, "x"), "x", FirstUse(teach=False))
    assert "There are 131,072 distances and 314 points, so a point stands for a stretch of distances" in text
    assert "Each point is the mean over every distance" not in text
    one = score_words(long_context_view(CONFIGS["one slow pair"], "x"), "x", FirstUse(teach=False))
    assert "Each point is one distance." in one
    assert "the **cosine similarity** (" in score_words(
        long_context_view(CONFIGS["one slow pair"], "x"), "x", FirstUse()
    )


def test_plain_rope_is_a_readable_line_on_the_score_chart():
    view = long_context_view(PRESETS["llama3.1-8b"].config, "Llama 3.1 8B")
    spec = score_chart(score_frame(view), "Llama 3.1 8B", 8192).to_dict()
    encoding = spec["layer"][0]["encoding"]
    names = encoding["color"]["scale"]["domain"]
    plain = names.index("plain RoPE")
    assert contrast(encoding["color"]["scale"]["range"][plain]) >= 3
    widths = encoding["strokeWidth"]["scale"]["range"]
    assert widths[plain] == PLAIN_WIDTH >= 2.5 and widths[names.index("Llama 3.1 8B")] > PLAIN_WIDTH
    dashes = encoding["strokeDash"]["scale"]["range"]
    assert len({tuple(d) for d in dashes}) == len(dashes)  # every line its own dash


def test_a_chart_with_a_line_key_counts_the_key_in_its_height():
    view = long_context_view(PRESETS["llama3.1-8b"].config, "x")
    factors = torch.logspace(0, 2, 10, dtype=torch.float64)
    spec = attention_chart(
        attention_frame(attention_factor_curves(view.cfg, factors), factors), 8, 1.0
    ).to_dict()
    assert spec["height"] == line_chart_height(240, 2, False, 1, subtitle=True) > 240 + 2 * 40
    assert line_chart_height(230, 4, side=True) == 230  # a projector's key at the side: the plot alone
