"""No positional encoding (NoPE): every position adds the zero vector.

Without a position signal and without a mask, attention is permutation-equivariant: the model
sees the tokens as a set, so "dog bites man" and "man bites dog" give the same outputs, reordered.
A causal mask alone leaks some order back in (Kazemnejad et al. 2023, "The Impact of Positional
Encoding on Length Generalization in Transformers"): each token sees how many tokens precede it.
"""

from __future__ import annotations

import torch

from core.positional.family import Family, FamilyConfig, LogitInputs, ScriptCode
from core.views.colors import FAMILY_COLORS, FAMILY_DASHES


def nope(num_positions: int, dim: int) -> torch.Tensor:
    """The NoPE table, all zeros, so ``input_embeddings == token_embeddings``.

    Args:
        num_positions: T.
        dim: d.
    Returns:
        [T, d] float32 zeros.
    """
    if num_positions < 0 or dim < 0:
        raise ValueError(f"NoPE needs non-negative sizes (got T={num_positions}, d={dim}).")
    return torch.zeros(num_positions, dim)  # [T, d]


def nope_logits(x: LogitInputs) -> torch.Tensor:
    return torch.zeros(len(x.distances), dtype=torch.float64)  # [R]: position adds nothing


def describe_nope(
    label: str, r: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig
) -> str:
    zero = "exactly 0 at every distance" if bool((y == 0).all()) else "not 0"
    return f"{label} is {zero}: the score cannot depend on order."


FAMILY = Family(
    name="nope",
    label="NoPE",
    kind="none",
    injects="nowhere",
    where="",
    source="the lesson's starting point",
    extrapolates="nothing: it has no positions to run out of",
    help="nope: no position at all: each input embedding is its token embedding alone.",
    gives="gives a position nothing, so each input embedding is its token embedding alone",
    logits=nope_logits,
    describe_logits=describe_nope,
    trainable=True,
    color=FAMILY_COLORS["nope"],
    dash=FAMILY_DASHES["nope"],
    code=ScriptCode(
        curve="torch.zeros(len(distances), dtype=torch.float64)  # position adds nothing",
        attention_scores="scores = content  # NoPE: position enters nowhere; only the mask can tell orders "
        "apart",
    ),
    curve_reads_seed_and_dim=False,  # zero at every seed and d
    stays_in_training="NoPE adds no position at all: the model knows order only because each token sees just "
    "the tokens before it, and training has no position numbers to change.",
)
