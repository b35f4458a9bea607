"""The Training page's words: its answer in short, for the settings and the run on screen, and its
introduction, which defines the words the answer has not.

The page asks what GPT's positional embeddings become in training. A learned table answers with its
numbers: how alike neighbouring positions grew, against step 0, where only chance set them. A method
fixed by a formula has nothing to learn; its run answers with what it does past the trained length.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.positional.family import FAMILIES
from core.training.model import SIZES, GPTConfig, TinyGPT, fixed_examples, learning_methods, trainable_methods
from core.training.position_loss import trend
from core.training.training import TrainConfig, TrainResult, neighbour_likeness
from core.views.glossary import TERMS, define, named
from core.views.units import listing, plural, signed, verb

ORDER = 0.1  # cosine: how much more alike neighbours must be than distant positions to call it an order

# What the page asks of the student next, by the state of the run the answer is about; {what} is what
# the box will say once a run has finished.
NEXT = {
    "ready": "Press **Train**: this box then says {what}.",
    "training": "A run is training now: when it ends, this box says {what}.",
    "stopped": "The last run was stopped before its end: press **Train** to train it again.",
    "failed": "The last run failed (the message below says why): press **Train** to try again.",
    "blocked": "These settings cannot train yet: the message below says what to change.",
}


@dataclass(frozen=True)
class Reply:
    """The page's answer: what ``ui.answer.Answer`` draws."""

    label: str  # what the number is
    number: str  # the number that answers, as shown
    words: str  # two to four sentences, the number among them
    others: tuple[str, ...] = ()  # methods (keys) that answer differently


def fixed_sentence(method: str) -> str:
    """How ``method``, a method training does not change, gives position, and that training leaves it:
    its record's words (``Family.stays_in_training``), else a sentence from its label."""
    family = FAMILIES[method]
    label = family.label
    said = (
        family.stays_in_training
        or f"{label} positions come from a formula: training leaves them as they are."
    )
    return said.replace(label, named(label), 1)  # its name, defined where first said


def learned_label() -> str:
    """The label of the method whose positions training changes (Learned absolute), which answers point to."""
    return FAMILIES[learning_methods()[0]].label


def position_numbers(cfg: TrainConfig) -> int:
    """How many numbers of the tiny GPT's position table training changes (0: it has none)."""
    d, heads, _ = SIZES[cfg.size]
    table = TinyGPT(GPTConfig(1, cfg.context_length, d, heads, 1, cfg.method)).position_table()
    return 0 if table is None else table.numel()


def before_run(cfg: TrainConfig, state: str = "ready") -> Reply:
    """The answer before a run of ``cfg`` has finished: what training will change, and what to do.

    ``state``: a key of ``NEXT``, the run's (or the settings') state.
    """
    n, T = position_numbers(cfg), cfg.context_length
    label = "Position numbers to learn"
    if n == 0:
        then = NEXT[state].format(
            what=f"how the trained model guesses past the {plural(T, 'position')} it trains on"
        )
        pick = f"To watch positions being learned, pick **{learned_label()}**."
        words = f"{fixed_sentence(cfg.method)} {then} {pick}"
        return Reply(label, "0", words, learning_methods()[:1])
    d = SIZES[cfg.size][0]
    words = (
        f"With **{FAMILIES[cfg.method].label}** positions the tiny GPT's position table holds "
        f"{plural(T, 'vector')} of {plural(d, 'number')}, {n:,} numbers in all, random at step 0, as the "
        "lesson's `nn.Embedding(context_length, output_dim)` starts. Training changes every one of them a "
        f"little at each step, {plural(cfg.steps, 'step')} in all, so that the model guesses each next token "
        "better. " + NEXT[state].format(what="what they became")
    )
    return Reply(label, f"{n:,}", words, fixed_examples())


def cannot_train(method: str, cfg: TrainConfig) -> Reply:
    """The answer when the sidebar's ``method`` is one the tiny GPT cannot train (``cfg``: the page's
    settings)."""
    methods = trainable_methods()
    label, learned = FAMILIES[method].label, learned_label()
    T, d = cfg.context_length, SIZES[cfg.size][0]
    words = (
        f"This page's tiny GPT is built for {listing([named(FAMILIES[m].label) for m in methods])} "
        f"positions, not {named(label)}, so it cannot train {label} here. Of those, {learned} is the one "
        f"whose positions training changes: a table of {plural(T, 'vector')} of {plural(d, 'number')}, "
        "random at step 0. Pick it below to watch them being learned, or another to see how a fixed "
        "method does past the trained length."
    )
    return Reply("Methods the tiny GPT trains", f"{len(methods)}", words, methods)


