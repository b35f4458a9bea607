"""The book's reference tables, built the way its code builds them, for the tests that compare the app's
numbers with them bit for bit.

The book seeds torch's global generator (``torch.manual_seed(123)``), then makes the token table and,
after it, the positional table from the same stream::

    token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
    pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)

so the positional table's values depend on the token table's size: both are always built, in this order.
"""

from __future__ import annotations

import torch

BOOK_SEED = 123  # the book's torch.manual_seed


def book_layers(
    vocab_size: int, output_dim: int, context_length: int, seed: int = BOOK_SEED
) -> tuple[torch.nn.Embedding, torch.nn.Embedding]:
    """The book's code, run as written (global seed, whole tables): its token and positional layers."""
    torch.manual_seed(seed)
    token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
    pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)
    return token_embedding_layer, pos_embedding_layer


def book_tables(
    vocab_size: int, output_dim: int, context_length: int, seed: int = BOOK_SEED
) -> tuple[torch.Tensor, torch.Tensor]:
    """The book's two tables, whole: token ``[vocab_size, output_dim]`` and positional ``[context_length,
    output_dim]``."""
    token, pos = book_layers(vocab_size, output_dim, context_length, seed)
    return token.weight.detach(), pos.weight.detach()
