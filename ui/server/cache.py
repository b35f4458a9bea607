"""The app's one seam for keeping things between runs: ``KEPT`` lists all a server process keeps (every
cache, here or elsewhere, and every module-level state a run leaves behind) with its bound and why;
``stats()`` counts each cache's hits and builds; ``clear()`` empties the caches made here.

Caches are keyed by their inputs, text included, so a session only ever gets back results for text it
sent itself. One mechanism, ``core.serving.lru.ByteLRU`` (one thread computes a result while the others
that ask for it wait), in two bounds: ``SHARED``, in bytes, with ``@SHARED.cached`` and ``kept_chart``;
``per_process(max_entries)``, in entries. Each goes by its qualified name, as in ``KEPT`` (a kept chart
by the function drawing it); ``tests/ui/server/test_cache_inventory.py`` fails on a cache or state in
``core/`` or ``ui/`` that ``KEPT`` misses, and on a name it lists in vain.

Charts are drawn through ``chart(build, frame, ...)``: a builder listed in
``ui.server.templated.TEMPLATED`` is built once per shape and each call copies that template with its
own data (``core.views.chart_specs``).
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import weakref
from collections.abc import Callable

import torch

from core.attention.sentences import AttentionSettings, SentenceMaps
from core.attention.sentences import sentence_maps as core_sentence_maps
from core.config import PipelineConfig
from core.embeddings import TableRows, TokenRows, TokenStream, is_exact, token_embedding_rows, token_stream
from core.pipeline import EmbeddingView, PipelineViews, position_rows, view_at
from core.pipeline import pipeline_views as core_pipeline_views
from core.positional.family import FAMILIES, FamilyConfig
from core.serving.budget import CACHE_BYTES
from core.serving.costs import (
    batch_bytes,
    sweep_bytes,
    table_rows_bytes,
    tokenize_bytes,
    why_bytes,
)
from core.serving.lru import ByteLRU, Counts
from core.serving.memory_governor import governor
from core.text.data import Batch, first_batch
from core.text.tokenizer import (
    GPT2_VOCAB_SIZE,
    drop_cut_encodings,
    encode,
    gpt2_tokenizer,
    longest_piece,
    tokenizer_vocab_size,
)
from core.text.vocab import SWEEP_BYTES, SweepPoint, cut_counts, swept_part, vocab_sweep
from core.views.chart_specs import MAX_TEMPLATES, Templates
from ui.server.memory import MIN_RESERVED_BYTES, reserve_for_run, reserved
from ui.server.templated import TEMPLATED


@dataclasses.dataclass(frozen=True)
class Kept:
    """What a server process keeps between runs (qualified name), its bound (entries or bytes), and why."""

    what: str
    bound: str
    why: str


IN_SHARED = "SHARED's bytes"  # bounded by the shared cache's budget (a kept chart: while what it draws is)
KEPT: tuple[Kept, ...] = (
    # The seam's own: the text's tokens and windows, the token table's rows, the chart templates
    Kept("ui.server.cache.SHARED", f"{CACHE_BYTES // 10**6} MB", "every session's tables and token lists"),
    Kept("ui.server.cache.TEMPLATES", f"{MAX_TEMPLATES} shapes", "a chart is built once per shape"),
    Kept("ui.server.cache.text_size", "2 entries", "a new text asks twice: tokenizing, the sweep"),
    Kept("ui.server.cache._token_ids", IN_SHARED, "every page tokenizes the same text"),
    Kept("ui.server.cache._word_counts", "8192 entries", "words recur; cheaper than a ByteLRU's wait"),
    Kept("ui.server.cache.vocab_sweep_of", IN_SHARED, "the text tokenized at a dozen vocab sizes"),
    Kept("ui.server.cache.batch_of", IN_SHARED, "the loader's first batch, ≤ 8.4 MB"),
    Kept("ui.server.cache._token_stream", IN_SHARED, "streaming a seed's vocab × d draws costs most"),
    Kept("ui.server.cache.generator_state", "8 entries", "a learned table starts after the token table"),
    Kept("ui.server.cache._input_rows", IN_SHARED, "a family's input rows, for Families and Attention"),
    # The pages': each built once per setting it reads
    Kept("ui.pipeline.vocab_view._charts", "8 entries", "the vocab sweep's two charts, ~0.35 MB"),
    Kept("ui.server.cache._sentence_maps", IN_SHARED, "every family's random head on two sentences"),
    Kept("ui.attention.heatmaps.heatmap", IN_SHARED, "the page's 13 heatmaps, while their maps are kept"),
    Kept(
        "ui.todays_models.on_sentence._head_shares", "32 entries", "3 numbers a sentence: no new projection"
    ),
    Kept("ui.families.compare.overview_frame", "16 entries", "the families' table, 7 short rows"),
    Kept("ui.families.compare.logit_panel", "56 entries", "8 settings × 7 families, 70 kB each"),
    Kept("ui.families.compare.similarity_view", "15 entries", "5 settings × 3 families, < 0.5 MB each"),
    Kept("ui.families.compare.similarity_charts", IN_SHARED, "the curves, while their views are kept"),
    Kept("ui.families.close_up.table_heatmap", IN_SHARED, "the close-up, while its table is kept"),
    Kept("ui.todays_models.views.masks_charts", "1 entry", "the page's fixed numbers, drawn by all"),
    Kept("ui.todays_models.views.temperature_chart", "1 entry", "the page's fixed numbers, drawn by all"),
    Kept("ui.todays_models.views.window_chart", "2 entries", "a screen's height and a slide's"),
    Kept("ui.todays_models.views.wavelengths_chart", "2 entries", "a screen's height and a slide's"),
    Kept("ui.todays_models.views.kept_scores_chart", "2 entries", "a screen's height and a slide's"),
    Kept("ui.long_context.views.view_of", "32 entries", "drawn at every rerun, ~10 kB a config"),
    Kept("ui.long_context.views.pairs_section", IN_SHARED, "its charts, while the view is kept"),
    Kept("ui.long_context.views.score_section", IN_SHARED, "its chart, while the view is kept"),
    Kept("ui.long_context.views.attention_section", IN_SHARED, "its chart, while the view is kept"),
    Kept("ui.long_context.views.measured_run", "1 entry", "the shipped measured run, read once"),
    Kept("ui.long_context.views.extrapolation_section", IN_SHARED, "its chart, while the run is kept"),
    Kept("ui.trained_positions.views.trained_table", "1 entry", "the shipped MiniLM table, read once"),
    Kept("ui.trained_positions.views.trained_figures", "1 entry", "the trained table's quoted figures"),
    Kept("ui.trained_positions.views.trained_curve", "1 entry", "its similarity at each distance"),
    Kept("ui.trained_positions.views.tables", "4 entries", "three 512 × 384 tables a seed"),
    Kept("ui.trained_positions.views._by_distance", "6 entries", "a table's curve, [512] float64"),
    Kept("ui.trained_positions.views._table_charts", "6 entries", "a new seed redraws one table's"),
    Kept("ui.trained_positions.views._distance_chart", "4 entries", "the three curves' chart, a seed"),
    Kept("ui.trained_positions.views.trained_pca", "1 entry", "the trained table's principal components"),
    # core's: files read once and what is built from them, shared by every caller
    Kept("core.text.tokenizer._gpt2_ranks", "1 entry", "GPT-2's merges, from the checked files"),
    Kept("core.text.tokenizer._gpt2_encoding", "1 entry", "GPT-2's BPE, built in the warm-up"),
    Kept("core.text.tokenizer._cut_encoding", "1 entry", "the cut size used last, ≤ 13 MB"),
    Kept("core.scripts.trained_positions.table_file", "1 entry", "the .npy offered beside the script"),
    Kept("core.text.tokenizer._pieces", "1 entry", "BPE's split pattern, compiled once"),
    Kept("core.serving.generator_jump._charpoly", "1 entry", "φ, read once"),
    Kept("core.serving.generator_jump._multiples", "1 entry", "φ's reduction table, 256 numbers"),
    Kept("core.serving.generator_jump._anchors", "1 entry", "the shipped jumps, 160 kB"),
    Kept("core.serving.generator_jump._anchor_steps", "64 entries", "one per shipped jump"),
    # State a run leaves for the next one: no cache (``clear()`` leaves it)
    Kept("ui.server.cache._CACHES", "one per cache", "what clear() empties and stats() reads"),
    Kept("core.positional.family.FAMILIES", "one per family", "each registers as it is imported"),
    Kept("core.serving.memory_governor._GOVERNOR", "1 object", "the reservations; what it may drop"),
    Kept("core.views.chart_specs._UNVALIDATED", "one per chart class", "a subclass drawn unvalidated"),
    Kept("ui.navigation._built", "1 tuple", "the pages' st.Page (finding files is slow)"),
    Kept("ui.server.first_imports._done", "1 flag", "the first imports are frozen once"),
    Kept("ui.server.runtime._first_runs", "one per page", "a page's first run is followed by a freeze"),
    Kept("ui.server.runtime._freeze_pending", "1 flag", "the next run's start freezes"),
    Kept("ui.server.runtime._last_full_collection", "1 time", "a full collection at most every 2 s"),
    Kept("ui.state.url_keys._REGISTERED", "one per URL key", "Copy link carries every setting"),
    Kept("ui.state.url_keys.BOUND_KEYS", "one per URL key", "url_bound refuses any other key"),
    Kept("ui.state.url_keys._SHOWN", "one per URL key", "what the app writes in the URL itself"),
    Kept("ui.training.views._QUEUE", "1 queue, 16 runs", "identical requests share one run"),
)

SHARED = ByteLRU(CACHE_BYTES)  # every session's tables, batches and token lists, least recently used out
TEMPLATES = Templates()  # chart templates, one per shape (core.views.chart_specs)
_CACHES: list[ByteLRU] = [SHARED]  # every ByteLRU made here (a list's append and copy are atomic)


def per_process(max_entries: int, dropped_when_short: bool = False):
    """Decorator: results kept once per server process by their arguments (hashable, compared by
    value), the least recently used dropped past ``max_entries``; ``.clear()`` drops them all, and so
    does ``clear()``. ``dropped_when_short``: also when memory is short or the server idle.

    A ``ByteLRU`` of its own keyed by the arguments themselves: a call costs a dict lookup (no recursive
    hash of a config). Counted under the function's qualified name (``stats()``), as ``KEPT`` lists it.
    """

    def decorate(fn):
        kept = ByteLRU(sys.maxsize, max_entries=max_entries)
        wrapper = kept.cached(fn)
        wrapper.clear, wrapper.max_entries = kept.clear, max_entries
        _CACHES.append(kept)
        if dropped_when_short:
            governor().add_memory_freer(kept.clear)
        return wrapper

    return decorate


def stats() -> dict[str, Counts]:
    """Hits and builds of every cache this process has made, by name (``KEPT``'s): since the process
    started, a ``functools`` cache's since it was last emptied (its ``cache_info``)."""
    found = {name: n for kept in list(_CACHES) for name, n in kept.counts().items()}
    for kept in KEPT:
        module, _, name = kept.what.rpartition(".")
        if hasattr(cached := getattr(sys.modules.get(module), name, None), "cache_info"):
            found[kept.what] = Counts(*cached.cache_info()[:2])  # its hits and misses
    return found


def counts(name: str) -> Counts:
    """``stats()[name]``, none before its first call; ``name`` must be listed in ``KEPT``."""
    if name not in {kept.what for kept in KEPT}:
        raise KeyError(f"{name} is not listed in ui.server.cache.KEPT")
    return stats().get(name, Counts())


def clear() -> None:
    """Empty every cache at this seam (the tests start from nothing with it)."""
    for kept in list(_CACHES):
        kept.clear()
    TEMPLATES.clear()
    _word_counts.cache_clear()
    drop_cut_encodings()


# What the memory governor may drop when the server's resident size leaves no room (all recomputable)
for _drop in (SHARED.clear, TEMPLATES.clear, drop_cut_encodings):
    governor().add_memory_freer(_drop)


def warm_tokenizer() -> None:
    """Build the GPT-2 encoding (once per server process: ``core.text.tokenizer`` keeps it)."""
    gpt2_tokenizer()


def token_ids(text: str, vocab_size: int = GPT2_VOCAB_SIZE) -> list[int]:
    """Token IDs of ``text`` from GPT-2's BPE cut to ``vocab_size`` (all < vocab_size)."""
    return _token_ids(text, tokenizer_vocab_size(vocab_size))  # one entry for every V ≥ 50,257


@per_process(max_entries=2)  # a new text asks twice (tokenizing, the sweep): ≤ 2 texts at the cap kept
def text_size(text: str) -> tuple[int, int]:
    """UTF-8 bytes of ``text`` and of its longest piece (BPE's unit), for the cost models."""
    return len(text.encode("utf-8")), longest_piece(text)


def tokenize_cost(text: str, n_vocab: int) -> int:
    """Predicted peak bytes of tokenizing ``text`` (0 for a text too short to be governed)."""
    if tokenize_bytes(4 * len(text), 4 * len(text), n_vocab) < MIN_RESERVED_BYTES:  # at most 4 bytes a char
        return 0
    return tokenize_bytes(*text_size(text), n_vocab)


@SHARED.cached
def _token_ids(text: str, n_vocab: int) -> list[int]:
    with reserved(tokenize_cost(text, n_vocab), "tokenizing your text"):
        return encode(text, n_vocab)


WORD_BYTES = 64  # pieces up to this long (words) are kept: 8,192 of them ≤ ~1.5 MB
_word_counts = functools.lru_cache(maxsize=8192)(cut_counts)


def _piece_counts(piece: bytes, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """``core.text.vocab.cut_counts``, words' kept (a long piece, a run of CJK say, is not)."""
    return _word_counts(piece, sizes) if len(piece) <= WORD_BYTES else cut_counts(piece, sizes)


@SHARED.cached
def vocab_sweep_of(text: str) -> list[SweepPoint]:
    """Token counts of the text's first 200 kB at a dozen vocab sizes, once per text."""
    part = swept_part(text) if len(text) * 4 > SWEEP_BYTES else text
    with reserved(sweep_bytes(*text_size(part)), "counting your text's tokens at a dozen vocab sizes"):
        return vocab_sweep(text, piece_counts=_piece_counts)


def swept_token_count(text: str, vocab_size: int) -> tuple[int, bool]:
    """Tokens of the text's swept part at ``vocab_size``, and whether that part is the whole text."""
    if len(text) * 4 <= SWEEP_BYTES or len(text.encode("utf-8")) <= SWEEP_BYTES:
        return len(token_ids(text, vocab_size)), True
    return len(token_ids(swept_part(text), vocab_size)), False


@SHARED.cached
def batch_of(text: str, batch_size: int, max_length: int, stride: int, vocab_size: int) -> Batch:
    """The loader's first batch, partial when the text makes fewer windows (drop_last=False).

    Raises ``ValueError`` with what to change (``TextTooShort``: no window); ≤ 8.4 MB at B 128, T 8192.
    """
    ids = token_ids(text, vocab_size)
    with reserved(batch_bytes(batch_size, max_length, stride, len(ids)), "cutting your text into windows"):
        return first_batch(ids, batch_size, max_length, stride, drop_last=False)


CACHED_ROWS_MAX = 2**21  # token rows × d kept per seed (8 MB)


def _kept_rows(needed: torch.Tensor, vocab_size: int, dim: int, seed: int) -> TokenRows:
    """Rows of ``needed`` [N] from the seed's kept stream (exact tables): only rows no view has asked
    for yet are drawn, and a rerun for another context or batch size mostly looks them up."""
    index = torch.unique(needed)  # [U]
    stream = _token_stream(vocab_size, dim, seed, index)
    return TokenRows(index, stream.drawn.lookup(index), True, stream.state_after)


def _token_stream(vocab_size: int, dim: int, seed: int, ids: torch.Tensor) -> TokenStream:
    """The seed's exact token table as kept: its stream's saved states and rows, with ``ids`` [N] drawn.

    Streaming the vocab×d draws is the costly part: once per seed, through the last row asked for
    then, and the rest jumped over (``core.serving.generator_jump``), which is cheaper than drawing
    it. Rows asked for later (another text, batch or context) are drawn from the nearest saved
    state, their stretches of the stream only. Shared between sessions: callers only read it.
    """

    drew = []  # this call drew rows (counted: ``stats()``)

    def draw(found: bool, stream: TokenStream | None) -> TokenStream:
        drew.append(True)
        with reserved(
            table_rows_bytes(len(torch.unique(ids)), dim, streamed=True), "drawing the token table's rows"
        ):
            return (
                stream.with_rows(ids, CACHED_ROWS_MAX) if found else token_stream(ids, vocab_size, dim, seed)
            )

    def has_rows(stream: TokenStream) -> bool:
        return not len(stream.missing(ids))

    stream = SHARED.kept_or_computed(("token_stream", vocab_size, dim, seed), draw, has_rows)
    SHARED.count(f"{__name__}._token_stream", bool(drew))
    return stream


@per_process(max_entries=8)
def generator_state(vocab_size: int, dim: int, seed: int) -> torch.Tensor | None:
    """The generator's state after ``manual_seed(seed); nn.Embedding(vocab, d)``; None when row-seeded."""
    if not is_exact(vocab_size, dim):
        return None
    return _token_stream(vocab_size, dim, seed, torch.empty(0, dtype=torch.long)).state_after  # kept


def _kept(needed: torch.Tensor, vocab_size: int, dim: int) -> bool:
    """Whether ``needed``'s rows come from the seed's kept stream (else they are drawn)."""
    return is_exact(vocab_size, dim) and needed.numel() * dim <= CACHED_ROWS_MAX


@dataclasses.dataclass(frozen=True)
class KeptRows:
    """``core.pipeline.Rows`` from what this server keeps, for one seed's V × d token table: token rows
    from the seed's kept stream (exact tables), a family's input rows by the positions asked for.

    Made here and passed into ``core``, so the lesson's computation asks for rows without reaching back
    up; each draw reserves its predicted bytes first.
    """

    vocab_size: int  # V
    dim: int  # d
    seed: int

    def token_rows(self, needed: torch.Tensor) -> TokenRows:
        V, d = self.vocab_size, self.dim
        if _kept(needed, V, d):
            return _kept_rows(needed, V, d, self.seed)
        # Row-seeded, or too many rows to keep: 13 MB at d 16,384 when the table is row-seeded.
        with reserved(table_rows_bytes(needed.numel(), d, is_exact(V, d)), "drawing the token rows"):
            return token_embedding_rows(needed, V, d, self.seed)

    def input_rows(
        self, method: str, positions: torch.Tensor, context_length: int, fam: FamilyConfig
    ) -> TableRows:
        own = FamilyConfig(**{p.key: getattr(fam, p.key) for p in FAMILIES[method].params})  # its own only
        at = tuple(positions.tolist())
        return _input_rows(method, self.vocab_size, self.dim, context_length, self.seed, own, at)


def kept_rows(cfg: PipelineConfig) -> KeptRows:
    """The rows this server keeps for ``cfg``'s token table (V, d and the seed)."""
    return KeptRows(cfg.vocab_size, cfg.output_dim, cfg.seed)


@SHARED.cached
def _input_rows(
    method: str, vocab_size: int, dim: int, T: int, seed: int, own: FamilyConfig, positions: tuple
) -> TableRows:
    # Kept by the positions asked for: the Pipeline's shown positions are one pass over the context×d
    # draws that every rerun for another batch size or stride reuses.
    family = FAMILIES[method]
    streamed = family.seeded and is_exact(T, dim)
    with reserved(table_rows_bytes(len(positions), dim, streamed), "drawing the position rows"):
        state = generator_state(vocab_size, dim, seed) if family.seeded else None
        return family.input_rows(torch.tensor(positions, dtype=torch.long), T, dim, seed, own, state)


def view(
    cfg: PipelineConfig,
    batch: Batch,
    batch_rows: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
) -> EmbeddingView:
    """Real embedding values at the chosen batch rows, positions and dims (``core.pipeline.view_at``)."""
    return view_at(cfg, batch, batch_rows, positions, dims, kept_rows(cfg))


def pipeline_views(cfg: PipelineConfig, batch: Batch, seq: int) -> PipelineViews:
    """The Pipeline's values for sequence ``seq`` (``core.pipeline.pipeline_views``), from the rows kept."""
    return core_pipeline_views(cfg, batch, seq, kept_rows(cfg))


def sentence_embeddings(
    texts: tuple[str, ...], cfg: PipelineConfig, num_positions: int
) -> tuple[list[torch.Tensor], torch.Tensor]:
    """Token embeddings of each text ([N_k, d] each) and positional rows [num_positions, d]."""
    ids = [torch.tensor(token_ids(text, cfg.vocab_size), dtype=torch.long) for text in texts]
    _reserve_comparison(max(map(len, ids)), cfg.output_dim)
    rows = kept_rows(cfg)
    tokens = rows.token_rows(torch.cat(ids))
    return [tokens.lookup(i) for i in ids], position_rows(cfg, torch.arange(num_positions), rows).rows


def sentence_maps(texts: tuple[str, str], cfg: PipelineConfig, settings: AttentionSettings) -> SentenceMaps:
    """The Attention page's maps of ``texts`` (``core.attention.sentences.sentence_maps``), kept per the
    settings they read: a new batch size or stride (which no map reads) finds them."""
    unread = {"batch_size": PipelineConfig.batch_size, "stride": PipelineConfig.stride}
    return _sentence_maps(texts, dataclasses.replace(cfg, **unread), settings)


@SHARED.cached
def _sentence_maps(texts: tuple[str, str], cfg: PipelineConfig, settings: AttentionSettings) -> SentenceMaps:
    ids = (token_ids(texts[0], cfg.vocab_size), token_ids(texts[1], cfg.vocab_size))
    _reserve_comparison(max(map(len, ids)), cfg.output_dim)
    return core_sentence_maps(ids, cfg, settings, kept_rows(cfg))


def _reserve_comparison(num_tokens: int, dim: int) -> None:
    """Reserve, until the run ends, what comparing two sentences of ``num_tokens`` at ``dim`` holds: the
    page's comparisons keep a few float64 [N, d] copies."""
    reserve_for_run(why_bytes(num_tokens, dim), f"comparing the sentences at d = {dim:,}")


def additive_rows(cfg: PipelineConfig, fam: FamilyConfig, positions: tuple[int, ...]) -> TableRows:
    """Rows of ``cfg.method``'s input table at ``positions``, with the Families page's settings.

    A learned table (initialised with ``fam.init``'s std) has rows only below the context length; the
    others are left out.
    """
    return kept_rows(cfg).input_rows(cfg.method, torch.tensor(positions), cfg.context_length, fam)


@dataclasses.dataclass(frozen=True)
class _KeptChart:
    chart: object
    of: tuple[weakref.ref, ...]  # the kept objects (tensors, frames) it draws
    held_bytes: int  # its frame, that frame's Arrow bytes and its spec


def kept_chart(key: tuple, of: tuple[object, ...], build: Callable[[], tuple[object, int]]):
    """``build()``'s chart, kept in the shared cache while the objects ``of`` (kept tensors or frames,
    which it draws) live: a rerun that changes none of them draws the chart without building or
    converting it again (its spec is kept on it: ``core.views.browser_spec``).

    ``build() -> (chart, bytes of its frame)``, defined in the function that draws it (``KEPT``'s name
    for it); ``key``: whatever else the chart reads (title, height…).
    """
    name = f"{build.__module__}.{build.__qualname__.partition('.<locals>')[0]}"  # the function drawing it
    full = (name, *map(id, of), *key)
    found, kept = SHARED.get(full)
    if found and all(ref() is obj for ref, obj in zip(kept.of, of, strict=True)):
        SHARED.count(name, built=False)
        return kept.chart
    chart, frame_bytes = build()
    SHARED.count(name, built=True)
    held = 4 * frame_bytes + 10_000  # the frame, its Arrow bytes and copies in between; the spec's text
    SHARED.put(full, _KeptChart(chart, tuple(weakref.ref(obj) for obj in of), held))
    return chart


def chart(build: Callable[..., object], frame, *args, **kwargs):
    """``build(frame, *args, **kwargs)``'s chart: for a builder in ``TEMPLATED``, a copy of the template
    for its shape holding this call's data and live values (neither built nor converted again); any
    other builder is called as it is."""
    how = TEMPLATED.get(build)
    if how is None:
        return build(frame, *args, **kwargs)
    return TEMPLATES.chart(build, frame, args, kwargs, shape=how.shape, live=how.live, fill=how.fill)


def drawing(build: Callable[..., object]) -> Callable[..., object]:
    """``build`` drawn through ``chart``: for the ``draw`` argument of ``core.views.charts``' composite
    charts (the loss curves, the vocab charts…)."""
    return functools.partial(chart, build)
