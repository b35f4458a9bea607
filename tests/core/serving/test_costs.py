"""``core.serving.costs``: the cost models' constants agree with what they model."""

from core.serving.costs import BYTES_VOCAB_SIZE
from core.text.tokenizer import MIN_VOCAB_SIZE


def test_the_bytes_only_vocabulary_is_the_tokenizers_smallest():
    assert BYTES_VOCAB_SIZE == MIN_VOCAB_SIZE