def after_run(result: TrainResult) -> Reply:
    """The answer from a finished run's numbers."""
    if result.snapshots:
        return _learned_after(result)
    return _fixed_after(result)


def _learned_after(result: TrainResult) -> Reply:
    """A learned table's answer: its neighbours' likeness at the last snapshot against step 0's."""
    first, last = result.snapshots[0], result.snapshots[-1]  # [T, d] each
    (near0, far0), (near, far) = neighbour_likeness(first), neighbour_likeness(last)
    steps, half = result.steps[-1], last.shape[0] // 2
    said = (
        f"After {plural(steps, 'step')}, two neighbouring positions' vectors have a "
        f"{define('cosine similarity')} of {signed(near)} on average; at step 0, when the table was random, "
        f"chance alone gave {signed(near0)}."
    )
    if near - far >= ORDER and (near - far) - (near0 - far0) >= ORDER:
        verdict = (
            f"Positions {half} or more apart are at {signed(far)}: training made neighbours alike and "
            "distant positions less so, an order nobody wrote into the table."
        )
    elif near - near0 >= ORDER:
        verdict = (
            f"But positions {half} or more apart grew alike too ({signed(far)}): the positions moved "
            f"together, neighbours only {signed(near - far)} ahead; train more steps to see whether an order "
            "forms."
        )
    else:
        verdict = (
            f"Positions {half} or more apart are at {signed(far)}: no order yet, {plural(steps, 'step')} "
            f"{verb(steps)} too few. Raise **Steps** and train again."
        )
    return Reply("Neighbour similarity after training", signed(near), f"{said} {verdict}", fixed_examples())


def _fixed_after(result: TrainResult) -> Reply:
    """A fixed method's answer: its loss past the trained length against before it, in windows of 2T."""
    cfg = result.config
    T, inside, past = cfg.context_length, result.val_loss_past_inside, result.val_loss_past_outside
    label = FAMILIES[cfg.method].label
    said = trend(inside, past)
    rises = said == "rises"
    why = "the rise comes in spite of that." if rises else "part of why the loss does not rise is that help."
    if said != "stays about the same":
        said += f" by {abs(past - inside):.3f}"
    words = (
        f"The {define('loss')} of the {named(label)} model at positions {T} … {2 * T - 1} of windows of "
        f"{2 * T}, past the {plural(T, 'position')} it trained on, is {past:.3f}, against {inside:.3f} at "
        f"positions 0 … {T - 1}: it {said}. {fixed_sentence(cfg.method)} A later token sees more tokens "
        f"before it, which by itself makes it easier to guess: {why}"
    )
    return Reply(f"Loss past position {T - 1}", f"{past:.3f}", words, learning_methods()[:1])


def not_these_settings() -> str:
    """Said after the answer when the run on screen was trained with other settings than the page's."""
    return (
        "These are the numbers of the run below, with its own settings: press **Train** to train the ones "
        "above."
    )


def taught(words: str) -> frozenset[str]:
    """The glossary terms ``words`` defines (``define`` writes a term's gloss in full)."""
    return frozenset(term.name for term in TERMS if term.gloss in words)


def intro(defined: frozenset[str] = frozenset()) -> str:
    """The page's introduction, defining each term it uses unless it is in ``defined`` (the answer above
    defined it)."""

    def word(name: str, shown: str | None = None) -> str:
        return f"**{shown or name}**" if name in defined else define(name, shown)

    return (
        "The lesson's positional table starts random; *how do we know the actual values? That is part of the "
        "LLM training process.* Here a tiny GPT trains on the ship's log (or the sidebar's text), on this "
        "server's CPU. It makes the lesson's input embeddings (token embedding + the sidebar's **Positional "
        f"method**), passes them through blocks built around {word('attention')}, each with a "
        f"{word('causal mask')}, and guesses each next token, the lesson's `targets`. Its {word('loss')} is "
        f"the {word('cross-entropy')}: lower is better. The losses this page reports come from "
        f"{word('validation')}. The sidebar's **Seed** sets the random start."
    )
