"""A tiny GPT-style decoder whose positional method can be swapped (nanoGPT's shape, a few layers).

token embedding (+ learned or sinusoidal table) → blocks of causal self-attention (where RoPE
rotates q and k, ALiBi biases the logits) and an MLP → layer norm → logits over the vocabulary.
Where position enters is the family's own code (``Family.input_module``, ``rotate``,
``attention_bias`` in ``core.positional``); this model only calls the hooks its family has.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from core.positional.family import FAMILIES, Family, FamilyConfig


def trainable_methods() -> tuple[str, ...]:
    """The families a TinyGPT can train with, in the registry's order."""
    return tuple(name for name, family in FAMILIES.items() if family.trainable)


def learning_methods() -> tuple[str, ...]:
    """The trainable families with position numbers of their own for training to change (a learned table)."""
    return tuple(n for n in trainable_methods() if FAMILIES[n].parameter_count(1, 1, FamilyConfig()) > 0)


def fixed_examples() -> tuple[str, ...]:
    """The trainable families a learned table's answer points to: one with no positions, and the one of
    its kind each page offers as the example (RoPE, fixed by a formula)."""
    return tuple(n for n in trainable_methods() if FAMILIES[n].kind == "none" or FAMILIES[n].featured)


@dataclass(frozen=True)
class GPTConfig:
    """Shape of the model; the sizes are small enough to train on two CPU cores in seconds."""

    vocab_size: int  # V: tokens the model can read and predict
    context_length: int  # T: the trained length (rows of a learned table)
    emb_dim: int = 64  # d
    n_heads: int = 4  # H; head dim d/H
    n_layers: int = 2  # transformer blocks
    method: str = "learned"  # one of trainable_methods()
    rope_base: float = 10000.0  # RoPE frequency base

    @property
    def family(self) -> Family:
        return FAMILIES[self.method]


SIZES = {  # model sizes a user picks from: (emb_dim, n_heads, n_layers)
    "tiny": (32, 2, 1),
    "small": (64, 4, 2),
    "medium": (128, 4, 4),
}


class CausalSelfAttention(nn.Module):
    """Multi-head causal attention; position enters here for RoPE (q, k rotation) and ALiBi (bias)."""

    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.cfg = cfg
        self.qkv = nn.Linear(cfg.emb_dim, 3 * cfg.emb_dim)
        self.proj = nn.Linear(cfg.emb_dim, cfg.emb_dim)
        self.family = cfg.family

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, d = x.shape
        H = self.cfg.n_heads
        q, k, v = self.qkv(x).split(d, dim=2)  # [B, T, d] each
        q = q.view(B, T, H, d // H).transpose(1, 2)  # [B, H, T, dh]
        k = k.view(B, T, H, d // H).transpose(1, 2)  # [B, H, T, dh]
        v = v.view(B, T, H, d // H).transpose(1, 2)  # [B, H, T, dh]
        positions = torch.arange(T, device=x.device)
        if self.family.rotate is not None:  # RoPE
            q = self.family.rotate(q, positions, self.cfg.rope_base)  # [B, H, T, dh]
            k = self.family.rotate(k, positions, self.cfg.rope_base)  # [B, H, T, dh]
        causal = positions[None, :] <= positions[:, None]  # [T, T] key j <= query i
        mask = torch.zeros(T, T, device=x.device).masked_fill(~causal, float("-inf"))  # [T, T]
        if self.family.attention_bias is not None:  # ALiBi: -m·(i - j)
            mask = mask + self.family.attention_bias(H, positions)  # [H, T, T]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)  # [B, H, T, dh]
        y = y.transpose(1, 2).contiguous().view(B, T, d)  # [B, T, d]
        return self.proj(y)


class Block(nn.Module):
    """Pre-norm transformer block: x + attn(ln(x)), then x + mlp(ln(x))."""

    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(cfg.emb_dim), nn.LayerNorm(cfg.emb_dim)
        self.attn = CausalSelfAttention(cfg)
        self.mlp = nn.Sequential(
            nn.Linear(cfg.emb_dim, 4 * cfg.emb_dim), nn.GELU(), nn.Linear(4 * cfg.emb_dim, cfg.emb_dim)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    """Token embedding + the chosen positional method + ``n_layers`` blocks + a tied output head."""

    def __init__(self, cfg: GPTConfig):
        super().__init__()
        if cfg.method not in trainable_methods():
            raise ValueError(f"Unknown method {cfg.method!r}; choose one of {trainable_methods()}.")
        if cfg.emb_dim % cfg.n_heads or (cfg.emb_dim // cfg.n_heads) % 2:
            raise ValueError(f"emb_dim {cfg.emb_dim} must split into {cfg.n_heads} heads of even size.")
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.emb_dim)
        make_positions = cfg.family.input_module
        # Before the blocks, so that init_weights draws a learned table right after the token table.
        self.positions = make_positions(cfg.context_length, cfg.emb_dim) if make_positions else None
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.ln_f = nn.LayerNorm(cfg.emb_dim)
        self.head = nn.Linear(cfg.emb_dim, cfg.vocab_size, bias=False)
        self.head.weight = self.tok_emb.weight  # weight tying, as GPT-2

    def input_embeddings(self, idx: torch.Tensor) -> torch.Tensor:
        """The lesson's input embeddings: [B, T] token IDs → [B, T, d]."""
        x = self.tok_emb(idx)  # [B, T, d]
        if self.positions is not None:  # learned or sinusoidal: add the table
            x = self.positions(x)  # [B, T, d]
        return x

    def position_table(self) -> torch.Tensor | None:
        """The trainable [T, d] positional table (a learned family's), else None."""
        params = list(self.positions.parameters()) if self.positions is not None else []
        return params[0] if params else None

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        """Logits [B, T, V] for token IDs [B, T]."""
        x = self.input_embeddings(idx)
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))  # [B, T, V]

    def loss(self, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        """Mean next-token cross-entropy (nats)."""
        logits = self.forward(idx)  # [B, T, V]
        return F.cross_entropy(logits.flatten(0, 1), targets.flatten())


def num_parameters(model: nn.Module) -> int:
    """Trainable parameters (the tied head counted once)."""
    return sum(p.numel() for p in model.parameters())


def init_weights(model: TinyGPT, generator: torch.Generator, std: float = 0.02) -> None:
    """GPT-2's init, N(0, 0.02²) weights and zero biases, drawn from ``generator`` only.

    A private generator keeps training deterministic while other sessions use torch at once.
    """
    for module in model.modules():
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=std, generator=generator)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)


FIRST_BLOCK = ("ln1.weight", "ln1.bias", "attn.qkv.weight", "attn.qkv.bias")  # of blocks.0


def first_block_state(model: TinyGPT) -> dict[str, torch.Tensor]:
    """What a trained model's first heads need (``core.attention.heads.TrainedHead``): the token table,
    the positional module's state and block 1's layer norm and ``qkv`` (copies, a few hundred kB for the
    page's sizes)."""
    state = model.state_dict()
    keys = ["tok_emb.weight", *(k for k in state if k.startswith("positions."))]
    keys += [f"blocks.0.{k}" for k in FIRST_BLOCK]
    return {k: state[k].detach().clone() for k in keys}
