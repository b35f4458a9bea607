"""The Long context page's story, the numbered steps under its title: the two lengths, how RoPE turns
fast and slow pairs, the angles the slow pairs never saw, and what scaling changes about that.

Every sentence is computed from a ``LongContextView``; each glossary word goes through a ``FirstUse``, so
the page defines it where it first writes it. The phrases for counts and ratios are shared with the
page's other sentences (``core.positional.long_context_words``).
"""

from __future__ import annotations

import math

from core.positional.long_context import (
    BEYOND,
    BLENDED,
    FASTER,
    INTERPOLATED,
    KEPT,
    REGIMES,
    STILL,
    LongContextView,
)
from core.views.glossary import FirstUse
from core.views.units import listing


def _n(count: int, noun: str, plural: str = "") -> str:
    """``count`` and ``noun``, agreeing: "1 pair", "2 pairs", "no pair"."""
    if count == 0:
        return f"no {noun}"
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def ratio_text(x: float) -> str:
    """A ratio as "16", "1.5", "2,048"."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def times_text(x: float) -> str:
    """A ratio as a multiple: "16 times", "1.5 times"."""
    return f"{ratio_text(x)} times"


def _positions(wavelength: float) -> str:
    return f"{wavelength:,.1f}" if wavelength < 100 else f"{wavelength:,.0f}"


def scaling_clause(view: LongContextView) -> str:
    """What this config does to its turning pairs, as a verb phrase: "keeps 29 pairs as trained, slows 6
    pairs by less than s = 8 and slows 29 pairs by s"; empty when it changes no pair."""
    counts = {r: view.regimes.count(r) for r in REGIMES if r in view.regimes and r != STILL}
    if set(counts) <= {KEPT}:
        return ""
    s, named = view.cfg.factor, False

    def s_text() -> str:  # the value of s where it is first named
        nonlocal named
        text, named = ("s" if named else f"s = {s:g}"), True
        return text

    phrases = {
        KEPT: lambda c: f"keeps {_n(c, 'pair')} as trained",
        BLENDED: lambda c: f"slows {_n(c, 'pair')} by less than {s_text()}",
        INTERPOLATED: lambda c: f"slows {_n(c, 'pair')} by {s_text()}",
        BEYOND: lambda c: f"slows {_n(c, 'pair')} by more than {s_text()}",
        FASTER: lambda c: f"speeds up {_n(c, 'pair')}",
    }
    return listing([phrases[r](c) for r, c in counts.items()])


def _lengths_step(view: LongContextView, name: str) -> str:
    """The story's first step: the trained length L and the length L' the config reads."""
    L, longest = view.cfg.original, view.cfg.extended
    trained = f"**{name}**: trained on texts of up to L = {L:,} positions"
    if longest > L:
        return f"{trained}; its config lets it read L' = {longest:,} ({ratio_text(longest / L)} × L)."
    return f"{trained}; its config does not make it read further (s = 1, so L' = L)."


def _rope_step(view: LongContextView, words: FirstUse) -> str:
    """Where RoPE acts and how fast its pairs turn, each word defined where the story first uses it."""
    m, half = int(view.turning.sum()), view.cfg.head_dim // 2
    waves = (2 * math.pi / view.plain.double()[view.turning]).tolist()  # [m] positions per full turn
    rope = (
        f"RoPE acts in {words('attention')}, on each token's {words('query and key')} in every "
        f"{words('head')}: it turns each {words('pair i', 'pair')} of their dimensions at its own "
        f"{words('frequency θᵢ')}, by the angle p·θᵢ at position p."
    )
    if m < half:
        rest = half - m
        other = "the other one carries" if rest == 1 else f"the other {rest:,} carry"
        rope += f" Only {m:,} of each head's {half:,} pairs turn{'s' * (m == 1)}; {other} no position."
    wavelength = words("wavelength 2π/θᵢ", "wavelength")
    if m == 1:
        once = _positions(waves[0])
        return rope + f" Its one turning pair makes a full turn every {once} positions, its {wavelength}."
    return rope + (
        f" The first pairs turn fast: pair 0 makes a full turn every {_positions(waves[0])} positions, its "
        f"{wavelength}; the later ones slower: pair {m - 1:,} needs {_positions(waves[-1])} positions for "
        "one."
    )


def lecture_join(view: LongContextView, words: FirstUse) -> str:
    """What the lecture's "relative methods generalize to unseen lengths" means for RoPE, and where it
    stops: next to the story's unseen angles, which seem to say the opposite."""
    angles = ", nor the angles such distances turn the slow pairs to" if bool(view.slow.any()) else ""
    return (
        "The lecture says a relative method “can generalize better to sequences of varying lengths, even if "
        "it hasn't seen such lengths during training”, and the notebook that a fixed sinusoid "
        f"{words('extrapolate', 'extrapolates')}. That holds in one sense: with RoPE the {words('score')} of "
        "a query for a key depends only on how far apart their two tokens are, so past L no position is "
        "missing, as a row would be from a learned table of L rows. It stops where training stopped: the "
        f"model never saw two tokens further apart than L{angles}. That is why released models scale RoPE "
        "and then train further on long texts."
    )


