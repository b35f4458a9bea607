"""The Long context page's sentences over many configs: every preset, s = 1, one pair, partial rotation,
pairs sped up, blends that run past the last pair. Each is grammatical for one, many and zero, and names
no config key and nothing written for developers."""

import re

import pytest

from core.positional.long_context import long_context_view
from core.positional.long_context_config import ORIGINAL, RopeConfig
from core.positional.long_context_presets import PRESETS
from core.positional.long_context_story import story
from core.positional.long_context_words import pair_findings
from core.positional.rope_scaling import PARTIAL
from core.training.extrapolation import Extrapolation, findings, measured, run_intro, verdict

CONFIGS = {
    **{key: p.config for key, p in PRESETS.items()},
    "plain, s = 1": RopeConfig("default", 128, 1e4, 4096),
    "linear, s = 1": RopeConfig("linear", 64, 1e4, 2048, (("factor", 1.0),)),
    "linear, s = 1.5": RopeConfig("linear", 64, 1e4, 2048, (("factor", 1.5),)),
    "yarn, s = 1, longer config": RopeConfig("yarn", 64, 1e4, 8192, (("factor", 1.0), (ORIGINAL, 4096))),
    "one fast pair": RopeConfig("linear", 2, 1e4, 64, (("factor", 4.0),)),
    "one slow pair": RopeConfig("linear", 2, 1e4, 4, (("factor", 4.0),)),
    "one fast, one slow": RopeConfig("linear", 4, 1e4, 8, (("factor", 4.0),)),
    "one slow of many": RopeConfig("linear", 16, 1e4, 1000, (("factor", 2.0),)),
    "no slow pair": RopeConfig("linear", 8, 2.0, 1024, (("factor", 2.0),)),
    "partial, one turning": RopeConfig("yarn", 4, 1e4, 64, (("factor", 4.0), (ORIGINAL, 16), (PARTIAL, 0.5))),
    "partial yarn": RopeConfig("yarn", 128, 5e5, 131072, (("factor", 8.0), (ORIGINAL, 8192), (PARTIAL, 0.5))),
    "proportional ×2": RopeConfig("proportional", 512, 1e6, 131072, ((PARTIAL, 0.25), ("factor", 2.0))),
    "longrope, one sped up": RopeConfig(
        "longrope",
        8,
        1e4,
        4096,
        (("short_factor", (1.0,) * 4), ("long_factor", (0.5, 1.0, 2.0, 64.0)), (ORIGINAL, 1024)),
    ),
    "llama3, turns of 1": RopeConfig(
        "llama3",
        64,
        1e4,
        16384,
        (("factor", 4.0), ("low_freq_factor", 0.5), ("high_freq_factor", 1.0), (ORIGINAL, 4096)),
    ),
    "yarn, blend past the last pair": RopeConfig(
        "yarn", 16, 1e4, 4096, (("factor", 4.0), (ORIGINAL, 1024), ("beta_fast", 1.0), ("beta_slow", 1e-3))
    ),
    "yarn keeps every pair": RopeConfig(
        "yarn", 16, 1e4, 4096, (("factor", 4.0), (ORIGINAL, 1024), ("beta_fast", 1e-3), ("beta_slow", 1e-4))
    ),
    "dynamic, small": RopeConfig("dynamic", 8, 1e4, 256, (("factor", 2.0),)),
}
KEYS = (
    "rope_type",
    "rope_theta",
    "max_position_embeddings",
    "original_max_position_embeddings",
    "low_freq_factor",
    "high_freq_factor",
    "beta_fast",
    "beta_slow",
    "mscale",
    "partial_rotary_factor",
    "short_factor",
    "long_factor",
    "attention_factor",
    "head_dim",
    "llama3",
    "yarn",
    "longrope",
)
DEVELOPER = ("transformers", "tools/", "the tests", ".py", "issue", "nats", "logit", "TinyGPT", "None", "nan")


def problems(text: str) -> list[str]:
    """What is wrong with a piece of prose: a count that disagrees with its noun, a config key, text for
    developers, or an unfilled value."""
    found = []
    checks = {
        "1 with a plural": r"(?<![\d.,])1 (pairs|turns|times)\b",
        "a plural count with a singular": r"(?<![\d.,])(0|[2-9]|\d[\d,]+) (pair|turn)\b",
        "zero as a number": r"(?<![\d.,])0 pairs\b|Of the 0\b",
        "the 1": r"\bthe 1 \w",
        "1 … still turn": r"(?<![\d.,])1 of the [\d,]+ slow pairs still turn\b",
        "a count of one pair with a plural verb": r"(?<![\d.,])1 pair (turn|carry|stay|reach)\b",
    }
    for name, pattern in checks.items():
        if re.search(pattern, text):
            found.append(f"{name}: {re.search(pattern, text).group(0)!r}")
    found += [f"key {k}" for k in KEYS if re.search(rf"\b{k}\b", text)]
    found += [f"developer text {d!r}" for d in DEVELOPER if d in text]
    if "{" in text or "}" in text:
        found.append("an unfilled value")
    return found


