"""The Long context page's sentences beyond its story: the answer at the top, what each of its factors
is, the method's introduction, what the pair charts show, how to read the score chart, the attention
factor, and the measured run's place among them.

Every sentence is derived from a ``LongContextView`` (and, for the measured run, its lengths); each
glossary word goes through a ``FirstUse``, so the page defines it where it first writes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.positional.long_context import INTERPOLATED, KEPT, PLAIN, REGIMES, LongContextView
from core.positional.long_context_story import ratio_text, scaling_clause, times_text
from core.positional.rope_scaling import PARTIAL, VARIANTS, get_mscale, rotary_dim, yarn_correction_range
from core.views.glossary import FirstUse
from core.views.units import listing

# A method's glossary word, by its rope_type (the others are defined by their own sentence)
TERM_OF = {
    "linear": "position interpolation",
    "dynamic": "NTK scaling",
    "yarn": "YaRN",
    "longrope": "LongRoPE",
}
TERM_OF_LABEL = {VARIANTS[k].label: term for k, term in TERM_OF.items()}


@dataclass(frozen=True)
class ShortAnswer:
    """The page's answer for one config: what its number is, the number, and the sentences."""

    label: str
    number: str
    words: str


def _answer_lengths(view: LongContextView, name: str) -> str:
    L, longest = view.cfg.original, view.cfg.extended
    trained = (
        f"**{name}** was trained on texts of up to L = {L:,} positions, and its config (the settings file"
    )
    if longest > L:
        return f"{trained} it ships with) lets it read L' = {longest:,}, {ratio_text(longest / L)} × L."
    return f"{trained} it ships with) reads no further: L' = L."


def _answer_pairs(view: LongContextView) -> str:
    """How RoPE's pairs turn and which of them meet angles training never showed, in plain words."""
    L, longest = view.cfg.original, view.cfg.extended
    m, slow = int(view.turning.sum()), int(view.slow.sum())
    pairs = "pairs" if m == view.cfg.head_dim // 2 else "turning pairs"
    rope = "RoPE turns a vector's dimensions in pairs, each pair by an angle that grows with the position"
    if slow == 0:
        every = "its one pair makes" if m == 1 else f"each of its {m:,} {pairs} makes"
        unseen = "so past L no pair meets an angle it has not seen"
        return f"{rope}, and {every} at least one full turn within L, {unseen}."
    if slow == m:
        who = "its one pair never finishes" if m == 1 else f"none of its {m:,} {pairs} finishes"
    else:
        slowest = "the slowest" if slow == 1 else f"the {slow:,} slowest"
        who = f"{slowest} of its {m:,} {pairs} never finish{'es' * (slow == 1)}"
    they, them = ("it", "it") if slow == 1 else ("they", "them")
    if longest > L:
        largest = f"the largest angle training showed {them}"
        past = f"unscaled, by L' {they} would reach {times_text(longest / L)} {largest}"
    else:
        past = f"past L {they} would reach angles training never showed {them}"
    return f"{rope}; {who} a turn within L: {past}."


def _answer_scaling(view: LongContextView) -> str:
    """What the config's scaling does to the pairs and how far the slow ones then turn by L'."""
    L, longest, s = view.cfg.original, view.cfg.extended, view.cfg.factor
    slow, clause = int(view.slow.sum()), scaling_clause(view)
    they = "it" if slow == 1 else "they"
    if not clause:
        still = (
            f", so by L' the slow pair{'s' * (slow != 1)} still meet{'s' * (slow == 1)} those angles"
            if slow
            else ""
        )
        return f"Its scaling leaves every pair as trained{still}."
    if not slow:
        return f"Its scaling {clause}."
    if not view.unseen_scaled:
        stay = "stays" if slow == 1 else "stay"
        return f"Its scaling {clause}, so by L' {they} {stay} within the angles seen in training."
    if view.reach >= longest / L:  # sped up: further than plain RoPE goes
        far = f"{times_text(view.reach)} the largest angle seen in training"
        return f"Its scaling {clause}, so by L' some reach {far}."
    short = f": s·L = {s * L:,.0f} stops short of L'" if s * L < longest else ""
    return (
        f"Its scaling {clause}, so by L' {they} reach only {times_text(view.reach)} the largest angle seen "
        f"in training, not {times_text(longest / L)}{short}."
    )


