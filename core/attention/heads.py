"""The query and key projections of one attention head: seeded random, or a trained tiny GPT's.

A head maps each input vector [d] to a query and a key [dh] (dh = d / H). The page's default head
draws ``W_q`` and ``W_k`` at random, N(0, 1/d) so that q and k have entries of about unit size for
N(0, 1) token embeddings; no bias, no layer norm. A trained tiny GPT's head is its first block's:
layer norm, then the fused ``qkv`` projection (``core.training.model.CausalSelfAttention``).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch.nn import functional as F

from core.positional.family import FAMILIES, seeded_normal
from core.training.model import SIZES, GPTConfig

PROJECTION_STREAM = 100  # W_q of head h is stream 100 + 2h, W_k 101 + 2h (``seeded_normal``)
EXACT_MAX_ELEMENTS = 2**22  # d·dh of a matrix drawn whole (16 MB of float32); past it, in blocks of rows
BLOCK_ELEMENTS = 2**20  # values of one block of rows (4 MB of float32)


@dataclass(frozen=True)
class RandomHead:
    """Head ``head`` of ``num_heads``: seeded ``W_q``, ``W_k`` [d, dh], N(0, 1/d); x ↦ (x W_q, x W_k)."""

    dim: int  # d
    num_heads: int  # H; the head dim is d / H
    head: int  # h, 0-based
    seed: int

    def __post_init__(self):
        if self.dim % self.num_heads:
            raise ValueError(f"The embedding dim {self.dim} does not split into {self.num_heads} heads.")
        if not 0 <= self.head < self.num_heads:
            raise ValueError(f"Head {self.head + 1} does not exist: there are {self.num_heads} heads.")

    @property
    def head_dim(self) -> int:
        return self.dim // self.num_heads

    @property
    def exact(self) -> bool:
        """Whether ``W`` is one ``torch.randn(d, dh)`` draw (else each block of rows has its own)."""
        return self.dim * self.head_dim <= EXACT_MAX_ELEMENTS

    def stream(self, which: str) -> int:
        """The seed stream of ``W_q`` (``which`` = "q") or ``W_k`` ("k")."""
        return PROJECTION_STREAM + 2 * self.head + (which == "k")

    def matrix(self, which: str) -> torch.Tensor:
        """``W_q`` or ``W_k`` whole: [d, dh] float32, ``torch.randn(d, dh) · d^-1/2`` (exact heads only)."""
        if not self.exact:
            raise ValueError(f"W of {self.dim:,} × {self.head_dim:,} is drawn in blocks, never whole.")
        return seeded_normal((self.dim, self.head_dim), self.dim**-0.5, self.seed, self.stream(which))

    def blocks(self, which: str):
        """A matrix too large to draw whole, in blocks of rows: (first row, [r, dh] float32) pairs.

        Block b has a generator of its own (stream ``stream(which) + 1000·(b + 1)``), so the values
        differ from one ``torch.randn(d, dh)`` draw, as a row-seeded token table's do.
        """
        rows = max(1, BLOCK_ELEMENTS // self.head_dim)
        for b, start in enumerate(range(0, self.dim, rows)):
            shape = (min(rows, self.dim - start), self.head_dim)
            yield start, seeded_normal(shape, self.dim**-0.5, self.seed, self.stream(which) + 1000 * (b + 1))

    def project(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Queries and keys of the input vectors x [N, d]: ([N, dh], [N, dh]) float64."""
        x = x.double()  # [N, d]
        if self.exact:
            return x @ self.matrix("q").double(), x @ self.matrix("k").double()
        out = []
        for which in ("q", "k"):  # x W summed over blocks of W's rows: W is never held whole
            y = torch.zeros(len(x), self.head_dim, dtype=torch.float64)  # [N, dh]
            for start, w in self.blocks(which):
                y += x[:, start : start + len(w)] @ w.double()  # [N, r] @ [r, dh]
            out.append(y)
        return out[0], out[1]


@dataclass(frozen=True)
class TrainedHead:
    """Head ``head`` of a trained tiny GPT's first block, on sentences written in its vocabulary."""

    state: dict  # ``core.training.model.first_block_state`` of the trained model
    vocab: tuple[int, ...]  # the GPT-2 IDs it knows; its own ID of ``vocab[i]`` is i
    method: str  # its positional family
    size: str  # a key of ``core.training.model.SIZES``
    context_length: int  # T, its trained length
    head: int  # h, 0-based

    @property
    def config(self) -> GPTConfig:
        dim, heads, layers = SIZES[self.size]
        return GPTConfig(len(self.vocab), self.context_length, dim, heads, layers, self.method)

    @property
    def num_heads(self) -> int:
        return self.config.n_heads

    def unknown(self, ids: list[int]) -> list[int]:
        """The token IDs of ``ids`` the model never saw (its vocabulary is its training text's)."""
        known = set(self.vocab)
        return list(dict.fromkeys(i for i in ids if i not in known))

    def inputs(self, ids: list[int]) -> tuple[torch.Tensor, torch.Tensor | None]:
        """The model's input without and with its positions, for GPT-2 IDs it knows (at most T of them).

        Returns ([T, d], [T, d] or None): the token embeddings as its input module scales them, and
        the input embeddings with the table added (additive families only).
        """
        if self.unknown(ids) or len(ids) > self.context_length:
            raise ValueError("The trained model reads only tokens of its vocabulary, at most T of them.")
        index = {t: i for i, t in enumerate(self.vocab)}
        tokens = self.state["tok_emb.weight"][torch.tensor([index[i] for i in ids])][None]  # [1, T, d]
        make = FAMILIES[self.method].input_module
        if make is None:
            return tokens[0], None
        module = make(self.context_length, tokens.shape[-1])
        module.load_state_dict(
            {k.removeprefix("positions."): v for k, v in self.state.items() if "positions." in k}
        )
        with torch.no_grad():
            with_positions = module(tokens)  # [1, T, d]
            # What the module does to the tokens alone (the sinusoidal one scales them by √d): its
            # output on them minus its output on zeros, the positions' own part.
            without = with_positions - module(torch.zeros_like(tokens))  # [1, T, d]
        return without[0], with_positions[0]

    def project(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Queries and keys of the input vectors x [N, d] (layer norm, then ``qkv``): ([N, dh], [N, dh])."""
        d, H = x.shape[-1], self.num_heads
        dh = d // H
        s = self.state
        h = F.layer_norm(x.float(), (d,), s["blocks.0.ln1.weight"], s["blocks.0.ln1.bias"])  # [N, d]
        qkv = F.linear(h, s["blocks.0.attn.qkv.weight"], s["blocks.0.attn.qkv.bias"])  # [N, 3d]
        q = qkv[:, self.head * dh : (self.head + 1) * dh]  # [N, dh] (q is qkv's first d, split by head)
        k = qkv[:, d + self.head * dh : d + (self.head + 1) * dh]  # [N, dh]
        return q.double(), k.double()
