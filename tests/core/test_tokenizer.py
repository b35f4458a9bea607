import hashlib

import pytest
import tiktoken

from core import tokenizer
from core.tokenizer import ENDOFTEXT_ID, encode, gpt2_tokenizer, token_strings


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
