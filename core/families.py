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

import torch

from core.embeddings import TableRows
from core.positional import FAMILIES, FamilyConfig
from core.positional.family import MAX_USED_LENGTH, LogitInputs
from core.similarity import pair_distances

LOGIT_CHUNK_ELEMENTS = 2**18  # distance × dimension values computed at once
CURVE_POINTS = 400  # distances drawn per method on the logit chart


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


def similarity_findings(name: str, positions: torch.Tensor, sim: torch.Tensor) -> str:
    """One sentence on a [P, P] cosine-similarity matrix of position vectors, from its numbers."""
    label = FAMILIES[name].label
    gap = pair_distances(positions)  # [P, P]
    spread = max(float(sim[gap == g].max() - sim[gap == g].min()) for g in gap.unique().tolist())
    off = sim[gap > 0].abs()
    if spread <= 1e-5:  # float32 tables: equal up to rounding
        near = float(sim[gap == gap[gap > 0].min()].mean()) if bool((gap > 0).any()) else 1.0
        return (
            f"{label}: the similarity depends only on the distance |i − j| (stripes parallel to the "
            f"diagonal), {near:.2f} for the nearest drawn pair, the same everywhere along the sequence."
        )
    mean_off = float(off.mean()) if len(off) else 0.0
    return (
        f"{label}: only the diagonal is 1; other pairs average |cos| = {mean_off:.2f}"
        + (", close to 0: neighbours are no more alike than distant positions" if mean_off < 0.15 else "")
        + " — training has to discover that neighbours should be similar."
    )
