"""The Attention page's pieces: its settings (URL keys head, causal and the families' own), the cached
maps of the two sentences, and the heatmaps. Why position? reads the same settings for its headline."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import pandas as pd
import streamlit as st
import torch

from core.attention import (
    AttentionMap,
    Moved,
    RandomHead,
    TrainedHead,
    family_maps,
    moved_row,
    moved_token,
    signature,
)
from core.attention.charts import (
    attention_heatmap,
    heatmap_description,
    query_row_charts,
    query_row_frame,
    symmetric_domain,
)
from core.attention.compare import (
    KeyWeight,
    PairTerm,
    every_family_sentence,
    headline_pairs,
    pair_sentence,
    pair_terms,
    pattern,
    tokens_back,
    visible_keys,
)
from core.attention.display import heatmap_frame, shown_note, shown_positions, token_labels
from core.config import FAMILIES, FamilyConfig, PipelineConfig
from core.positional.alibi import get_slopes
from core.positional.family import EXTRAPOLATE, Family, all_params
from core.text.tokenizer import token_strings
from core.training.model import SIZES
from core.training.training import TrainResult
from core.views.glossary import GLOSSARY, define, named
from core.views.markup import escape_markdown
from core.views.units import listing
from ui.families.controls import setting, settings_words
from ui.predict import predict_number, predict_token
from ui.presenter import presenting, readable
from ui.server import cache
from ui.settings import bound_number
from ui.state.url_keys import register_url_keys, url_bound
from ui.state.url_params import url_value
from ui.tables import table, token_text

register_url_keys("head", "causal")
SKIPPED = ("pairing", EXTRAPOLATE.key)  # settings the page does not use (its RoPE pairs as the tiny GPT)
WEIGHT_DOMAIN = (0.0, 1.0)
SLIDE_ROW = 24  # px a token takes in a slide's map: its 17-px label's box is 23 px tall


@dataclass(frozen=True)
class Settings:
    """The page's own settings: the families', the head shown (0-based) and the mask."""

    fam: FamilyConfig
    head: int
    causal: bool


def attention_settings(per_row: int = 4, said: set[str] = frozenset()) -> Settings:
    """The widgets: heads H, the head shown, the causal mask, and each family's settings it uses; above
    them the words their labels use, the methods they name included (but those in ``said``)."""
    params = [p for key, p in all_params().items() if key not in SKIPPED]
    values = {}
    labels = " ".join(p.label for p in params)
    names = [named(f.label) for f in FAMILIES.values() if f.label not in said and names_it(labels, f.label)]
    methods = f"The methods they name: {'; '.join(names)}. " if names else ""
    st.caption(f"{methods}{settings_words()} The {define('causal mask')} can be turned off.")
    columns = st.columns(per_row)
    with columns[0]:
        head = bound_number("Head shown", "head", 1, "Which head's scores the page shows (1 … H).")
    for k, param in enumerate(params):
        with columns[(k + 1) % per_row]:
            values[param.key] = setting(param)
    causal = st.toggle(
        "Causal mask: a token sees only itself and the tokens before it, as in GPT",
        value=True,
        **url_bound("causal"),
    )
    return Settings(FamilyConfig(**values), int(head) - 1, causal)


def names_it(text: str, label: str) -> bool:
    """Whether ``text`` names the method ``label`` in any of the glossary's forms ("Shaw clip k")."""
    return label in GLOSSARY and re.search(GLOSSARY[label].uses, text) is not None


def current_settings() -> Settings:
    """The same settings without drawing them (Why position?): from this session, else the URL."""
    fam = FamilyConfig(**{k: url_value(k, p.default) for k, p in all_params().items() if k not in SKIPPED})
    return Settings(fam, int(url_value("head", 1)) - 1, bool(url_value("causal", True)))


def check(settings: Settings, cfg: PipelineConfig) -> None:
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


def sentence_maps(texts: tuple[str, str], cfg: PipelineConfig, settings: Settings) -> SentenceMaps:
    """Seeded random heads on ``texts`` (as the page reads them: a leading space when mid-sentence).

    Kept per the settings they read: a new batch size or stride (which no map reads) finds them.
    """
    unread = {"batch_size": PipelineConfig.batch_size, "stride": PipelineConfig.stride}
    return _sentence_maps(texts, dataclasses.replace(cfg, **unread), settings)


