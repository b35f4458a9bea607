"""What each positional-encoding family contributes, measured on the same axes.

Every family is compared through one quantity: the **position-only contribution to the attention
logit**. Take attention without weights of its own (W_Q = W_K = I: the score is q·k/√d), give the
query and the key the same content — one random N(0, 1) vector u drawn with the seed, so that only
their positions differ — and subtract the score NoPE would give. What is left is what position alone
adds to the score, wherever the method injects it: at the input (learned, sinusoidal), into the
keys (Shaw), as a bias on the logit (T5, ALiBi) or by rotating query and key (RoPE). Each family
computes it in its own module (``Family.logits``); this module runs them on the same distances.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from core.config import PipelineConfig
from core.embeddings import TableRows
from core.pipeline import Rows, sample_indices
from core.positional.family import FAMILIES, MAX_USED_LENGTH, Family, FamilyConfig, LogitInputs
from core.similarity import cosine_matrix, mean_by_distance, pair_distances
from core.views.glossary import define, named
from core.views.units import capitalized, listing, plural, verb

LOGIT_CHUNK_ELEMENTS = 2**18  # distance × dimension values computed at once
CURVE_POINTS = 400  # distances drawn per method on the logit chart
SIMILARITY_POSITIONS = 64  # positions per side of a similarity matrix


def drawn_span(context_length: int, fam: FamilyConfig) -> int:
    """How far chart 1 looks: the used length, and at least twice the farthest distance that T5
    (``max_distance``) or Shaw (``clip``) tell apart, so that their flat tails show at any context."""
    used = fam.extrapolate * context_length
    return min(MAX_USED_LENGTH, max(used, 2 * max(fam.max_distance, fam.clip)))


def position_logits(
    method: str,
    distances: torch.Tensor,
    fam: FamilyConfig,
    dim: int,
    seed: int,
    additive_rows: TableRows | None = None,
    context_length: int | None = None,
) -> torch.Tensor:
    """Position-only contribution to the logit of a query at position r for a key at position 0.

    Args:
        method: a ``FAMILIES`` name.
        distances: [R] the query positions r (= distances back to the key at 0).
        additive_rows: rows of the learned or sinusoidal table covering 0 and ``distances``.
        context_length: the learned table's length; positions past it give NaN (no row).
    Returns:
        [R] float64; heads: T5 and ALiBi show head 1 (ALiBi's steepest slope).
    """
    family = FAMILIES.get(method)
    if family is None:
        raise ValueError(f"Unknown positional method {method!r}.")
    T = context_length if context_length is not None else MAX_USED_LENGTH + 1
    # In chunks of distances, so that [R, d] temporaries stay small even at d = 16384.
    size = max(1, LOGIT_CHUNK_ELEMENTS // dim)
    parts = [family.logits(LogitInputs(r, fam, dim, seed, additive_rows, T)) for r in distances.split(size)]
    return torch.cat(parts) if parts else torch.zeros(0, dtype=torch.float64)


def logit_findings(
    name: str, distances: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig
) -> str:
    """One sentence on what chart 1's curve ``y`` [R] of method ``name`` shows, from its numbers.

    NaN in ``y`` marks distances the method cannot reach (a learned table past its rows).
    """
    family = FAMILIES[name]
    return family.describe_logits(family.label, distances, y, context_length, fam)


@dataclass(frozen=True)
class LogitCurve:
    """Chart 1's panel of one family: what position alone adds to a score, against distance."""

    distances: torch.Tensor  # [R] the distances r drawn
    logits: torch.Tensor  # [R] float64, NaN where the family has no row (a learned table past T)
    finding: str  # what the curve shows, in one sentence


def logit_curve(name: str, cfg: PipelineConfig, fam: FamilyConfig, rows: Rows) -> LogitCurve:
    """Family ``name``'s position-only score at ``CURVE_POINTS`` distances of ``drawn_span``.

    Args:
        cfg: V, d, T and the seed (the method is ``name``); rows: where an input table's rows come from.
    """
    T = cfg.context_length
    distances = sample_indices(drawn_span(T, fam), CURVE_POINTS)  # [R]
    table = rows.input_rows(name, distances, T, fam) if FAMILIES[name].additive else None
    y = position_logits(name, distances, fam, cfg.output_dim, cfg.seed, table, T)  # [R]
    return LogitCurve(distances, y, logit_findings(name, distances, y, T, fam))


@dataclass(frozen=True)
class PositionSimilarity:
    """Chart 2 for one family: how alike its vectors of two positions are, and against distance."""

    positions: torch.Tensor  # [P] the positions compared
    sim: torch.Tensor  # [P, P] cosine similarity of their vectors
    distances: torch.Tensor  # [G] the distances between two of them
    mean: torch.Tensor  # [G] the mean similarity at each
    finding: str  # what the matrix shows, in one sentence
    distance_only: bool  # whether the matrix depends on the distance alone (stripes)


def position_similarity(name: str, cfg: PipelineConfig, fam: FamilyConfig, rows: Rows) -> PositionSimilarity:
    """Cosine similarity of family ``name``'s vectors at ``SIMILARITY_POSITIONS`` positions of T: its input
    table's rows [P, d], or its own vectors [P, k] (RoPE's all-ones query turned to each position)."""
    family, T = FAMILIES[name], cfg.context_length
    positions = sample_indices(T, SIMILARITY_POSITIONS)  # [P]
    if family.additive:
        vectors = rows.input_rows(name, positions, T, fam).rows  # [P, d]
    else:
        vectors = family.vectors(positions, cfg.output_dim, fam)  # [P, k]
    sim = cosine_matrix(vectors)  # [P, P]
    distances, mean = mean_by_distance(sim, positions)  # [G], [G]
    finding = similarity_findings(name, positions, sim)
    return PositionSimilarity(positions, sim, distances, mean, finding, distance_only(positions, sim))


def distance_only(positions: torch.Tensor, sim: torch.Tensor) -> bool:
    """Whether a [P, P] similarity matrix is the same along each diagonal: it depends on |i − j| alone."""
    gap = pair_distances(positions)  # [P, P]
    spread = max(float(sim[gap == g].max() - sim[gap == g].min()) for g in gap.unique().tolist())
    return spread <= 1e-5  # float32 tables: equal up to rounding


def matrices_sentence(stripes: dict[str, bool]) -> str:
    """What to see in several similarity matrices, in one sentence (``stripes``: each family's label and
    whether its matrix is the same along each diagonal, in the charts' order)."""
    same = [label for label, flat in stripes.items() if flat]
    other = [label for label, flat in stripes.items() if not flat]
    said = []
    if same:
        said.append(
            f"{listing(same)} {verb(len(same), 'keeps', 'keep')} one colour along each, so "
            f"{verb(len(same), 'its', 'their')} similarity depends only on the distance"
        )
    if other:
        said.append(f"{listing(other)} {verb(len(other), 'is', 'are')} 1 only on the main diagonal")
    if not said:
        return "There is no matrix to read."
    where = "Read each square along its diagonals (there the distance |i − j| is the same)"
    return f"{where}: {'; '.join(said)}."


def similarity_findings(name: str, positions: torch.Tensor, sim: torch.Tensor) -> str:
    """One sentence on a [P, P] cosine-similarity matrix of position vectors, from its numbers."""
    label = FAMILIES[name].label
    gap = pair_distances(positions)  # [P, P]
    off = sim[gap > 0].abs()
    if distance_only(positions, sim):
        near = float(sim[gap == gap[gap > 0].min()].mean()) if bool((gap > 0).any()) else 1.0
        stripes = (
            f"{label}: the similarity depends only on the distance |i − j| (stripes parallel to the "
            f"diagonal), {near:.2f} for the nearest drawn pair, the same everywhere along the sequence."
        )
        return f"{stripes} {added_vectors_join(label)}" if FAMILIES[name].additive else stripes
    mean_off = float(off.mean()) if len(off) else 0.0
    return (
        f"{label}: only the diagonal is 1; other pairs average |cos| = {mean_off:.2f}"
        + (", close to 0: neighbours are no more alike than distant positions" if mean_off < 0.15 else "")
        + " — training has to discover that neighbours should be similar."
    )


def added_vectors_join(label: str) -> str:
    """Why the Attention page finds that an added table's part of a score depends on where each token
    stands, while its vectors' similarity depends on the distance alone: both are true."""
    return (
        f"On the Attention page, {label}'s part of a score depends on where each token stands, not only on "
        "i − j, and both are true: here the position vectors are compared alone, so only their distance "
        "counts; there each is added to a token's vector and goes through the query and key matrices, "
        "which mix token and position."
    )


def trains(family: Family, context_length: int, dim: int, fam: FamilyConfig) -> bool:
    """Whether training optimizes numbers of ``family`` at these settings (learned, not fixed)."""
    return family.parameter_count(context_length, dim, fam) > 0


def kind_of(family: Family, context_length: int, dim: int, fam: FamilyConfig) -> str:
    """The page's question for one family: "absolute, learned", "relative, fixed", … or "none"."""
    if family.kind == "none":
        return "none"
    return f"{family.kind}, {'learned' if trains(family, context_length, dim, fam) else 'fixed'}"


def overview_rows(context_length: int, dim: int, fam: FamilyConfig) -> list[dict[str, str]]:
    """The families' table, one row per family: what it is, where position enters, its numbers to train
    and what a position past the trained length gets, from its record and the settings."""
    T = context_length
    return [
        {
            "family": f.label,
            "kind": kind_of(f, T, dim, fam),
            "position enters at": f.injects,
            "numbers to train": f"{f.parameter_count(T, dim, fam):,}",
            f"past the trained length (T = {T:,})": f.past_trained(T, dim, fam),
            "source": f.source,
        }
        for f in FAMILIES.values()
    ]


@dataclass(frozen=True)
class PageAnswer:
    """The Families page's answer for the settings in force (the page shows it in ``ui.answer``)."""

    label: str
    number: str
    words: str
    others: tuple[str, ...]


def _named(families: list[Family]) -> str:
    return listing([f.label for f in families])


def families_answer(method: str, context_length: int, dim: int, fam: FamilyConfig) -> PageAnswer:
    """What each method gives a position, and the sidebar's method's numbers to train, from the registry
    and the settings: absolute methods a vector, relative ones a change to a pair's score, NoPE nothing."""
    T, family = context_length, FAMILIES[method]
    by_kind = {k: [f for f in FAMILIES.values() if f.kind == k] for k in ("absolute", "relative", "none")}
    learned = [f for f in FAMILIES.values() if f.kind != "none" and trains(f, T, dim, fam)]
    fixed = [f for f in FAMILIES.values() if f.kind != "none" and not trains(f, T, dim, fam)]
    count = family.parameter_count(T, dim, fam)
    sentences = [
        f"Absolute methods ({_named(by_kind['absolute'])}) give each position its own vector of "
        f"{plural(dim, 'number')}, added to its token's embedding.",
        f"Relative methods give a position no vector: inside {define('attention')}, they change the "
        f"{define('score')} of two tokens according to how far apart the two are, not where they stand: "
        f"{listing([named(f.label) for f in by_kind['relative']])}.",
        _learned_or_fixed(learned, fixed, by_kind["none"]),
        f"The sidebar's method, **{family.label}**, has {plural(count, 'number')} to train: it "
        f"{family.gives}.",
    ]
    return PageAnswer(
        label=f"{family.label}: numbers to train",
        number=f"{count:,}",
        words=" ".join(sentences),
        others=tuple(name for name in FAMILIES if name != method),
    )


def _learned_or_fixed(learned: list[Family], fixed: list[Family], none: list[Family]) -> str:
    """Which methods training optimizes and which compute their numbers by a fixed rule."""
    parts = []
    if learned:
        learn = verb(len(learned), "learns its", "learn their")
        parts.append(f"{_named(learned)} {learn} numbers in training")
    if fixed:
        parts.append(f"{_named(fixed)} {verb(len(fixed), 'computes its', 'compute theirs')} by a fixed rule")
    if none:  # named here first: defined
        parts.append(f"{listing([named(f.label) for f in none])} {verb(len(none), 'gives', 'give')} nothing")
    return capitalized("; ".join(parts)) + "."


def past_trained_note(context_length: int) -> str:
    """What the lecture's "generalize to lengths not seen in training" means, and where it stops: the
    sentence beside the table's column on positions past the trained length."""
    T = context_length
    seen = "distance 0 only" if T == 1 else f"distances 0 … {T - 1:,} only"
    return (
        "**Past the trained length.** The lecture says relative methods “generalize better to sequences of "
        "varying lengths, even if it has not seen such lengths during training”, and its notebook that the "
        f"fixed sinusoid can {define('extrapolate')}. What a method can promise there is that it still "
        "gives something, by the same rule as in training: the column “past the trained length” says what. "
        "Where that stops: "
        f"training on {plural(T, 'token')} shows {seen}. In a longer text, a relative method meets those "
        "distances again between nearby tokens, and new ones only between far tokens, which is why it "
        f"generalizes better; an absolute method meets a new position at every token past {T - 1:,}, so "
        "even the sinusoid's vectors there are new to the model."
    )