@pytest.mark.parametrize("name", list(CONFIGS))
def test_every_sentence_agrees_in_number_and_names_no_key(name):
    view = long_context_view(CONFIGS[name], "x")
    sentences = story(view, "A model with your settings") + pair_findings(view)
    for sentence in sentences:
        assert sentence.endswith("."), sentence
        assert problems(sentence) == [], sentence


def test_the_checks_catch_what_they_look_for():
    assert problems("Of the 1 pairs: 1 kept.") == ["1 with a plural: '1 pairs'", "the 1: 'the 1 p'"]
    assert problems("slows 3 pair by s.")[0].startswith("a plural count with a singular")
    assert problems("the other 0 pairs")[0].startswith("zero as a number")
    assert problems("keeps pairs under L/high_freq_factor.") == ["key high_freq_factor"]
    assert problems("trained by tools/measure.py") == ["developer text 'tools/'", "developer text '.py'"]
    assert problems("pair 0 makes a full turn every 6.3 positions; pair 63 needs 2 turns.") == []


def test_one_pair_zero_pairs_and_many_read_as_such():
    one = " ".join(story(long_context_view(CONFIGS["one slow pair"], "x"), "M"))
    assert "Its one turning pair makes a full turn every 6.3 positions, its wavelength." in one
    assert "Within L = 4 no pair finishes a full turn. Past L, the slow pair turns to angles" in one
    assert "by L' = 16 it reaches 4 times the largest angle it reached within L" in one
    assert "slows 1 pair by s = 4. Slowed down, the slow pair stays within the angles seen" in one
    mixed = " ".join(story(long_context_view(CONFIGS["one fast, one slow"], "x"), "M"))
    assert (
        "the fastest pair makes at least one full turn, so every angle was seen; the slowest never" in mixed
    )
    none = " ".join(story(long_context_view(CONFIGS["no slow pair"], "x"), "M"))
    assert "every turning pair makes at least one full turn" in none and "slow pairs" not in none
    partial = " ".join(story(long_context_view(CONFIGS["partial, one turning"], "x"), "M"))
    assert "Only 1 of each head's 2 pairs turns; the other one carries no position." in partial
    same = story(long_context_view(CONFIGS["yarn, s = 1, longer config"], "x"), "M")
    assert same[-1] == "This config leaves every pair as trained: nothing slows the slow pairs down."
    sped = " ".join(story(long_context_view(CONFIGS["longrope, one sped up"], "x"), "M"))
    assert "speeds up 1 pair" in sped
    past = " ".join(pair_findings(long_context_view(CONFIGS["yarn, blend past the last pair"], "x")))
    assert "none turns so few times (at most 0.001 turns) that it is slowed by the whole s" in past
    kept = " ".join(pair_findings(long_context_view(CONFIGS["yarn keeps every pair"], "x")))
    assert "YaRN keeps every pair: each turns at least 0.001 times within L = 1,024." in kept
    llama = " ".join(pair_findings(long_context_view(CONFIGS["llama3, turns of 1"], "x")))
    assert "turn more than once within L = 4,096" in llama and "less than 0.5 times" in llama


LOSSES = {
    "plain lowest": {
        "none": [1, 1, 2, 2],
        "PI": [2, 2, 3, 3],
        "NTK": [1, 1, 2.5, 2.5],
        "YaRN": [1, 1, 2.2, 2.2],
    },
    "a scaling lowest": {
        "none": [1, 1, 3, 3],
        "PI": [2, 2, 2, 2],
        "NTK": [1, 1, 1.5, 1.5],
        "YaRN": [1, 1, 4, 4],
    },
    "one raised inside": {
        "none": [1, 1, 2, 2],
        "PI": [1.5, 1.5, 3, 3],
        "NTK": [1, 1, 3, 3],
        "YaRN": [1, 1, 3, 3],
    },
    "flat": {"none": [1, 1, 1, 1], "PI": [1, 1, 1, 1], "NTK": [1, 1, 1, 1], "YaRN": [1, 1, 1, 1]},
}


@pytest.mark.parametrize("name", list(LOSSES))
def test_the_measured_sentences_read_for_every_outcome(name):
    e = Extrapolation(2, 4, {k: [float(x) for x in v] for k, v in LOSSES[name].items()}, steps=200)
    for sentence in [*findings(e), verdict(e), run_intro(e)]:
        assert problems(sentence) == [], sentence
    text = " ".join(findings(e))
    if name == "one raised inside":
        assert "position interpolation also raises the loss before position 2" in text
    if name == "flat":
        assert "From position 2 to 3 it stays at 1.000." in text and "also raise" not in text


def test_the_shipped_runs_sentences_read_as_a_finding():
    e = measured()
    text = " ".join([*findings(e), verdict(e), run_intro(e)])
    assert problems(text) == []
    assert "Lowest past" not in text and "none." not in text