@cache.SHARED.cached
def _sentence_maps(texts: tuple[str, str], cfg: PipelineConfig, settings: Settings) -> SentenceMaps:
    ids = [cache.token_ids(t, cfg.vocab_size) for t in texts]
    N = max(map(len, ids))
    (tok_a, tok_b), _ = cache.sentence_embeddings(texts, cfg, N)
    long = dataclasses.replace(cfg, context_length=max(cfg.context_length, N))  # a learned table long enough
    tables = {
        name: cache.additive_rows(dataclasses.replace(long, method=name), settings.fam, tuple(range(N))).rows
        for name, family in FAMILIES.items()
        if family.additive
    }
    head = RandomHead(cfg.output_dim, settings.fam.heads, settings.head, cfg.seed)
    common = {"head": settings.head, "fam": settings.fam, "dim": cfg.output_dim, "seed": cfg.seed}
    maps = []
    for tok, names in ((tok_a, None), (tok_b, (cfg.method,))):
        rows = {name: tok + table[: len(tok)] for name, table in tables.items()}
        maps.append(family_maps(head.project, tok, rows, names=names, causal=settings.causal, **common))
    drawn = "" if head.exact else ", in blocks of rows"
    weights = (
        f"random `W_q` and `W_k` ({cfg.output_dim} → {head.head_dim} numbers per token, drawn with seed "
        f"{cfg.seed}{drawn}); no model is trained here, so only the position part is the method's own"
    )
    H = settings.fam.heads
    a, b = maps[0], maps[1][cfg.method]
    return SentenceMaps(ids[0], ids[1], cfg.method, a, b, settings.head, H, weights, signatures(a))


def trained_run() -> TrainResult | None:
    """This session's last finished training run (the Training page), if it kept its model's heads."""
    from ui.training.views import session_id, training_queue  # the Training page's queue, shared

    job = training_queue().own_job(session_id())
    if job is None or job.status != "done" or not job.result.first_block:
        return None
    return job.result


def weights_switch(run: TrainResult | None) -> bool:
    """The switch to the trained tiny GPT's heads (session only: a link cannot carry a trained model)."""
    if run is None:
        st.caption(
            "Train the tiny GPT on **Watch positions being learned** to see its trained attention here."
        )
        return False
    c = run.config
    return st.toggle(
        f"Use the heads of the tiny GPT you trained ({c.method}, {c.size}, context {c.context_length}, "
        f"{c.steps} steps)",
        key="trained_heads",
        help="Its first block's heads on your sentences, in its vocabulary (its training text's tokens).",
    )


def trained_maps(run: TrainResult, settings: Settings, ids: tuple[list[int], list[int]], vocab_size: int):
    """The trained model's first-block head on both sentences (cut to its context); ``ValueError`` when a
    token is not in its vocabulary. Returns ``SentenceMaps`` of its own family only."""
    c = run.config
    dim, num_heads, _ = SIZES[c.size]
    head = min(settings.head, num_heads - 1)
    model = TrainedHead(run.first_block, tuple(run.vocab), c.method, c.size, c.context_length, head)
    unknown = model.unknown(ids[0] + ids[1])
    if unknown:
        shown = ", ".join(repr(t) for t in token_strings(unknown[:8], vocab_size)) + (
            ", …" if len(unknown) > 8 else ""
        )
        raise ValueError(
            f"The trained model knows only the {len(run.vocab):,} tokens of its training text, and "
            f"{len(unknown)} of the sentences' tokens are not among them ({shown}). "
            "Type words from its text, such as 'the wind was a gale from the north', or switch it off."
        )
    cut = [i[: c.context_length] for i in ids]
    fam = FamilyConfig(heads=num_heads)  # the tiny GPT's RoPE base is the default's
    maps = []
    for sentence in cut:
        tokens, with_positions = model.inputs(sentence)
        tables = {c.method: with_positions} if with_positions is not None else {}
        common = {"head": head, "fam": fam, "dim": dim, "seed": 0, "causal": True}
        maps.append(family_maps(model.project, tokens, tables, names=(c.method,), **common)[c.method])
    weights = (
        f"the trained tiny GPT's first block ({c.method}, {c.size}: layer norm, then `qkv`, {dim} → "
        f"{dim // num_heads}), a decoder, so its mask is on"
        + (
            f"; the sentences are cut to its context of {c.context_length} tokens"
            if max(map(len, ids)) > c.context_length
            else ""
        )
    )
    a, b = {c.method: maps[0]}, maps[1]
    return SentenceMaps(cut[0], cut[1], c.method, a, b, head, num_heads, weights, signatures(a))


