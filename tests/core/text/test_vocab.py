import random

import pytest

from core.text.samples import SAMPLES
from core.text.tokenizer import encode
from core.text.vocab import (
    SWEEP_BYTES,
    SWEEP_SIZES,
    swept_part,
    vocab_sweep,
)

TEXT = "I HAD always thought Jack Gisburn rather a cheap genius--though a good fellow enough. " * 20


def test_the_sweep_counts_the_tokens_each_cut_bpe_makes():
    points = vocab_sweep(TEXT)
    assert [p.vocab_size for p in points] == list(SWEEP_SIZES)
    for p in points:
        assert p.num_tokens == len(encode(TEXT, p.vocab_size))
    assert points[0].num_tokens == len(TEXT.encode("utf-8"))  # 257: one token per byte
    counts = [p.num_tokens for p in points]
    assert counts == sorted(counts, reverse=True) and counts[0] > 3 * counts[-1]


def test_the_sweep_reads_at_most_200_kb():
    long_text = "é" * (SWEEP_BYTES // 2 + 10)  # two bytes each
    assert len(swept_part(long_text).encode("utf-8")) == SWEEP_BYTES
    assert swept_part("tea") == "tea"
    odd = "a" + "é" * (SWEEP_BYTES // 2)  # the cut falls inside an é: it is dropped
    assert len(swept_part(odd).encode("utf-8")) == SWEEP_BYTES - 1


@pytest.mark.parametrize(
    "text",
    [
        "Tokens 'll split: 12345 ,.!? \n\n\t  spaces   end  \r\n",
        "日本語のテキストです。🙂🙂 é\u00a0ü <|endoftext|>next document<|endoftext|>",
        SAMPLES["log"][:6000],
        "".join(random.Random(0).choice("ab \n\t🙂é漢'sll12,.<|endoftext|>\u00a0") for _ in range(2000)),
    ],
)
def test_the_sweep_counts_without_cut_encodings_what_they_make(text):
    # vocab_sweep reads the counts off one run of the whole BPE per piece: the cut encodings
    # themselves must agree at every size, whitespace, emoji, CJK and <|endoftext|> included.
    counts = [p.num_tokens for p in vocab_sweep(text)]
    assert counts == [len(encode(text, size)) for size in SWEEP_SIZES]


CJK_RUN = "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后"


@pytest.mark.parametrize(
    "text",
    [
        CJK_RUN * 40,  # one piece of 5,520 bytes: letters with no space or punctuation between them
        "a" * 3000 + " " + "ab" * 1500,  # a run of one letter, then of one pair
        "🙂" * 700 + "x" * 300,  # pieces of 2,800 bytes of a 4-byte character, then letters
    ],
)
def test_a_long_piece_counts_what_the_cut_encodings_make(text):
    # A long piece merges through the heap.
    counts = [p.num_tokens for p in vocab_sweep(text)]
    assert counts == [len(encode(text, size)) for size in SWEEP_SIZES]


def test_the_longest_piece_a_text_may_have_is_swept_in_one_pass():
    # 55,333 CJK characters with nothing between them, the text box's cap in bytes (166 kB): one piece.
    # Scanning every pair at every merge (a first cut) took 5.7 s for 5,280 bytes, growing as the
    # square: ~1.5 h for this one, with a server core pinned. The heap merges it in under a second,
    # and its counts fall as V grows, from one token per byte at V = 257.
    from core.serving.budget import MAX_TEXT_BYTES

    text = (
        (CJK_RUN * (MAX_TEXT_BYTES // len(CJK_RUN.encode()) + 1)).encode()[: MAX_TEXT_BYTES // 3 * 3].decode()
    )
    counts = [p.num_tokens for p in vocab_sweep(text)]
    assert counts[0] == len(text.encode())
    assert counts[-1] == len(encode(text, SWEEP_SIZES[-1]))
    assert counts == sorted(counts, reverse=True)