def short_answer(view: LongContextView, name: str) -> ShortAnswer:
    """The page's question answered in plain words, then for this config, with the length it reads (L') as
    the number: what RoPE has and lacks past L, trained on L, reads L', how its scaling turns the pairs.
    It uses no glossary word, so it needs no definition above the page's story."""
    L, longest = view.cfg.original, view.cfg.extended
    idea = (  # the answer itself, before this config's numbers
        "RoPE has no position table that could run out, since what it does to two tokens depends only on "
        "how far apart they are; but a longer text holds tokens farther apart than any the model saw, so "
        "released models slow RoPE down for long texts and then train further on them."
    )
    sentences = [idea, _answer_lengths(view, name), _answer_pairs(view)]
    if longest > L:
        sentences.append(_answer_scaling(view))
    else:
        sentences.append("Models that read past L scale RoPE; the other presets show how.")
    return ShortAnswer("Longest text it reads (L')", f"{longest:,}", " ".join(sentences))


def factors_words(view: LongContextView, words: FirstUse) -> str:
    """What the metrics' L'/L, s and attention factor are, and why L'/L and s may differ."""
    L, longest, s, a = view.cfg.original, view.cfg.extended, view.cfg.factor, view.attention_factor
    out = []
    if longest == L:
        out.append("s = 1: the config reads no further than L, so nothing is scaled.")
    else:
        same = s * L >= longest * (1 - 1e-9)
        factor = "and s" if same else "; s"
        out.append(
            f"L'/L = {ratio_text(longest / L)} is how much longer than in training the config lets the model "
            f"read{factor} = {s:g} is {'' if same else 'another number: '}the factor the config gives its "
            "scaling (section 1 shows how much each pair is slowed)."
        )
        if not same:
            out.append(
                "Here s is smaller than L'/L: a pair slowed by s passes the angles seen in training at "
                f"s·L = {s * L:,.0f}, before L', so reading well up to L' takes further training on long "
                "texts, as released models get."
            )
        else:
            out.append(
                "They are equal: a pair slowed by s turns by L' no further than it did by L in training."
            )
    factor = words("attention factor")
    if a == 1:
        out.append(
            f"This config has no {factor}: its attention factor of 1 leaves every query and key as it is "
            "(section 3)."
        )
    elif a < 1:
        out.append(f"This config sets its {factor} by hand to {a:.4f}, below 1 (section 3).")
    else:
        out.append(f"This config's {factor} is {a:.4f} (section 3).")
    return " ".join(out)


def method_words(view: LongContextView, words: FirstUse) -> str:
    """The config's method in one sentence (its name defined where the page first writes it), its source."""
    variant = VARIANTS[view.cfg.rope_type]
    name = variant.label[0].upper() + variant.label[1:]
    term = TERM_OF.get(view.cfg.rope_type)
    shown = words(term, name) if term else f"**{name}**"
    return f"{shown}: {variant.idea} Source: {variant.paper}."


def pairs_lead(words: FirstUse) -> str:
    """How to read the two pair charts: what each draws, and their axes' log scale defined."""
    return (
        "The left chart draws how many positions each pair needs for one full turn, as trained (dotted) and "
        "scaled (dots); the right one how many times slower scaling turns each pair. Both count upward on a "
        f"{words('log scale')}."
    )


def _count_times(x: float) -> str:
    """How many times a pair turns: "once", "4 times", "0.5 times"."""
    return "once" if x == 1 else f"{x:g} times"


def _yarn_finding(view: LongContextView) -> str:
    """Which pairs YaRN keeps, blends and slows by s, from its turn thresholds."""
    cfg, n, p = view.cfg, len(view.regimes), view.cfg.parameters()
    L, s = cfg.original, cfg.factor
    dim = rotary_dim(cfg.head_dim, p.get(PARTIAL, 1.0))
    fast, slow = p.get("beta_fast") or 32, p.get("beta_slow") or 1
    low, high = yarn_correction_range(fast, slow, dim, cfg.base, L, p.get("truncate", True))
    turns = f"{slow:g} turn{'s' * (slow != 1)}"
    least = f"at least {fast:g} turn{'s' * (fast != 1)}"
    keep = f"keeps the pairs up to pair {low:.3g} ({least} within L = {L:,})"
    if low >= n - 1:
        return f"YaRN keeps every pair: each turns at least {_count_times(fast)} within L = {L:,}."
    if high > n - 1:  # the blend runs past the last pair (transformers clamps it to dims, not pairs)
        return (
            f"YaRN {keep} and blends all the later ones: none turns so few times (at most {turns}) that it "
            "is slowed by the whole s."
        )
    return (
        f"YaRN {keep}, slows the pairs from {high:.3g} on (at most {turns}) by s = {s:g}, and blends the "
        "ones between."
    )