def signatures(maps: dict[str, AttentionMap]) -> dict[str, str]:
    """Each family's signature on its map, computed once with the maps they read (kept with them)."""
    return {name: signature(FAMILIES[name], m) for name, m in maps.items()}


def position_part_name(family: Family) -> str:
    """What the position part of ``family`` is, read from its hooks."""
    if family.additive:
        return "score(x + p) − score(x)"
    if family.rotate is not None:
        return "rotated score − plain score"
    if family.attention_bias is not None or family.score_bias is not None:
        return "what it adds to the score"
    return "nothing: 0"


def heatmap(
    values: torch.Tensor,
    m: AttentionMap,
    pieces: list[str],
    title: str,
    legend: str,
    domain,
    where,
    description: str | None = None,
    **options,
):
    """One query × key heatmap of ``values`` [T, T] (``m``'s mask hides its cells), drawn in ``where``.

    ``description``: what a screen reader says for it (default: ``heatmap_description`` of the cells
    drawn). ``options``: ``attention_heatmap``'s, and ``row`` for the px a position takes when presenting
    (every key and query labelled on a slide, the map as tall as that needs: a 1280 × 720 projector fits
    the default sentences' 6 tokens).
    """
    row = options.pop("row", SLIDE_ROW)
    on = presenting()
    shown = shown_positions(len(pieces))
    height = min(560, 170 + 26 * len(shown))  # labels and title: ~170 px

    def build() -> tuple[object, int]:  # the chart, and the bytes its frame takes
        frame = heatmap_frame(values, m.mask, shown)
        scheme = "blues" if domain == WEIGHT_DOMAIN else "redblue"
        labels = token_labels(pieces)
        said = description or heatmap_description(
            frame, labels, title, legend, len(shown) ** 2, options.get("highlight")
        )
        chart = cache.chart(
            attention_heatmap,
            frame,
            labels,
            title,
            domain=domain,
            legend=legend,
            scheme=scheme,
            height=height,
            row=row if on else None,
            description=said,
            **options,
        )
        return readable(chart), frame.size * 8  # i, j and v: 8 bytes a cell (cheaper than pandas' own count)

    # Kept while the map lives: a rerun that changes no map (a new batch size or stride) draws the page's
    # 13 charts without building or converting them again.
    key = (
        tuple(pieces),
        title,
        legend,
        tuple(domain),
        height,
        row,
        on,
        description,
        *sorted(options.items()),
    )
    chart = cache.kept_chart(key, (values, m.mask), build)
    where.altair_chart(chart, width="stretch", height="content" if on else height)


