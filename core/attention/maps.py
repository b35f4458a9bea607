"""One head's attention on one sentence, split into what the tokens give and what position changes.

``content = q·kᵀ/√dh`` of the token embeddings alone. Each family then changes the scores its own way,
read from its record: an additive family's table is added to the input before q and k are taken
(learned, sinusoidal), RoPE rotates q and k (``rotate``), ALiBi adds ``−m·(i − j)``
(``attention_bias``), T5 its bucket bias and Shaw ``q·a^K/√dh`` (``score_bias``); NoPE changes nothing.
``position = scores − content`` is that change. The causal mask hides keys after the query, and the
softmax over the visible keys gives the weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from core.positional.family import FAMILIES, Family, FamilyConfig, ScoreInputs


@dataclass(frozen=True)
class AttentionMap:
    """One head's attention on a sentence of T tokens, query i (row) to key j (column), float64."""

    content: torch.Tensor  # [T, T] q·kᵀ/√dh from the token embeddings alone
    position: torch.Tensor  # [T, T] what position changes: scores − content (0 everywhere for NoPE)
    scores: torch.Tensor  # [T, T] content + position; −inf where the mask hides the key
    weights: torch.Tensor  # [T, T] softmax of each row over its visible keys (rows sum to 1)
    mask: torch.Tensor  # [T, T] bool: True where key j is visible to query i


def causal_mask(length: int) -> torch.Tensor:
    """A decoder's mask: query i sees keys j ≤ i. [T, T] bool."""
    positions = torch.arange(length)
    return positions[None, :] <= positions[:, None]  # [T, T]


def attention_map(
    family: Family,
    q0: torch.Tensor,
    k0: torch.Tensor,
    *,
    head: int,
    fam: FamilyConfig,
    dim: int,
    seed: int,
    q_in: torch.Tensor | None = None,
    k_in: torch.Tensor | None = None,
    causal: bool = True,
) -> AttentionMap:
    """The attention of head ``head`` under ``family``.

    Args:
        family: the positional family (its hooks say where position enters).
        q0, k0: [T, dh] the head's queries and keys of the token embeddings alone.
        head: h, 0-based, of ``fam.heads`` (ALiBi's slope and T5's bias column are per head).
        fam: the families' settings (heads, RoPE's base, T5's buckets, Shaw's clip, …).
        dim: d (T5's untrained table is N(0, 1/d)).
        seed: the untrained tables' seed (T5, Shaw).
        q_in, k_in: [T, dh] queries and keys of the input with the family's table added (additive
            families only).
        causal: mask keys after the query (a decoder); False for an encoder (T5 then buckets both sides).
    Returns:
        ``AttentionMap`` with [T, T] tensors.
    """
    T, dh = q0.shape
    positions = torch.arange(T)
    q0, k0 = q0.double(), k0.double()
    content = q0 @ k0.T / math.sqrt(dh)  # [T, T]
    q, k = q0, k0
    if family.additive:
        if q_in is None or k_in is None:
            raise ValueError(f"{family.label} adds its table at the input: pass q_in and k_in.")
        q, k = q_in.double(), k_in.double()  # [T, dh] each
    if family.rotate is not None:
        q, k = family.rotate(q, positions, fam.base), family.rotate(k, positions, fam.base)  # [T, dh] each
    scores = q @ k.T / math.sqrt(dh)  # [T, T]
    if family.attention_bias is not None:
        scores = scores + family.attention_bias(fam.heads, positions)[head].double()  # [T, T]
    if family.score_bias is not None:
        scores = scores + family.score_bias(ScoreInputs(q0, positions, head, fam, dim, seed, causal))
    mask = causal_mask(T) if causal else torch.ones(T, T, dtype=torch.bool)  # [T, T]
    masked = scores.masked_fill(~mask, -math.inf)  # [T, T]
    return AttentionMap(content, scores - content, masked, masked.softmax(dim=-1), mask)


def family_maps(
    project,
    tokens: torch.Tensor,
    tables: dict[str, torch.Tensor],
    *,
    head: int,
    fam: FamilyConfig,
    dim: int,
    seed: int,
    names: tuple[str, ...] | None = None,
    causal: bool = True,
) -> dict[str, AttentionMap]:
    """Every family's attention map of one sentence, its inputs projected in one pass.

    Args:
        project: the head, x [N, d] ↦ (q [N, dh], k [N, dh]) (``RandomHead.project``, …).
        tokens: [T, d] the sentence's token embeddings.
        tables: each additive family's input with its table added, [T, d], by name.
        names: the families to map (default: every registered one, in the registry's order).
        head, fam, dim, seed, causal: as ``attention_map``.
    Returns:
        name -> ``AttentionMap``.
    """
    names = tuple(FAMILIES) if names is None else names
    T = len(tokens)
    additive = [n for n in names if FAMILIES[n].additive]
    missing = [n for n in additive if n not in tables]
    if missing:
        raise ValueError(f"No input with positions for {', '.join(missing)}.")
    q, k = project(torch.cat([tokens, *(tables[n] for n in additive)]))  # [(1 + A)·T, dh] each
    out = {}
    for name in names:
        extra = {}
        if name in additive:
            at = (1 + additive.index(name)) * T
            extra = {"q_in": q[at : at + T], "k_in": k[at : at + T]}
        out[name] = attention_map(
            FAMILIES[name], q[:T], k[:T], head=head, fam=fam, dim=dim, seed=seed, causal=causal, **extra
        )
    return out