def _unseen_step(view: LongContextView, words: FirstUse, join: bool) -> str:
    """Which pairs finish a turn within L, and the angles the others meet past L."""
    L, longest = view.cfg.original, view.cfg.extended
    m, slow = int(view.turning.sum()), int(view.slow.sum())
    fast = m - slow
    if slow == 0:
        every = "its pair makes" if m == 1 else "every turning pair makes"
        seen = (
            f"Within L = {L:,} {every} at least one full turn, so the model has seen every angle: past L no "
            "pair meets an angle it has not seen."
        )
        return f"{seen} {lecture_join(view, words)}" if join else seen
    if fast == 0:
        seen = f"Within L = {L:,} no pair finishes a full turn."
    else:
        quick = "the fastest pair makes" if fast == 1 else f"the {fast:,} fastest pairs make"
        rest = "the slowest never finishes one" if slow == 1 else f"the {slow:,} slowest never finish one"
        seen = f"Within L = {L:,} {quick} at least one full turn, so every angle was seen; {rest}."
    they = "it" if slow == 1 else "they"
    if longest > L:
        past = (
            f" Past L, {_the_slow(slow)} turn{'s' * (slow == 1)} to angles the model never saw in training: "
            f"by L' = {longest:,} {they} reach{'es' * (slow == 1)} {times_text(longest / L)} the largest "
            f"angle {they} reached within L."
        )
    else:
        past = f" Past L {they} would turn to angles never seen in training; this config stops at L."
    return f"{seen}{past} {lecture_join(view, words)}" if join else seen + past


def _the_slow(slow: int) -> str:
    return "the slow pair" if slow == 1 else f"the {slow:,} slow pairs"


def _scaling_step(view: LongContextView, counts: bool = True) -> str:
    """What the config's scaling does to the pairs, and how far past the seen angles the slow ones go;
    without ``counts``, only what scaling is for (a class is about to predict how many pairs it keeps)."""
    L, longest, s = view.cfg.original, view.cfg.extended, view.cfg.factor
    if not counts:
        return (
            "Scaling can slow pairs down, so that their angles at L' stay closer to the ones seen in "
            "training. A later slide asks how many pairs this config leaves as they were trained."
        )
    slow, clause = int(view.slow.sum()), scaling_clause(view)
    if not clause:
        return "This config leaves every pair as trained" + (
            ": nothing slows the slow pairs down." if slow else "."
        )
    scaling = (
        "Scaling slows pairs down, so that their angles at L' stay closer to the ones seen in training: "
        f"this config {clause}."
    )
    unseen, the_slow = view.unseen_scaled, _the_slow(slow)
    if slow and not unseen:
        stay = "stays" if slow == 1 else "stay"
        within = f"within the angles seen in training all the way to L' = {longest:,}"
        return f"{scaling} Slowed down, {the_slow} {stay} {within}."
    if not unseen:
        return scaling
    if unseen == slow:
        who = f"{the_slow[0].upper()}{the_slow[1:]} still turn{'s' * (slow == 1)}"
    else:
        who = f"{unseen:,} of the {slow:,} slow pairs still turn{'s' * (unseen == 1)}"
    short = f": s·L = {s * L:,.0f} is shorter than L'" if s * L < longest else ""
    if view.reach < longest / L:
        far = (
            f"but only up to {times_text(view.reach)} the largest angle seen, not "
            f"{times_text(longest / L)}{short}"
        )
    else:  # sped up: further than plain RoPE goes
        far = f"up to {times_text(view.reach)} the largest angle seen (plain RoPE: {times_text(longest / L)})"
    return scaling + f" {who} past the angles seen by L' = {longest:,}, {far}."


def story(
    view: LongContextView, name: str, words: FirstUse | None = None, join: bool = True, counts: bool = True
) -> list[str]:
    """The page's story for this config, in the order a student follows it: the two lengths, how RoPE
    turns fast and slow pairs, the angles the slow pairs never saw (and what the lecture's claim about
    unseen lengths means for them), and what scaling changes about that.

    ``name`` is the model's name ("Llama 3.1 8B", "A model with your settings"), in bold at the start;
    ``words`` defines each glossary word where the story first uses it (default: every word plain);
    ``join=False`` leaves the lecture's claim out (a projector shows it on a slide of its own);
    ``counts=False`` leaves out how many pairs scaling keeps or slows (a projector asks it later).
    Every number is computed from the view.
    """
    words = words or FirstUse(teach=False)
    out = [_lengths_step(view, name), _rope_step(view, words), _unseen_step(view, words, join)]
    if view.cfg.extended > view.cfg.original:
        out.append(_scaling_step(view, counts))
    return out