def grid(count: int, per_row: int = 2) -> list:
    """``count`` cells, ``per_row`` in a row."""
    return [cell for _ in range(-(-count // per_row)) for cell in st.columns(per_row)][:count]


def split_view(
    family: Family, m: AttentionMap, pieces: list[str], label: str, highlight: int | None = None
) -> None:
    """Section 1: content, position part, scores with the mask and weights of one sentence (presenting:
    content, position part and weights in one row, the scores being their sum). ``highlight``: the
    followed token's query row, outlined in each."""
    outline = {} if highlight is None else {"highlight": highlight}
    # One scale for the three scores: their sizes compare.
    domain = symmetric_domain([t[m.mask] for t in (m.content, m.position, m.scores)])
    panels = [
        (m.content, f"{label}: content q·kᵀ/√dh", "score", domain),
        (m.position, f"{label}: position part, {position_part_name(family)}", "score", domain),
        (m.scores, f"{label}: scores (grey: masked)", "score", domain),
        (m.weights, f"{label}: softmax weights", "weight", WEIGHT_DOMAIN),
    ]
    if presenting():  # three in a row: short titles (the sentence above says what the position part is)
        del panels[2]
        panels[1] = (m.position, f"{label}: position part", "score", domain)
    cells = grid(len(panels), len(panels) if presenting() else 2)
    for cell, (values, title, legend, scale) in zip(cells, panels, strict=True):
        heatmap(values, m, pieces, title, legend, scale, cell, **outline)
    note = shown_note(len(pieces))
    if note:
        st.caption(note)


def side_by_side(
    view: SentenceMaps,
    pieces: tuple[list[str], list[str]],
    queries: tuple[int | None, int | None] | None = None,
) -> None:
    """Section 2: the family's weights on A and on B, a token's row outlined in each: ``queries``' (the
    followed token's places; None where it is not in that sentence), else the moved token's."""
    if queries is None:
        queries = (view.moved.position_a, view.moved.position_b)
    for column, label, m, ps, query in zip(
        st.columns(2), "AB", (view.maps_a[view.method], view.map_b), pieces, queries, strict=True
    ):
        if query is None:
            heatmap(m.weights, m, ps, f"{label}: weights", "weight", WEIGHT_DOMAIN, column)
            continue
        title = f"{label}: weights ({quoted_plain(ps[query])} outlined)"
        heatmap(m.weights, m, ps, title, "weight", WEIGHT_DOMAIN, column, highlight=query)


EVERY_FAMILY_PARTS = ["none and absolute", "relative"]  # presenting, the maps of each kind on a slide


def small_multiples(
    view: SentenceMaps, pieces: list[str], highlight: int | None = None, part: int | None = None
) -> None:
    """Section 3: every family's position part on A, on one colour scale, each with its signature
    (``highlight``: the followed token's query row, outlined in each), under one sentence on what to see.

    Presenting: part ``part`` of ``EVERY_FAMILY_PARTS`` (the relative families, or the others), four in a
    row, without legends, axis titles or signatures (the caption names the scale; a hover gives each
    number), every token labelled: seven maps so labelled would not fit one 1280 × 720 slide.
    """
    domain = symmetric_domain([m.position[m.mask] for m in view.maps_a.values()])
    constant = domain[1] / 100  # symmetric log: T5's small untrained biases show next to ALiBi's
    on = presenting()
    maps = {
        name: m
        for name, m in view.maps_a.items()
        if part is None or (FAMILIES[name].kind == "relative") == (EVERY_FAMILY_PARTS[part] == "relative")
    }
    st.markdown(every_family_sentence({FAMILIES[name].label: pattern(m) for name, m in maps.items()}))
    for cell, (name, m) in zip(grid(len(maps), 4 if on else 2), maps.items(), strict=True):
        family = FAMILIES[name]
        title = family.label if on else f"{family.label}: {family.injects}"
        common = {"symlog": constant, "accent": family.color, "compact": on}
        said = view.signatures[name]
        if highlight is not None:
            common["highlight"] = highlight
            said += f" The row of query {quoted_plain(pieces[highlight])} is outlined."
        heatmap(m.position, m, pieces, title, "position part", domain, cell, said, **common)
        if not on:
            cell.caption(view.signatures[name])
    scale = f"One colour scale for all {len(view.maps_a)}: {domain[0]:+.3f} (blue) to {domain[1]:+.3f} (red)"
    untrained = [f.label for f in map(FAMILIES.get, view.maps_a) if f.score_bias is not None]
    note = (
        f" {listing(untrained)} start from random, untrained numbers: training sets their size, so a pale "
        "map here says nothing about a trained model."
        if untrained
        else ""
    )
    st.caption(
        f"{scale}, squeezed at its ends; grey: masked."
        if on
        else f"{scale}. It is even near 0 (within ±{constant:.3g}) and squeezed farther out on each side, as "
        f"on a {define('log scale')}, so small changes stay visible next to large ones; hover a cell for its "
        f"value. Grey: masked.{note}"
    )


def row_table(
    view: SentenceMaps, vocab_size: int, queries: tuple[int | None, int | None] | None = None
) -> None:
    """A token's attention row, key token by key token, in A and in B: at ``queries`` (the followed
    token's places; None in a sentence that does not have it), else the moved token's."""
    row = move_row(view, queries)

    def seen(weight: float | None, masked: bool) -> float | None:  # a hidden key gets no weight
        return None if weight is None or masked else weight

    a = [seen(k.weight_a, k.masked_a) for k in row]
    b = [seen(k.weight_b, k.masked_b) for k in row]
    weights = {
        "weight in A": a,
        "weight in B": b,
        "B − A": [None if x is None or y is None else y - x for x, y in zip(a, b, strict=True)],
    }
    frame = pd.DataFrame(
        {"key token": token_strings([k.token_id for k in row], vocab_size), **weights}, dtype=object
    )
    formats = {"key token": token_text} | dict.fromkeys(weights, "{:.4f}")
    table(frame.astype(dict.fromkeys(weights, float)), formats, hide_index=True)
    st.caption(row_note(view, vocab_size))


def row_note(view: SentenceMaps, vocab_size: int) -> str:
    """What an empty cell of the row table means, and which tokens' weights are sums (they occur twice)."""
    note = "None: the key token is not in that sentence, or the causal mask hides it from this query."
    repeated = []
    for label, ids in (("A", view.ids_a), ("B", view.ids_b)):
        many = [t for t in dict.fromkeys(ids) if ids.count(t) > 1]
        repeated += [f"{quoted(p)} in {label}" for p in token_strings(many, vocab_size)]
    if repeated:
        listed = repeated[0] if len(repeated) == 1 else ", ".join(repeated[:-1]) + " and " + repeated[-1]
        note += f" A token that occurs more than once gets the sum of its weights: {listed}."
    return note


def move_row(view: SentenceMaps, queries: tuple[int | None, int | None] | None = None) -> list[KeyWeight]:
    """A token's row in A and in B: at ``queries``, else the moved token's (then ``view.moved`` must not be
    None)."""
    a, b = queries or (view.moved.position_a, view.moved.position_b)
    return moved_row(view.maps_a[view.method], view.map_b, view.ids_a, view.ids_b, a, b)


@dataclass(frozen=True)
class PairHeadline:
    """What a relative family does to the moved token's pairs in A and B (``pair_headline``)."""

    view: SentenceMaps
    kept: PairTerm | None  # a pair whose distance the move kept
    changed: PairTerm | None  # a pair whose distance it changed
    sentences: list[str]  # the two pairs in words (Markdown, escaped)
    seen: tuple[int, int]  # how many keys the moved token sees in A and in B (the mask's doing)
    causal: bool
    pieces: dict[int, str]  # token ID -> its text, for every token of both sentences

    @property
    def silent(self) -> bool:
        """Whether the family adds nothing to any score (NoPE): only the mask can carry order."""
        f = FAMILIES[self.view.method]
        return not f.additive and f.rotate is None and f.attention_bias is None and f.score_bias is None


def pair_headline(cfg: PipelineConfig, texts: tuple[str, str], settings: Settings) -> PairHeadline:
    """The family's own term for a kept and a changed pair of the two sentences, with the Attention
    page's head and settings (``settings`` must pass ``check``)."""
    return pairs_of(sentence_maps(texts, cfg, settings), cfg.vocab_size, settings.causal)


def pairs_of(view: SentenceMaps, vocab_size: int, causal: bool) -> PairHeadline:
    """``pair_headline`` of maps already computed (a random head's, or a trained model's)."""
    family = FAMILIES[view.method]
    pairs = pair_terms(family, view.maps_a[view.method], view.map_b, view.ids_a, view.ids_b)
    moved = view.moved
    kept, changed = headline_pairs(pairs, moved.token_id if moved else -1)
    ids = list(dict.fromkeys(view.ids_a + view.ids_b))
    pieces = dict(zip(ids, token_strings(ids, vocab_size), strict=True))
    relative = family.kind == "relative" and not family.additive
    sentences = [
        escape_markdown(pair_sentence(p, family.label, pieces, relative)) for p in (kept, changed) if p
    ]
    seen = (0, 0)
    if moved is not None:
        seen = (
            visible_keys(view.maps_a[view.method], moved.position_a),
            visible_keys(view.map_b, moved.position_b),
        )
    return PairHeadline(view, kept, changed, sentences, seen, causal, pieces)


def pair_headline_or_message(cfg: PipelineConfig, texts: tuple[str, str]) -> PairHeadline | None:
    """Why position?'s ``pair_headline`` with the Attention page's settings, or None (and a message) when
    those settings cannot work at these sizes."""
    chosen = current_settings()
    try:
        check(chosen, cfg)
    except ValueError as exc:
        st.info(f"The Attention page's settings cannot work at these sizes: {exc}")
        return None
    return pair_headline(cfg, texts, chosen)


def relative_headline(cells: list, headline: PairHeadline, piece: str, moved) -> None:
    """Why position?'s headline for a family that adds nothing to the input: its term for a kept and a
    changed pair (NoPE: what the mask lets the moved token see), and the caption that says what they show.

    ``piece``: the moved token, quoted for Markdown; ``moved``: its ``core.order.SharedToken``.
    """
    label = FAMILIES[headline.view.method].label
    start = (
        f"{piece} moved from position {moved.position_a} in A to {moved.position_b} in B (positions count "
        f"from 0, as `torch.arange` does). With {label} "
        "its input vector is the same at both places: nothing is added to it. "
    )
    if headline.silent:
        mask_metric(cells[0], headline, piece)
        a, b = headline.seen
        st.caption(
            start
            + f"{label} adds nothing to attention either: "
            + (
                f"only the causal mask carries order, and it lets {piece} see {a} token"
                f"{'s' if a != 1 else ''} in A and {b} in B."
                if headline.causal
                else "and the mask is off, so nothing here depends on order."
            )
        )
        return
    pairs = [p for p in (headline.kept, headline.changed) if p is not None]
    for cell, pair in zip(cells, pairs, strict=False):
        pair_metric(cell, pair, label, headline.pieces)
    st.caption(
        start
        + f"{label} acts inside attention, on pairs of tokens, and sees how far apart they are, not where "
        "they stand. "
        + (
            " ".join(headline.sentences)
            if pairs
            else "No two tokens occur exactly once in both sentences, so there is no pair to compare."
        )
    )


def pair_metric(column, pair: PairTerm, label: str, pieces: dict[int, str]) -> None:
    """One pair's term in B as a metric, A's beside it (both exist: the pair is in both sentences)."""
    name = f"{quoted(pieces[pair.query_b])} → {quoted(pieces[pair.key_b])}"
    if pair.kept:
        delta = f"the same in A · {tokens_back(pair.a.distance)} in both"
        if not pair.same_term:
            delta = f"A: {pair.a.term:+.4f} · {tokens_back(pair.a.distance)} in both"
    elif pair.swapped:
        delta = f"A: {pair.a.term:+.4f} · the two swapped places, {tokens_back(pair.a.distance)}"
    else:
        delta = f"A: {pair.a.term:+.4f} · {pair.a.distance} back in A, {pair.b.distance} in B"
    column.metric(
        f"{label} term, {name} in B",
        f"{pair.b.term:+.4f}",
        delta=delta,
        delta_color="off",
        delta_arrow="off",
        help="What the method itself adds to this pair's attention score (RoPE: the score of the rotated "
        "query and key). One head of seeded random weights, as on the Attention page.",
    )


def mask_metric(column, headline: PairHeadline, piece: str) -> None:
    """NoPE's headline: how many tokens the moved token (``piece``, quoted for Markdown) sees in A and in B,
    which is the mask's doing."""
    a, b = headline.seen
    column.metric(
        f"Tokens {piece} can see in B (the causal mask)",
        f"{b}",
        delta=f"in A: {a}",
        delta_color="off",
        delta_arrow="off",
        help="A decoder's causal mask lets each token see itself and the tokens before it.",
    )


def quoted(piece: str) -> str:
    """A token as the page writes it in Markdown: its repr, escaped."""
    return escape_markdown(repr(piece))


def quoted_plain(piece: str) -> str:
    """A token as a chart title writes it (plain text, never Markdown): its repr."""
    return repr(piece)


BRIDGE = "Attention in one minute: queries, keys, scores, softmax, heads and the causal mask"


def _tokens(count: int) -> str:
    return f"{count} token{'s' if count != 1 else ''}"


BRIDGE_WORDS = (
    f"The input embeddings go first into {define('attention')}. From each token's input embedding x "
    f"it makes a {define('query and key')}: q = x·W_q and k = x·W_k, with two matrices the model learns. "
    f"The {define('score')} of query i for key j is q·k/√dh, where dh is how many numbers q and k each "
    f"have (dividing by √dh keeps scores from growing with it). A {define('softmax')} is applied to "
    f"each row of scores: "
    f"its weights say how much token i takes from each token j. A model runs several "
    f"{define('head', 'heads')}. GPT also uses a {define('causal mask')}."
)


def attention_bridge(
    view: SentenceMaps,
    pieces: tuple[list[str], list[str]],
    causal: bool,
    words: bool = True,
    picture: bool = True,
    followed: tuple[str, int] | None = None,
) -> None:
    """What attention is, in a few sentences (``words``), and one query's row as its picture (``picture``;
    presenting, the two are slides of their own): the followed token's, in the sentence it was picked in
    (``followed``: "A" or "B" and its position there), else sentence A's token mid-sentence."""
    if words:
        st.markdown(BRIDGE_WORDS)
    if not picture:
        return
    label, query = followed or ("A", len(pieces[0]) // 2)  # mid-sentence: it sees some tokens, not the rest
    m, shown = (view.maps_a[view.method], pieces[0]) if label == "A" else (view.map_b, pieces[1])
    T = len(shown)
    hidden = T - visible_keys(m, query)
    if causal and hidden:
        seen = f"the causal mask hides the {_tokens(hidden)} after it"
    else:
        seen = "it sees every token" + (" (it is the last one)" if causal else " (the mask is off)")
    who = (
        f"sentence A's token {quoted(shown[query])} (position {query})"
        if followed is None
        else f"{quoted(shown[query])} (position {query} of {label}, the token you follow)"
    )
    st.markdown(
        f"Below, {who} as the query, with "
        f"{FAMILIES[view.method].label} and {view.head_label}: {seen}. The head's W_q and W_k are random "
        "(seeded), not trained, so the tokens' part of each score is arbitrary; what the positional method "
        "adds is exact."
    )
    labels = token_labels(shown)
    frame = query_row_frame(m, labels, query)
    for cell, chart in zip(st.columns(2), query_row_charts(frame, labels[query]), strict=True):
        cell.altair_chart(readable(chart), width="stretch")  # as tall as its keys need


def attention_bridge_expander() -> None:
    """The bridge's words, folded, for a page that speaks of queries, keys and scores, with a link to
    its picture on the student's own sentence (the Attention page's first section)."""
    with st.expander(f"New to attention? {BRIDGE}", icon=":material/school:"):
        st.markdown(BRIDGE_WORDS)
        st.page_link(
            "pages/Attention.py",
            label="See it on your own sentence: Attention, section 1",
            icon=":material/grid_on:",
        )


PAIRS_QUESTION = "attention_pairs"  # presenting, section 3's prediction; section 2's key fact waits for it


def pair_question(headline: PairHeadline, family: Family, view: SentenceMaps) -> bool:
    """Presenting, the A-and-B section's prediction, answerable by reasoning about the method; True once
    revealed (or when there is nothing to ask)."""
    kept, changed, pieces = headline.kept, headline.changed, headline.pieces
    if headline.silent:
        if not headline.causal or view.moved is None:
            return True
        piece = quoted(pieces[view.moved.token_id])
        question = f"With the causal mask, how many tokens (itself included) can {piece} see in B?"
        return predict_number(PAIRS_QUESTION, question, headline.seen[1], 0.5)
    if family.attention_bias is not None and changed is not None and family.name == "alibi":
        m = get_slopes(view.num_heads)[view.head]
        pair = f"{quoted(pieces[changed.query_a])} → {quoted(pieces[changed.key_a])}"
        question = (
            f"ALiBi's slope for {view.head_label} is m = {m:.4g}. What does it add to the score of {pair} "
            f"in A, {tokens_back(changed.a.distance)}?"
        )
        return predict_number(PAIRS_QUESTION, question, changed.a.term, 0.005)
    if kept is None:
        return True
    pair = f"{quoted(pieces[kept.query_a])} → {quoted(pieces[kept.key_a])}"
    question = (
        f"{pair} is {tokens_back(kept.a.distance)} in A and in B. Does {family.label} give this pair the "
        "same term in both? (yes or no)"
    )
    return predict_token(PAIRS_QUESTION, question, "yes" if kept.same_term else "no")


def weights_note(headline: PairHeadline, piece: str) -> str:
    """What moves the weights of A and B besides the method: the head's content scores and the mask.

    ``piece``: the moved token, quoted for Markdown.
    """
    a, b = headline.seen
    mask = (
        f"and the causal mask, which lets {piece} see {_tokens(a)} in A and {b} in B"
        if headline.causal
        else "and no mask (it is off here)"
    )
    return (
        "The weights in A and B differ for three reasons: the random head's scores of the tokens themselves, "
        f"what the method adds for position (the terms above), {mask}. Only the terms are the method's own."
    )
