"""The app's one seam for keeping things between runs: ``KEPT`` lists all a server process keeps (every
cache, here or elsewhere, and every module-level state a run leaves behind) with its bound and why;
``stats()`` counts each cache's hits and builds; ``clear()`` empties the caches made here.

Caches are keyed by their inputs, text included, so a session only ever gets back results for text it
sent itself. One mechanism, ``core.serving.lru.ByteLRU`` (one thread computes a result while the others
that ask for it wait), in two bounds: ``SHARED``, in bytes, with ``@SHARED.cached`` and ``kept_chart``;
``per_process(max_entries)``, in entries. Each goes by its qualified name, as in ``KEPT`` (a kept chart
by the function drawing it); ``tests/ui/test_cache_inventory.py`` fails on a cache or state in ``core/``
or ``ui/`` that ``KEPT`` misses, and on a name it lists in vain.

Charts are drawn through ``chart(build, frame, ...)``: a builder listed in ``TEMPLATED`` is built once
per shape and each call copies that template with its own data (``core.views.chart_specs``).
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import weakref
from collections.abc import Callable

import torch

from core.attention.charts import attention_heatmap
from core.config import FAMILIES, FamilyConfig, PipelineConfig
from core.embeddings import TableRows, TokenRows, TokenStream, is_exact, token_embedding_rows, token_stream
from core.pipeline import EmbeddingView, embedding_view, position_rows, shown_positions
from core.positional import rope_scaling_charts as rope
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
from core.views import charts
from core.views.chart_specs import MAX_TEMPLATES, Templates, same_data
from core.views.describe import bars_description, grid_description
from ui.server.memory import MIN_RESERVED_BYTES, reserve_for_run, reserved


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
    Kept("ui.server.cache._shown_position_rows", IN_SHARED, "one pass over T × d serves every view"),
    Kept("ui.server.cache._input_rows", IN_SHARED, "a family's input rows, for Families and Attention"),
    # The pages': each built once per setting it reads
    Kept("ui.pipeline.vocab_view._charts", "8 entries", "the vocab sweep's two charts, ~0.35 MB"),
    Kept("ui.attention.views._sentence_maps", IN_SHARED, "every family's random head on two sentences"),
    Kept("ui.attention.views.heatmap", IN_SHARED, "the page's 13 heatmaps, while their maps are kept"),
    Kept("ui.families.compare.logit_panel", "56 entries", "8 settings × 7 families, 70 kB each"),
    Kept("ui.families.compare.similarity_view", "15 entries", "5 settings × 3 families, < 0.5 MB each"),
    Kept("ui.families.compare.similarity_charts", IN_SHARED, "the curves, while their views are kept"),
    Kept("ui.families.close_up.table_heatmap", IN_SHARED, "the close-up, while its table is kept"),
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
    Kept("core.serving.costs._pieces", "1 entry", "BPE's split pattern, compiled once"),
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


def token_rows(cfg: PipelineConfig, needed: torch.Tensor) -> TokenRows:
    """Token-table rows covering ``needed`` [N]: an exact table's come from the seed's kept stream."""
    V, d = cfg.vocab_size, cfg.output_dim
    if _kept(needed, V, d):
        return _kept_rows(needed, V, d, cfg.seed)
    return token_embedding_rows(needed, V, d, cfg.seed)  # row-seeded, or too many rows to keep


def _kept(needed: torch.Tensor, vocab_size: int, dim: int) -> bool:
    """Whether ``token_rows`` takes ``needed``'s rows from the seed's kept stream (else it draws them)."""
    return is_exact(vocab_size, dim) and needed.numel() * dim <= CACHED_ROWS_MAX


def _position_table_rows(cfg: PipelineConfig, positions: torch.Tensor) -> TableRows:
    """Rows ``positions`` of the positional table for ``cfg.method`` (the exact state when learned)."""
    state = generator_state(cfg.vocab_size, cfg.output_dim, cfg.seed) if FAMILIES[cfg.method].seeded else None
    return position_rows(cfg, positions, state)


@SHARED.cached
def _shown_position_rows(cfg: PipelineConfig) -> TableRows:
    # One pass over the context×d draws serves every view of the page (the costly part at a large
    # context and d); a rerun for another batch size or stride reuses it.
    positions = shown_positions(cfg.context_length)
    streamed = FAMILIES[cfg.method].seeded and is_exact(cfg.context_length, cfg.output_dim)
    with reserved(table_rows_bytes(len(positions), cfg.output_dim, streamed), "drawing the position rows"):
        return _position_table_rows(cfg, positions)


def view(
    cfg: PipelineConfig,
    batch: Batch,
    batch_rows: torch.Tensor,
    positions: torch.Tensor,
    dims: torch.Tensor,
) -> EmbeddingView:
    """Real embedding values at the chosen batch rows, positions and dimensions.

    Positions in ``shown_positions`` share the page's one pass over the positional table; any other
    (a followed token's place) gets its own rows.
    """
    needed = batch.inputs[batch_rows][:, positions]  # [rows, positions]
    V, d = cfg.vocab_size, cfg.output_dim
    drawn = 0 if _kept(needed, V, d) else table_rows_bytes(needed.numel(), d, is_exact(V, d))
    with reserved(drawn, "drawing the token rows"):  # 13 MB at d 16,384 when the table is row-seeded
        tokens = token_rows(cfg, needed)
        pos_cfg = dataclasses.replace(cfg, batch_size=1, stride=1)
        if bool(torch.isin(positions, shown_positions(cfg.context_length)).all()):
            pos = _shown_position_rows(pos_cfg)
        else:
            pos = _position_rows_at(pos_cfg, torch.unique(positions))
        return embedding_view(batch, tokens, pos, batch_rows, positions, dims)


def _position_rows_at(cfg: PipelineConfig, positions: torch.Tensor) -> TableRows:
    """Rows ``positions`` [P] (sorted, unique) of the positional table, outside the page's shown ones."""
    streamed = FAMILIES[cfg.method].seeded and is_exact(cfg.context_length, cfg.output_dim)
    with reserved(table_rows_bytes(len(positions), cfg.output_dim, streamed), "drawing the position rows"):
        return _position_table_rows(cfg, positions)


def sentence_embeddings(
    texts: tuple[str, ...], cfg: PipelineConfig, num_positions: int
) -> tuple[list[torch.Tensor], torch.Tensor]:
    """Token embeddings of each text ([N_k, d] each) and positional rows [num_positions, d]."""
    ids = [torch.tensor(token_ids(text, cfg.vocab_size), dtype=torch.long) for text in texts]
    # The page's comparisons that follow hold a few float64 [N, d] copies until the run ends.
    reserve_for_run(
        why_bytes(max(map(len, ids)), cfg.output_dim), f"comparing the sentences at d = {cfg.output_dim:,}"
    )
    rows = token_rows(cfg, torch.cat(ids))
    return [rows.lookup(i) for i in ids], _position_table_rows(cfg, torch.arange(num_positions)).rows


def additive_rows(cfg: PipelineConfig, fam: FamilyConfig, positions: tuple[int, ...]) -> TableRows:
    """Rows of ``cfg.method``'s input table at ``positions``, with the Families page's settings.

    A learned table (initialised with ``fam.init``'s std) has rows only below the context length; the
    others are left out.
    """
    family = FAMILIES[cfg.method]
    own = FamilyConfig(**{p.key: getattr(fam, p.key) for p in family.params})  # the key: its settings only
    V, d, T = cfg.vocab_size, cfg.output_dim, cfg.context_length
    return _input_rows(cfg.method, V, d, T, cfg.seed, own, positions)


@SHARED.cached
def _input_rows(
    method: str, vocab_size: int, dim: int, T: int, seed: int, own: FamilyConfig, positions: tuple
) -> TableRows:
    family = FAMILIES[method]
    state = generator_state(vocab_size, dim, seed) if family.seeded else None
    index = torch.tensor(positions, dtype=torch.long)
    return family.input_rows(index, T, dim, seed, own, state)


@dataclasses.dataclass(frozen=True)
class _KeptChart:
    chart: object
    of: tuple[weakref.ref, ...]  # the kept objects (tensors, frames) it draws
    held_bytes: int  # its frame, that frame's Arrow bytes and its spec


def kept_chart(key: tuple, of: tuple[object, ...], build: Callable[[], tuple[object, int]]):
    """``build()``'s chart, kept in the shared cache while the objects ``of`` (kept tensors or frames,
    which it draws) live: a rerun that changes none of them draws the chart without building or
    converting it again (its spec is kept on it: ``core.views.chart_specs``).

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


def _lines_shape(frame, color, **_) -> tuple:
    """What ``line_chart`` reads from its data: points or not, the legend's rows."""
    return len(frame) <= 64, frame[color].nunique() if color else 0


def _at_most_64(frame, **_) -> tuple:
    return (len(frame) <= 64,)


@dataclasses.dataclass(frozen=True)
class Templated:
    """How ``chart`` templates a builder (``core.views.chart_specs.Templates.chart``): what it reads from
    its data (``shape``), the arguments it writes in as they are (``live``), and for those it computes
    from the data when given None, the same computation (``fill``)."""

    shape: Callable[..., object] | None = None
    live: tuple[str, ...] = ()
    fill: dict[str, Callable[..., object]] = dataclasses.field(default_factory=dict)


def _log_ends(frame, x, log_x, **_):
    return tuple(charts.log_domain(frame[x])) if log_x else None


def _line_said(frame, x, y, title, color, rule_at, rule_label, rule_format, **_):
    return charts.line_description(frame, x, y, title, color, rule_at, rule_label, rule_format)


_PER_DATA = Templated(same_data, ("description",))  # builders that read much from their values
# Every builder drawn through ``chart`` with a template; what they compute by default from the data is
# computed here by the same functions (tests/ui/test_cache_helpers.py draws each against its builder).
TEMPLATED: dict[Callable, Templated] = {
    charts.heatmap: Templated(
        live=("domain", "description"),
        fill={
            "domain": lambda frame, **_: charts.centred_domain(frame),
            "description": lambda frame, x, y, title, **_: grid_description(title, frame, x, y),
        },
    ),
    charts.line_chart: Templated(
        _lines_shape,
        ("rule_at", "x_domain", "description"),
        {"x_domain": _log_ends, "description": _line_said},
    ),
    charts.bar_chart: Templated(
        live=("description",),
        fill={"description": lambda frame, x, y, title, **_: bars_description(title, frame, x, y)},
    ),
    charts.path_chart: Templated(
        live=("description",),
        fill={
            "description": lambda frame, x, y, order, title, **_: charts.path_description(
                frame, x, y, order, title
            )
        },
    ),
    charts.method_panel: Templated(_at_most_64, ("rule_at", "x_domain", "note", "y_domain", "description")),
    attention_heatmap: Templated(live=("domain", "symlog", "description")),
    rope.wavelength_chart: _PER_DATA,
    rope.slowdown_chart: _PER_DATA,
    rope.score_chart: _PER_DATA,
    rope.attention_chart: _PER_DATA,
}


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