def _method_finding(view: LongContextView) -> str | None:
    """The config's method's own rule for picking pairs, in its numbers (None: a method without one)."""
    cfg, p = view.cfg, view.cfg.parameters()
    L, longest, s = cfg.original, cfg.extended, cfg.factor
    if cfg.rope_type == "yarn":
        return _yarn_finding(view)
    if cfg.rope_type == "llama3":
        low, high = p["low_freq_factor"], p["high_freq_factor"]
        return (
            f"Llama 3 scaling keeps the pairs that turn more than {_count_times(high)} within L = {L:,} "
            f"(each turn under {L / high:,.0f} positions), slows those that turn less than "
            f"{_count_times(low)} (each turn over {L / low:,.0f} positions) by s = {s:g}, and blends the "
            "ones between."
        )
    if cfg.rope_type == "dynamic":
        slowest = float(view.plain[-1] / view.scaled[-1])
        return (
            f"Dynamic NTK raises RoPE's base for the current length; at L' = {longest:,} the slowest pair is "
            f"slowed by s·L'/L − (s − 1) = {slowest:.4g}, the fastest by 1."
        )
    if cfg.rope_type == "longrope":
        factors = p["long_factor"]
        return (
            f"Past L = {L:,} LongRoPE slows each pair by its own factor, found by a search (shown here: "
            f"{min(factors):.3g} to {max(factors):.3g}); up to L it uses a second list."
        )
    if cfg.rope_type == "linear" and s != 1:
        return f"Position interpolation slows every pair by s = {s:g}: position p turns as p/{s:g} did."
    return None


def _papers_names(view: LongContextView, words: FirstUse) -> str | None:
    """What papers call a kept pair and a pair slowed by s (None: the config has neither)."""
    names = []
    if KEPT in view.regimes and scaling_clause(view):
        names.append(
            f"a kept pair {words('extrapolate', 'extrapolated')} (past L it turns on as in training)"
        )
    if INTERPOLATED in view.regimes:
        names.append(
            f"a pair slowed by s interpolated, after {words('position interpolation')}, which slows every "
            "pair by s (up to s·L its angles stay within the ones it saw)"
        )
    return f"Papers call {listing(names)}." if names else None


def pair_findings(view: LongContextView, words: FirstUse | None = None) -> list[str]:
    """What the two pair charts show, in sentences computed from the numbers: how many pairs each kind of
    change touches (first), which pairs the config's method picks, and the papers' names for them
    (``words``: the page's glossary words, defined at first use; default: every word plain)."""
    n = len(view.regimes)
    counts = {r: view.regimes.count(r) for r in REGIMES if r in view.regimes}
    parts = ", ".join(f"{c:,} {r}" for r, c in counts.items())
    out = [f"Of the {n:,} pairs: {parts}." if n > 1 else f"Its one pair: {view.regimes[0]}."]
    more = (_method_finding(view), _papers_names(view, words or FirstUse(teach=False)))
    return out + [sentence for sentence in more if sentence]


def _method_name(name: str, words: FirstUse) -> str:
    """A line's name on the score chart, defined where the page first writes it."""
    if name in TERM_OF_LABEL:
        return words(TERM_OF_LABEL[name], name)
    if name == VARIANTS["llama3"].label:
        return "Llama 3 scaling (much as YaRN, with a blend of its own and no attention factor)"
    return name


def drawn_words(view: LongContextView, label: str, words: FirstUse) -> str:
    """Which lines the score chart draws, each method's name defined where the page first writes it."""
    others = [name for name in view.scores if name not in (PLAIN, label)]
    if not others:
        return (
            f"The chart draws {label} beside plain RoPE, its distances on a {words('log scale')}. With s = 1 "
            "there is nothing to extend, so the other methods would all be plain RoPE."
        )
    names = listing([_method_name(name, words) for name in others])
    scale = f"Its distances run on a {words('log scale')}."
    drawn = f"The chart draws {label} beside plain RoPE and, at the same s = {view.cfg.factor:g}, {names}."
    return f"{drawn} {scale}"


def _points_words(view: LongContextView) -> str:
    """What one point of the score chart stands for: one distance, or the mean over a stretch of them."""
    longest, points = view.cfg.extended, len(view.distances)
    if points >= longest:
        return "Each point is one distance."
    return (
        f"There are {longest:,} distances and {points:,} points, so a point stands for a stretch of "
        "distances: it is the average score over the distances from its own r up to the next point's r."
    )


def _factor_join(view: LongContextView, label: str) -> str:
    """Why some lines start above 1 while this config's attention factor may be 1."""
    raised = [(name, a) for name, a in view.factors.items() if a != 1 and name != label]
    parts = [f"{name}'s near {a**2:.4f} ({a:.4f}²)" for name, a in raised]
    own = view.factors[label]
    start = "near 1" if own == 1 else f"near {own**2:.4f} ({own:.4f}²)"
    drawn = f"{label}'s attention factor is {own:.4f}, the metric above, so its line starts {start}."
    if not parts:
        return drawn
    return f"A line starts near its attention factor squared: {listing(parts)}. {drawn}"


