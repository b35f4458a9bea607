"""The Attention page's maps of two sentences under one head: every family on A, the page's own on B.

``sentence_maps`` is a seeded random head's (the page's), ``trained_maps`` a trained tiny GPT's first
block's. Where the token table's rows come from is passed in (``core.pipeline.Rows``): drawn on the spot,
or those a server keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from core.attention.compare import KeyWeight, Moved, moved_row, moved_token, signature
from core.attention.heads import RandomHead, TrainedHead
from core.attention.maps import AttentionMap, family_maps
from core.config import PipelineConfig
from core.pipeline import Rows
from core.positional.family import FAMILIES, FamilyConfig
from core.text.tokenizer import token_strings
from core.training.model import SIZES


@dataclass(frozen=True)
class AttentionSettings:
    """The Attention page's own settings: the families', the head shown (0-based) and the mask."""

    fam: FamilyConfig
    head: int  # h, 0-based
    causal: bool


def check_settings(settings: AttentionSettings, cfg: PipelineConfig) -> None:
    """Raise ``ValueError`` for settings that cannot work (the family's, or a head that does not exist)."""
    settings.fam.validate(cfg.output_dim, cfg.context_length)
    if not 0 <= settings.head < settings.fam.heads:
        raise ValueError(
            f"Head shown must be between 1 and {settings.fam.heads} (the heads H); it is {settings.head + 1}."
        )


@dataclass(frozen=True)
class SentenceMaps:
    """Both sentences' attention under one head: every family on A (a trained model's own), its own on B."""

    ids_a: list[int]
    ids_b: list[int]
    method: str  # the family of sections 1 and 2
    maps_a: dict[str, AttentionMap]  # family name -> its map of A
    map_b: AttentionMap  # ``method``'s map of B
    head: int  # h, 0-based
    num_heads: int  # H
    weights: str  # where W_q and W_k come from, in words (Markdown)
    signatures: dict[str, str]  # family name -> what its position part on A shows, in words (``signature``)

    @property
    def moved(self) -> Moved | None:
        return moved_token(self.ids_a, self.ids_b)

    @property
    def head_label(self) -> str:
        return f"head {self.head + 1} of {self.num_heads}"


def sentence_maps(
    ids: tuple[list[int], list[int]], cfg: PipelineConfig, settings: AttentionSettings, rows: Rows
) -> SentenceMaps:
    """A seeded random head (``settings.head`` of ``settings.fam.heads``) on two sentences.

    Args:
        ids: the token IDs of A and B ([N_a], [N_b], both non-empty).
        cfg: the sidebar's settings (V, d, T, the seed and the method shown on B).
        rows: where the token table's and the additive families' rows come from.
    Returns:
        ``SentenceMaps``: every family's map of A, ``cfg.method``'s of B.
    """
    N, d, fam = max(map(len, ids)), cfg.output_dim, settings.fam
    tokens = rows.token_rows(torch.tensor(ids[0] + ids[1], dtype=torch.long))
    tok_a, tok_b = (tokens.lookup(torch.tensor(i, dtype=torch.long)) for i in ids)  # [N_a, d], [N_b, d]
    long = max(cfg.context_length, N)  # a learned table long enough for both sentences
    tables = {
        name: rows.input_rows(name, torch.arange(N), long, fam).rows  # [N, d]
        for name, family in FAMILIES.items()
        if family.additive
    }
    head = RandomHead(d, fam.heads, settings.head, cfg.seed)
    common = {"head": settings.head, "fam": fam, "dim": d, "seed": cfg.seed, "causal": settings.causal}
    maps = []
    for tok, names in ((tok_a, None), (tok_b, (cfg.method,))):
        with_positions = {name: tok + table[: len(tok)] for name, table in tables.items()}  # [N_k, d] each
        maps.append(family_maps(head.project, tok, with_positions, names=names, **common))
    drawn = "" if head.exact else ", in blocks of rows"
    weights = (
        f"random `W_q` and `W_k` ({d} → {head.head_dim} numbers per token, drawn with seed "
        f"{cfg.seed}{drawn}); no model is trained here, so only the position part is the method's own"
    )
    a, b = maps[0], maps[1][cfg.method]
    return SentenceMaps(ids[0], ids[1], cfg.method, a, b, settings.head, fam.heads, weights, signatures(a))


def trained_maps(model: TrainedHead, ids: tuple[list[int], list[int]], vocab_size: int) -> SentenceMaps:
    """A trained model's first-block head (``model``) on both sentences, cut to its context.

    Raises ``ValueError`` when a token is not in its vocabulary (its training text's tokens).
    Returns ``SentenceMaps`` of its own family only, with its mask on.
    """
    dim, num_heads, _ = SIZES[model.size]
    T, method = model.context_length, model.method
    unknown = model.unknown(ids[0] + ids[1])
    if unknown:
        shown = ", ".join(repr(t) for t in token_strings(unknown[:8], vocab_size)) + (
            ", …" if len(unknown) > 8 else ""
        )
        raise ValueError(
            f"The trained model knows only the {len(model.vocab):,} tokens of its training text, and "
            f"{len(unknown)} of the sentences' tokens are not among them ({shown}). "
            "Type words from its text, such as 'the wind was a gale from the north', or switch it off."
        )
    cut = [i[:T] for i in ids]
    fam = FamilyConfig(heads=num_heads)  # the tiny GPT's RoPE base is the default's
    maps = []
    for sentence in cut:
        tokens, with_positions = model.inputs(sentence)
        tables = {method: with_positions} if with_positions is not None else {}
        common = {"head": model.head, "fam": fam, "dim": dim, "seed": 0, "causal": True}
        maps.append(family_maps(model.project, tokens, tables, names=(method,), **common)[method])
    weights = (
        f"the trained tiny GPT's first block ({method}, {model.size}: layer norm, then `qkv`, {dim} → "
        f"{dim // num_heads}), a decoder, so its mask is on"
        + (f"; the sentences are cut to its context of {T} tokens" if max(map(len, ids)) > T else "")
    )
    a, b = {method: maps[0]}, maps[1]
    return SentenceMaps(cut[0], cut[1], method, a, b, model.head, num_heads, weights, signatures(a))


def signatures(maps: dict[str, AttentionMap]) -> dict[str, str]:
    """Each family's signature on its map, computed once with the maps they read (kept with them)."""
    return {name: signature(FAMILIES[name], m) for name, m in maps.items()}


def move_row(view: SentenceMaps, queries: tuple[int | None, int | None] | None = None) -> list[KeyWeight]:
    """A token's row in A and in B: at ``queries``, else the moved token's (then ``view.moved`` must not
    be None)."""
    a, b = queries or (view.moved.position_a, view.moved.position_b)
    return moved_row(view.maps_a[view.method], view.map_b, view.ids_a, view.ids_b, a, b)
