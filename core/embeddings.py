"""Embedding-table values without allocating the table.

``torch.manual_seed(seed); nn.Embedding(vocab, d)`` fills a ``vocab × d`` table with N(0, 1)
draws, but a batch only looks up a few hundred rows of it. At the GPT-3 setting
(50257 × 12288) the table is 2.47 GB. Two ways to get rows without it:

* **exact** (``vocab × d ≤ EXACT_MAX_ELEMENTS``): stream the same draws through a small
  buffer and keep only the rows asked for. ``Tensor.normal_`` fills all uniforms first,
  then transforms them 16 at a time (and redraws the last 16 when the size is not a
  multiple of 16), so buffers whose sizes are multiples of 16 give bit-identical values.
* **row-seeded** (larger tables): every row has its own generator, seeded from
  ``(seed, row)``; same distribution, different values from a bulk init. The UI says so.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import torch

from core.serving.generator_jump import state_after_draws

EXACT_MAX_ELEMENTS = 2**25  # 128 MB of fp32: the largest table streamed within a page run
STREAM_CHUNK_ELEMENTS = 2**20  # streaming buffer: 4 MB, a multiple of 16
POSITION_STREAM = 0x5EED_9051  # separates the row-seeded positional table from token rows


def is_exact(vocab_size: int, dim: int) -> bool:
    """True when rows are streamed bit-identical to a bulk ``nn.Embedding(vocab_size, dim)``."""
    return vocab_size * dim <= EXACT_MAX_ELEMENTS


def same_prefix(short_rows: int, long_rows: int, dim: int) -> bool:
    """Whether ``normal_`` on [short_rows, d] gives the first rows of ``normal_`` on [long_rows, d].

    Below 16 values torch uses another algorithm; otherwise it redraws the last 16 values when the
    size is not a multiple of 16. So the short table must be a multiple of 16 (and ≥ 16), and the
    long table's redrawn tail, if any, must lie past the short one.
    """
    short, long = short_rows * dim, long_rows * dim
    if short < 16 or short % 16 or long < 16:
        return False
    return long % 16 == 0 or long - 16 >= short


def draw_normal_rows(
    generator: torch.Generator,
    num_rows: int,
    dim: int,
    keep: torch.Tensor,
    chunk_elements: int | None = None,
    states: list[torch.Tensor] | None = None,
) -> torch.Tensor:
    """Rows ``keep`` of ``torch.empty(num_rows, dim).normal_(generator=generator)``, streamed.

    Args:
        generator: advanced exactly as the bulk call would advance it.
        num_rows, dim: the shape of the table that is never allocated.
        keep: [K] sorted, unique row indices in ``[0, num_rows)``.
        chunk_elements: the buffer's size, a multiple of 16 (``STREAM_CHUNK_ELEMENTS`` if None).
        states: when given, the generator's state before each chunk is appended to it (chunk ``k``
            starts at element ``k * chunk_elements``): ``resume_normal_rows`` draws from them.
    Returns:
        [K, dim] float32 rows, bit-identical to the bulk table's.
    """
    chunk_elements = chunk_elements or STREAM_CHUNK_ELEMENTS
    out = torch.empty(len(keep), dim)  # [K, d]
    n = num_rows * dim
    if dim % 16 == 0 and chunk_elements % 16 == 0:  # rows are whole blocks: drawn alone (``_draw_runs``)
        _draw_runs(generator, keep.tolist(), dim, out.view(-1), 0, 0, n, states, chunk_elements)
        return out
    buf = torch.empty(min(n, chunk_elements + 16))
    row_starts = keep * dim  # [K] flat offset of each kept row
    start = 0
    while start < n:
        stop = _chunk_stop(start, n, chunk_elements)
        if states is not None:
            states.append(generator.get_state())
        chunk = buf[: stop - start].normal_(generator=generator)
        _copy_rows(out, row_starts, dim, chunk, start, stop)
        start = stop
    return out


def _draw_runs(
    generator: torch.Generator,
    rows: list[int],
    dim: int,
    flat: torch.Tensor,
    pos: int,
    first_out: int,
    stop: int | None = None,
    states: list[torch.Tensor] | None = None,
    every: int = 0,
) -> None:
    """Draw a ``[num_rows, dim]`` table's stream from value ``pos`` (the generator's place) through the
    last of ``rows`` (sorted, from ``pos // dim`` on), or to ``stop``; row ``rows[i]`` goes to
    ``flat`` [K·d] as output row ``first_out + i``. ``dim`` and ``pos`` are multiples of 16.

    Each run of consecutive rows is whole blocks of 16 values, which ``normal_`` transforms alone, so it
    is drawn straight into the output; the values between are skipped with a byte tensor's ``random_``,
    which advances the generator exactly as ``normal_`` does (one 32-bit draw a value: ``normal_`` draws
    all its uniforms before it transforms them) at a fraction of its cost. With ``states``, the
    generator's state is saved at every multiple of ``every``.
    """
    last = max(stop or 0, (rows[-1] + 1) * dim if rows else 0)  # the stream's end here
    scratch = torch.empty(max(0, min(STREAM_CHUNK_ELEMENTS, last - pos)), dtype=torch.uint8)  # skipped
    next_state = pos

    def draw(end: int, into: int | None = None) -> None:
        nonlocal pos, next_state
        while pos < end:
            part = end
            if states is not None:
                if pos == next_state:
                    states.append(generator.get_state())
                    next_state += every
                part = min(part, next_state)
            if into is None:
                part = min(part, pos + len(scratch))
                scratch[: part - pos].random_(generator=generator)
            else:
                flat[into : into + part - pos].normal_(generator=generator)
                into += part - pos
            pos = part

    k = 0
    while k < len(rows):
        j = k  # rows[k..j]: one run of consecutive rows
        while j + 1 < len(rows) and rows[j + 1] == rows[j] + 1:
            j += 1
        draw(rows[k] * dim)
        draw((rows[j] + 1) * dim, into=(first_out + k) * dim)
        k = j + 1
    if stop is not None:
        draw(stop)


def _chunk_stop(start: int, n: int, chunk_elements: int) -> int:
    """Where the chunk from ``start`` ends: the bulk call redraws its last 16 values, so a tail shorter
    than 16 joins the chunk before it (``normal_`` uses another algorithm below 16 values)."""
    stop = min(n, start + chunk_elements)
    return n if n - stop < 16 else stop


def _copy_rows(
    out: torch.Tensor, row_starts: torch.Tensor, dim: int, chunk: torch.Tensor, start: int, stop: int
) -> None:
    """Copy into ``out`` [K, d] the parts of the kept rows (flat offsets ``row_starts`` [K]) that lie in
    the drawn ``chunk``, the table's elements ``[start, stop)``."""
    first = int(torch.searchsorted(row_starts, start - dim, right=True))
    last = int(torch.searchsorted(row_starts, stop, right=False))
    for k in range(first, last):  # rows overlapping [start, stop)
        lo, hi = int(row_starts[k]), int(row_starts[k]) + dim
        a, b = max(lo, start), min(hi, stop)
        out[k, a - lo : b - lo] = chunk[a - start : b - start]


def resume_normal_rows(
    states: tuple[torch.Tensor, ...], chunk_elements: int, num_rows: int, dim: int, keep: torch.Tensor
) -> torch.Tensor:
    """``draw_normal_rows``'s rows ``keep`` [K], drawing only the chunks they lie in.

    Args:
        states: the generator's states before each chunk, as ``draw_normal_rows(..., states=[])``
            saved them with the same ``chunk_elements``.
    Returns:
        [K, dim] float32 rows, bit-identical to the bulk table's.
    """
    out = torch.empty(len(keep), dim)  # [K, d]
    n = num_rows * dim
    if dim % 16 == 0 and chunk_elements % 16 == 0:  # from each saved state, through its rows only
        rows, g = keep.tolist(), torch.Generator()
        k = 0
        while k < len(rows):
            c = rows[k] * dim // chunk_elements  # the rows starting in chunk c, drawn from its state
            j = k
            while j + 1 < len(rows) and rows[j + 1] * dim // chunk_elements == c:
                j += 1
            g.set_state(states[c])
            _draw_runs(g, rows[k : j + 1], dim, out.view(-1), c * chunk_elements, k)
            k = j + 1
        return out
    row_starts = keep * dim  # [K]
    first_chunks = torch.div(row_starts, chunk_elements, rounding_mode="floor")  # [K]
    last_chunks = torch.div(row_starts + dim - 1, chunk_elements, rounding_mode="floor")  # [K]
    # A tail joined to the chunk before it (``_chunk_stop``) has no state of its own: clamped.
    chunks = torch.cat([first_chunks, last_chunks]).clamp(max=len(states) - 1)  # [2K]
    g = torch.Generator()
    for c in torch.unique(chunks).tolist():
        start = c * chunk_elements
        stop = _chunk_stop(start, n, chunk_elements)
        g.set_state(states[c])
        chunk = torch.empty(stop - start).normal_(generator=g)
        _copy_rows(out, row_starts, dim, chunk, start, stop)
    return out


def _row_seed(seed: int, row: int, stream: int = 0) -> int:
    """A 63-bit seed for one row (splitmix64 of seed, stream and row)."""
    x = (seed * 0x9E3779B97F4A7C15 + row * 0xBF58476D1CE4E5B9 + stream) & (2**64 - 1)
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return (x ^ (x >> 31)) >> 1


def row_seeded_rows(rows: torch.Tensor, dim: int, seed: int) -> torch.Tensor:
    """N(0, 1) rows, each from its own generator seeded by ``(seed, row)``: [K] → [K, dim]."""
    out = torch.empty(len(rows), dim)  # [K, d]
    g = torch.Generator()
    for k, row in enumerate(rows.tolist()):
        g.manual_seed(_row_seed(seed, row))
        out[k].normal_(generator=g)
    return out


@dataclass(frozen=True)
class TableRows:
    """Some rows of an embedding table that is never allocated whole."""

    index: torch.Tensor  # [U] sorted unique row indices (token IDs or positions)
    rows: torch.Tensor  # [U, d] their vectors

    def lookup(self, ids: torch.Tensor) -> torch.Tensor:
        """Embedding lookup: ids [...] → [..., d], as ``embedding_layer(ids)``; ids must be held."""
        return self.rows[torch.searchsorted(self.index, ids)]  # [..., d]


@dataclass(frozen=True)
class TokenRows(TableRows):
    """The rows of the token embedding table that a text uses."""

    exact: bool  # bit-identical to torch.manual_seed(seed); nn.Embedding(vocab, d)
    state_after: torch.Tensor | None  # generator state after the whole table (exact only)


CHECKPOINTS = 64  # generator states kept per exact table (5 kB each): a new text draws only its new rows
MIN_CHECKPOINT_ELEMENTS = 4096  # no closer than this: a small table is one chunk


def checkpoint_elements(num_rows: int, dim: int) -> int:
    """Elements between two saved generator states of a ``num_rows × dim`` table: a multiple of 16."""
    every = max(MIN_CHECKPOINT_ELEMENTS, -(-num_rows * dim // CHECKPOINTS))
    return -(-every // 16) * 16


@dataclass(frozen=True)
class TokenStream:
    """What is cheap to keep of one seed's exact token table: states along its stream, rows drawn.

    The table (51 MB at the book's 50,257 × 256) is too big to keep per seed; the generator's state
    every ``every`` elements (up to 64 × 5 kB) and the rows drawn so far are not. A new text with the
    same seed draws only its new token IDs' stretches of the stream from the nearest saved state.

    When rows are whole 16-value blocks the stream ends at its last kept row, and ``state_after`` is
    jumped to (``core.serving.generator_jump``): ``states`` then reach only that far, and rows past them draw
    the states they need first, once.
    """

    num_rows: int  # V
    dim: int  # d
    every: int  # elements between two saved states
    states: tuple[torch.Tensor, ...]  # the generator's state at elements 0, every, 2·every, … (so far)
    state_after: torch.Tensor  # after the whole table: where nn.Embedding(context, d) starts
    drawn: TableRows  # the rows drawn so far

    def missing(self, ids: torch.Tensor) -> torch.Tensor:
        """The unique IDs of ``ids`` [N] whose rows are not drawn yet: [M] sorted."""
        unique = torch.unique(ids.flatten())  # [U]
        return unique[~torch.isin(unique, self.drawn.index)]

    def with_rows(self, ids: torch.Tensor, max_elements: int | None = None) -> TokenStream:
        """This stream with the rows of ``ids`` [N] drawn too (only their chunks of the stream).

        ``max_elements``: past this many drawn values, the rows kept are those of ``ids`` alone.
        """
        new = self.missing(ids)
        if not len(new):
            return self
        states = self.states
        if self.dim % 16 == 0:  # the stream may have ended at its last kept row (``token_stream``)
            states = _states_through(states, self.every, int(new[-1]) * self.dim // self.every)
        rows = resume_normal_rows(states, self.every, self.num_rows, self.dim, new)  # [M, d]
        index = torch.cat([self.drawn.index, new])  # [U + M]
        values = torch.cat([self.drawn.rows, rows])  # [U + M, d]
        if max_elements is not None and values.numel() > max_elements:
            keep = torch.isin(index, torch.unique(ids.flatten()))  # [U + M]
            index, values = index[keep], values[keep]
        order = torch.argsort(index)
        return dataclasses.replace(self, states=states, drawn=TableRows(index[order], values[order]))


def _states_through(states: tuple[torch.Tensor, ...], every: int, chunk: int) -> tuple[torch.Tensor, ...]:
    """``states`` (the generator's state every ``every`` values), through the one at chunk ``chunk``:
    the missing ones drawn on from the last (a byte's ``random_`` advances it a draw a value)."""
    if chunk < len(states):
        return states
    g, more = torch.Generator(), list(states)
    g.set_state(states[-1])
    skipped = torch.empty(every, dtype=torch.uint8)
    while len(more) <= chunk:
        skipped.random_(generator=g)
        more.append(g.get_state())
    return tuple(more)


def token_stream(token_ids: torch.Tensor, vocab_size: int, dim: int, seed: int) -> TokenStream:
    """One pass over ``manual_seed(seed); nn.Embedding(vocab_size, dim)``'s draws (exact tables only).

    Args:
        token_ids: [N] token IDs whose rows are kept.
    Returns:
        The stream's saved states, the state after it and the rows of the unique IDs.
    """
    unique = torch.unique(token_ids.flatten())  # [U], sorted
    if len(unique) and int(unique[-1]) >= vocab_size:
        raise ValueError(f"Token ID {int(unique[-1])} is not a row of a table with vocab size {vocab_size}.")
    every, states = checkpoint_elements(vocab_size, dim), []
    g = torch.Generator().manual_seed(seed)
    if dim % 16 == 0:  # whole blocks: the table makes V·d draws, jumped over past the last kept row
        rows = torch.empty(len(unique), dim)  # [U, d]
        _draw_runs(g, unique.tolist(), dim, rows.view(-1), 0, 0, None, states, every)
        states = states or [g.get_state()]  # no row kept: the state at the table's start
        after = state_after_draws(seed, vocab_size * dim)
    else:
        rows = draw_normal_rows(g, vocab_size, dim, unique, every, states)  # [U, d]
        after = g.get_state()
    return TokenStream(vocab_size, dim, every, tuple(states), after, TableRows(unique, rows))


def token_embedding_rows(token_ids: torch.Tensor, vocab_size: int, dim: int, seed: int) -> TokenRows:
    """Rows of ``nn.Embedding(vocab_size, dim)`` (after ``manual_seed(seed)``) for ``token_ids``.

    Args:
        token_ids: [N] any token IDs, each in ``[0, vocab_size)``.
    Returns:
        ``TokenRows`` for the unique IDs.
    """
    unique = torch.unique(token_ids.flatten())  # [U], sorted
    if len(unique) and int(unique[-1]) >= vocab_size:
        raise ValueError(f"Token ID {int(unique[-1])} is not a row of a table with vocab size {vocab_size}.")
    if is_exact(vocab_size, dim):
        stream = token_stream(unique, vocab_size, dim, seed)
        return TokenRows(unique, stream.drawn.rows, True, stream.state_after)
    return TokenRows(unique, row_seeded_rows(unique, dim, seed), False, None)


def learned_position_rows(
    positions: torch.Tensor, context_length: int, dim: int, seed: int, state_after: torch.Tensor | None
) -> torch.Tensor:
    """Rows ``positions`` of ``nn.Embedding(context_length, dim)`` created after the token table.

    Args:
        positions: [P] sorted unique positions in ``[0, context_length)``.
        state_after: ``TokenRows.state_after``; ``None`` for a row-seeded token table.
    Returns:
        [P, d]: exact when ``state_after`` is given, else from a seeded stream of its own.
    """
    g = torch.Generator()
    if state_after is not None:
        g.set_state(state_after)
    else:
        g.manual_seed(_row_seed(seed, 0, POSITION_STREAM))
    return draw_normal_rows(g, context_length, dim, positions)
