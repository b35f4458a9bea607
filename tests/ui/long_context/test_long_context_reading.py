"""The Long context page in a student's words, under every preset, every scaling method and odd settings:
no glossary word before its definition (in every stream ``reading`` gives, the folded settings and code
included), every sentence agreeing in number and naming no config key, and the answer at the top built
from the config in force."""

import json

import pytest

from core.positional.long_context import long_context_view
from core.positional.long_context_presets import PRESETS
from core.positional.long_context_words import short_answer
from core.positional.rope_scaling import ROPE_TYPES
from tests.core.positional.test_long_context_sentences import problems
from tests.core.prose import prose_problems
from tests.ui.visible_text import reading, undefined_words

PAGE = "pages/Long_context.py"
CUSTOM = {"lc_preset": "custom"}
SETTINGS = {
    **{key: {"lc_preset": key} for key in PRESETS},
    **{f"{t}, s = 8": {**CUSTOM, "lc_rope_type": t, "lc_factor": "8"} for t in ROPE_TYPES if t != "longrope"},
    "yarn, s = 1 on a longer config": {**CUSTOM, "lc_rope_type": "yarn", "lc_factor": "1"},
    "yarn, s = 1.01": {**CUSTOM, "lc_rope_type": "yarn", "lc_factor": "1.01"},
    "llama3, s = 1,000": {**CUSTOM, "lc_rope_type": "llama3", "lc_factor": "1000"},
    "one pair": {
        **CUSTOM,
        "lc_rope_type": "linear",
        "lc_head_dim": "2",
        "lc_max_position_embeddings": "4",
        "lc_factor": "4",
    },
    "no slow pair": {
        **CUSTOM,
        "lc_rope_type": "linear",
        "lc_head_dim": "8",
        "lc_rope_theta": "2",
        "lc_max_position_embeddings": "1024",
        "lc_factor": "2",
    },
    "half the head turns": {**CUSTOM, "lc_rope_type": "yarn", "lc_partial_rotary_factor": "0.5"},
    "attention factor 0.5 by hand": {**CUSTOM, "lc_rope_type": "yarn", "lc_attention_factor": "0.5"},
    "attention factor 2 by hand": {**CUSTOM, "lc_rope_type": "yarn", "lc_attention_factor": "2"},
    "DeepSeek's two mscales": {
        **CUSTOM,
        "lc_rope_type": "yarn",
        "lc_mscale": "1",
        "lc_mscale_all_dim": "0.5",
    },
}


def page_text(at) -> str:
    """Every sentence the page shows, and what a screen reader says for each chart."""
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.error, *at.success]
    charts = [json.loads(c.proto.spec).get("description", "") for c in at.get("vega_lite_chart")]
    return "\n".join([*(p.value for p in parts), *(m.label for m in at.metric), *charts])


def prose(at) -> list[str]:
    """The page's sentences outside the settings (where config keys are the point) and the code."""
    inside = {m.value for e in at.main.expander for m in (*e.markdown, *e.caption)}
    return [m.value for m in (*at.main.markdown, *at.main.caption) if m.value not in inside]


@pytest.mark.parametrize("name", list(SETTINGS))
def test_no_word_is_used_before_it_is_defined(name, open_page):
    at = open_page(PAGE, **SETTINGS[name])
    assert not at.exception and not at.error
    assert not undefined_words(at), undefined_words(at)


@pytest.mark.parametrize("name", list(SETTINGS))
def test_every_sentence_reads_and_names_no_key(name, open_page):
    at = open_page(PAGE, **SETTINGS[name])
    assert not at.exception and not at.error
    assert not prose_problems(page_text(at)), prose_problems(page_text(at))
    assert [(x, problems(x)) for x in prose(at) if problems(x)] == []


@pytest.mark.parametrize("key", list(PRESETS))
def test_the_answer_comes_first_with_the_length_it_reads(key, open_page):
    at = open_page(PAGE, lc_preset=key)
    cfg = PRESETS[key].config
    said = short_answer(long_context_view(cfg, "x"), PRESETS[key].name)
    main = reading(at)[0]
    assert main.index("**The question:**") < main.index("The answer, in short") < main.index("1. **")
    assert said.words in main and said.number == f"{cfg.extended:,}"
    metric = at.metric[0]
    assert (metric.label, metric.value) == ("Longest text it reads (L')", f"{cfg.extended:,}")
    assert "The evidence is below" in main


def test_the_answer_follows_the_settings(open_page):
    at = open_page(PAGE)
    assert at.metric[0].value == "131,072"
    assert "lets it read L' = 131,072, 16 × L." in " ".join(m.value for m in at.markdown)
    at = at.number_input(key="lc_factor").set_value(16.0).run()  # now s·L = L'
    assert not at.exception and at.metric[0].value == "131,072"
    words = " ".join(m.value for m in at.markdown)
    assert "so by L' they stay within the angles seen in training" in words
    at = at.selectbox(key="lc_preset").set_value("llama2-7b").run()
    assert at.metric[0].value == "4,096" and "reads no further: L' = L." in " ".join(
        m.value for m in at.markdown
    )


def test_the_answer_is_not_shown_when_presenting(open_page):
    at = open_page(PAGE, present="true")
    assert not at.exception
    assert "The answer, in short" not in " ".join(m.value for m in at.markdown)
