"""core.training.answer: the Training page's answer in short and its introduction, read from the settings
and the run's numbers, over many settings: counts agree, labels not keys, no word before its definition."""

import dataclasses

import pytest
import torch

from core.positional.family import FAMILIES
from core.text.samples import SAMPLES
from core.text.tokenizer import encode
from core.training.answer import (
    NEXT,
    after_run,
    before_run,
    cannot_train,
    intro,
    not_these_settings,
    position_numbers,
    taught,
)
from core.training.model import SIZES, trainable_methods
from core.training.training import TrainConfig, TrainResult, batch_size_for, train
from core.views.glossary import GLOSSARY, first_undefined
from tests.core.prose import prose_problems

LOG = encode(SAMPLES["log"])


def read(label: str, number: str, words: str) -> str:
    """The box as a student reads it: the number's label, the number, then the words."""
    return f"{label}\n{number}\n{words}"


def assert_reads(reply) -> None:
    """The answer and the introduction under it: clean prose, every word defined before it is used."""
    text = read(reply.label, reply.number, reply.words)
    page = f"{text}\n{intro(taught(reply.words))}"
    assert not prose_problems(text), (prose_problems(text), text)
    assert first_undefined(page) == [], first_undefined(page)
    assert 2 <= reply.words.count(". ") + 1 <= 5, reply.words  # two to four sentences (a name may hold ". ")
    assert all(m in FAMILIES for m in reply.others)


SETTINGS = [
    TrainConfig(method, context, size, steps, batch_size_for(context))
    for method in trainable_methods()
    for context, size, steps in ((4, "tiny", 1), (32, "small", 300), (256, "medium", 5000))
]


@pytest.mark.parametrize("cfg", SETTINGS, ids=lambda c: f"{c.method}-T{c.context_length}-{c.steps}")
@pytest.mark.parametrize("state", list(NEXT))
def test_before_a_run_the_answer_says_what_training_will_change(cfg, state):
    reply = before_run(cfg, state)
    assert_reads(reply)
    n = position_numbers(cfg)
    assert reply.number == f"{n:,}"
    if FAMILIES[cfg.method].fixed_length:  # a learned table: T vectors of d numbers, every one learned
        assert n == cfg.context_length * SIZES[cfg.size][0]
        assert f"{plural_steps(cfg.steps)} in all" in reply.words
    else:
        assert n == 0 and reply.others == ("learned",)
        assert FAMILIES[cfg.method].label in reply.words


def plural_steps(n: int) -> str:
    return f"{n:,} step" if n == 1 else f"{n:,} steps"


def test_the_number_follows_the_settings():
    small, wide = TrainConfig(context_length=8, size="tiny"), TrainConfig(context_length=64, size="medium")
    assert before_run(small).number == "256" and before_run(wide).number == "8,192"
    assert "8 vectors of 32 numbers" in before_run(small).words
    assert "64 vectors of 128 numbers" in before_run(wide).words


@pytest.mark.parametrize("method", [m for m in FAMILIES if m not in trainable_methods()])
def test_a_method_the_tiny_gpt_cannot_train_gets_the_ones_it_can(method):
    reply = cannot_train(method, TrainConfig(method=method))
    assert_reads(reply)
    assert reply.others == trainable_methods() and reply.number == str(len(trainable_methods()))
    assert f"so it cannot train {FAMILIES[method].label} here" in reply.words


def learned_result(tables: list[torch.Tensor], steps: list[int]) -> TrainResult:
    """A finished learned run whose table went through ``tables`` (snapshots at ``steps``)."""
    T = tables[0].shape[0]
    result = TrainResult(TrainConfig(context_length=T, steps=steps[-1]), 10, 100, 4.0)
    result.steps, result.snapshots = steps, tables
    return result


def smooth(T: int, d: int = 16) -> torch.Tensor:
    """Rows that turn slowly with the position: neighbours alike, far ones not."""
    angle = torch.arange(T)[:, None] * torch.linspace(0.05, 0.4, d // 2)[None, :]  # [T, d/2]
    return torch.cat([angle.cos(), angle.sin()], dim=1)


def test_a_learned_run_answers_with_its_neighbours_against_step_0():
    g = torch.Generator().manual_seed(0)
    noise = torch.randn(32, 64, generator=g)
    ordered = after_run(learned_result([noise, smooth(32)], [0, 300]))
    assert_reads(ordered)
    assert ordered.label == "Neighbour similarity after training" and ordered.number.startswith("+")
    assert "After 300 steps" in ordered.words and "chance alone gave" in ordered.words
    assert "an order nobody wrote into the table" in ordered.words
    together = after_run(learned_result([noise, noise + 3.0], [0, 20]))  # every row moved the same way
    assert_reads(together)
    assert "grew alike too" in together.words
    still = after_run(learned_result([noise, noise], [0, 1]))
    assert_reads(still)
    assert "no order yet, 1 step is too few" in still.words
    assert "Raise **Steps**" in still.words


def fixed_result(method: str, inside: float, past: float, T: int = 8) -> TrainResult:
    result = TrainResult(TrainConfig(method=method, context_length=T), 10, 100, 4.0)
    result.val_loss_inside, result.val_loss_past_inside, result.val_loss_past_outside = inside, inside, past
    return result


@pytest.mark.parametrize("method", [m for m in trainable_methods() if not FAMILIES[m].fixed_length])
def test_a_fixed_method_answers_with_its_loss_past_the_trained_length(method):
    rises = after_run(fixed_result(method, 2.0, 2.5))
    assert_reads(rises)
    assert rises.label == "Loss past position 7" and rises.number == "2.500"
    assert "it rises by 0.500" in rises.words and "the rise comes in spite of that" in rises.words
    falls = after_run(fixed_result(method, 2.0, 1.9, T=4))
    assert_reads(falls)
    assert "it falls by 0.100" in falls.words and "positions 4 … 7 of windows of 8" in falls.words
    assert "part of why the loss does not rise is that help" in falls.words  # more tokens to read
    level = after_run(fixed_result(method, 2.0, 2.004))
    assert_reads(level)
    assert "it stays about the same." in level.words and "rise comes" not in level.words
    assert falls.others == ("learned",)


# A real run of every method the tiny GPT trains, one step and more, a tiny context: a second each.
@pytest.mark.parametrize("steps", [1, 30])
@pytest.mark.parametrize("method", trainable_methods())
def test_real_runs_answer_in_clean_words(method, steps):
    cfg = TrainConfig(method, 4, "tiny", steps, batch_size_for(4), seed=3)
    reply = after_run(train(LOG, cfg))
    assert_reads(reply)
    other = dataclasses.replace(reply, words=f"{reply.words} {not_these_settings()}")
    assert_reads(other)


def test_the_introduction_defines_each_word_once_unless_the_answer_did():
    full = intro()
    assert first_undefined(full) == []
    for name in ("attention", "causal mask", "loss", "cross-entropy", "validation"):
        assert full.count(GLOSSARY[name].gloss) == 1, name
    shorter = intro(frozenset({"loss"}))
    assert GLOSSARY["loss"].gloss not in shorter and "**loss**" in shorter
    assert first_undefined(f"{GLOSSARY['loss'].name} ({GLOSSARY['loss'].gloss})\n{shorter}") == []
