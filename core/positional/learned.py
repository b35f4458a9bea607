"""Learned absolute positions (GPT-2): ``nn.Embedding(context_length, d)(torch.arange(T))``.

The table starts as N(0, 1) noise (torch's default init, as in the lesson) and is learned in
training. Its rows come from ``core.embeddings`` so that, like the lesson's code, they are drawn
from the same seeded generator right after the token embedding table.
"""

from core.embeddings import learned_position_rows

__all__ = ["learned_position_rows"]