def score_words(view: LongContextView, label: str, words: FirstUse) -> str:
    """How to read the score chart: what the score from position alone is, what a point stands for, and
    why a line starts above 1."""
    out = [
        f"How to read it: take a {words('query and key', 'query and a key')} that are both all ones, r "
        "positions apart. Their score, divided by its value at distance 0 so that it starts at 1, then "
        "depends on r alone: it is the mean over the pairs of cos(r·θᵢ), the "
        f"{words('cosine similarity')} of the query's and the key's pair once turned r·θᵢ apart, so it falls "
        "as the pairs turn apart.",
        _points_words(view),
    ]
    if view.cfg.factor > 1:
        out.append("Position interpolation reaches at s·r the score plain RoPE has at r.")
    out.append(_factor_join(view, label))
    return " ".join(out)


def _softmax_sharper(words: FirstUse) -> str:
    return (
        f"The {words('softmax')} then favours the highest scores more sharply: a longer text spreads "
        "attention over more keys, and the factor keeps it about as sharp at L' as at L."
    )


def _deepseek_scale(view: LongContextView) -> str:
    """DeepSeek's extra scale of every score, as a formula with its value ("" for every other config)."""
    cfg, p = view.cfg, view.cfg.parameters()
    if cfg.rope_type != "yarn" or not p.get("mscale_all_dim"):
        return ""
    m = get_mscale(cfg.factor, p["mscale_all_dim"])
    return f"(0.1·{p['mscale_all_dim']:g}·ln {cfg.factor:g} + 1)² = {m**2:.4f}"


def attention_words(view: LongContextView, words: FirstUse, short: bool = False) -> str:
    """What the attention factor does to a score, and this config's value, in words (``short``: without
    where YaRN's formula comes from, for a projector)."""
    cfg, a, p = view.cfg, view.attention_factor, view.cfg.parameters()
    scale = _deepseek_scale(view)
    methods = f"{words('YaRN')} and {words('LongRoPE')}"
    if a == 1:
        text = (
            f"{methods} multiply the turned part of every query and key by an attention factor above 1, so "
            f"each score (a query times a key) grows by its square. {_softmax_sharper(words)} This config "
            "leaves it at 1"
        )
        if scale:
            return f"{text} but, as DeepSeek-V3 does, scales every score by {scale} instead (not drawn)."
        return text + "."
    name = VARIANTS[cfg.rope_type].label
    if a < 1:  # set by hand
        text = (
            f"{name} multiplies the turned part of every query and key by the attention factor, here "
            f"{a:.4f}: below 1, so the turned part of each score shrinks to {a**2:.4f} of its size, and the "
            f"{words('softmax')} spreads attention more evenly. {methods} use a factor above 1, to keep "
            "attention about as sharp at L' as at L."
        )
    else:
        text = (
            f"{name} multiplies the turned part of every query and key by a number above 1, the attention "
            f"factor: here {a:.4f}. A score is a query times a key, so its turned part grows by {a:.4f}² = "
            f"{a**2:.4f}. {_softmax_sharper(words)}"
        )
    paper = not any(p.get(k) for k in ("attention_factor", "mscale", "mscale_all_dim"))
    if cfg.rope_type == "yarn" and paper and not short:
        text += (
            f" YaRN's authors chose 0.1·ln s + 1 because it gave the lowest {words('loss')} on long texts."
        )
    if scale:
        text += f" Its attention also multiplies every score by {scale}, as DeepSeek-V3's does (not drawn)."
    return text if short else f"{text} The chart draws the attention factor of {methods} against s."


def measured_lead(words: FirstUse) -> str:
    """The measured section's first sentence: what it measures, each scaling's name and the loss defined
    where the page first writes them."""
    scalings = listing([words("position interpolation"), words("NTK scaling", "dynamic NTK"), words("YaRN")])
    return (
        "Sections 1 to 3 compute what scaling does to the angles; this one measures what it does to a model. "
        f"A tiny model is tested past its trained length with plain RoPE and with {scalings}, by its "
        f"{words('loss')} at each position."
    )


def tiny_factor_words(trained: int, length: int, view: LongContextView, name: str) -> str:
    """Why the measured run's s is not the config's: the run's s is its own window over its trained length."""
    k = length / trained
    theirs = f"{name}'s s = {view.cfg.factor:g} above"
    return (
        f"This run's s = {k:g} is its own: it reads windows of {length:,} = {k:g} × T, so each scaling takes "
        f"s = {length:,} / {trained:,}, as a config with L = {trained:,} and L' = {length:,} would. It is "
        f"not {theirs}: the run is the same whatever config is chosen."
    )
