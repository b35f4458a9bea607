"""The Training page as a script: the same run as its Train button, a tiny GPT in nanoGPT's shape."""

from __future__ import annotations

from core.positional.alibi import get_slopes
from core.positional.rope import apply_rotary, rotate_half
from core.positional.sinusoidal import sinusoidal
from core.scripts import Cell, Script
from core.scripts.common import (
    TOKENIZER,
    TOKENIZER_IMPORTS,
    import_block,
    reads,
    source,
    text_files,
    text_lines,
)
from core.text.tokenizer import GPT2_VOCAB_SIZE
from core.training.model import SIZES
from core.training.training import (
    EVAL_TOKENS,
    MAX_TRAIN_TOKENS,
    RECORD_EVAL_TOKENS,
    RECORDS,
    VAL_FRACTION,
    TrainConfig,
)

FAMILIES_CELL = "The positional families, as their papers write them"

POSITIONAL = (
    """
"""
    + source(sinusoidal)
    + """


"""
    + source(rotate_half)
    + """


"""
    + source(apply_rotary)
    + """


# ALiBi: head h adds -m_h·(i - j) to the logit of query i and key j; the slopes m_h are a geometric
# sequence, 2^(-8/n), 2^(-16/n), …
"""
    + source(get_slopes)
    + """


def alibi_bias(num_heads, context_length):
    slopes = torch.tensor(get_slopes(num_heads))  # [H]
    position = torch.arange(context_length)
    distance = (position[:, None] - position[None, :]).float()  # [T, T] i - j
    return -(slopes[:, None, None] * distance)  # [H, T, T]"""
)

MODEL = """@dataclass(frozen=True)
class GPTConfig:
    vocab_size: int  # V: the text's own tokens, renumbered
    context_length: int  # T: the trained length (rows of a learned table)
    emb_dim: int  # d
    n_heads: int  # H: each head attends with d/H dimensions
    n_layers: int  # transformer blocks
    method: str  # where position enters


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.qkv = nn.Linear(cfg.emb_dim, 3 * cfg.emb_dim)
        self.proj = nn.Linear(cfg.emb_dim, cfg.emb_dim)

    def forward(self, x):
        B, T, d = x.shape
        H = self.cfg.n_heads
        q, k, v = self.qkv(x).split(d, dim=2)  # [B, T, d] each
        q = q.view(B, T, H, d // H).transpose(1, 2)  # [B, H, T, d/H]
        k = k.view(B, T, H, d // H).transpose(1, 2)  # [B, H, T, d/H]
        v = v.view(B, T, H, d // H).transpose(1, 2)  # [B, H, T, d/H]
        positions = torch.arange(T)
        if self.cfg.method == "rope":  # New: rotate queries and keys by their positions
            q, k = apply_rotary(q, positions), apply_rotary(k, positions)  # [B, H, T, d/H] each
        mask = torch.zeros(T, T).masked_fill(positions[None, :] > positions[:, None], float("-inf"))  # [T, T]
        if self.cfg.method == "alibi":  # New: a per-head penalty on distance
            mask = mask + alibi_bias(H, T)  # [H, T, T]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)  # [B, H, T, d/H]
        y = y.transpose(1, 2).contiguous().view(B, T, d)  # [B, T, d]
        return self.proj(y)


class Block(nn.Module):  # pre-norm: x + attn(ln(x)), then x + mlp(ln(x))
    def __init__(self, cfg):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(cfg.emb_dim), nn.LayerNorm(cfg.emb_dim)
        self.attn = CausalSelfAttention(cfg)
        d = cfg.emb_dim
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.token_embedding_layer = nn.Embedding(cfg.vocab_size, cfg.emb_dim)
        if cfg.method == "learned":  # GPT-2: one trained row per position, none past T
            self.pos_embedding_layer = nn.Embedding(cfg.context_length, cfg.emb_dim)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.ln_f = nn.LayerNorm(cfg.emb_dim)
        self.head = nn.Linear(cfg.emb_dim, cfg.vocab_size, bias=False)
        self.head.weight = self.token_embedding_layer.weight  # weight tying, as GPT-2

    def forward(self, idx):
        _, T = idx.shape
        input_embeddings = self.token_embedding_layer(idx)  # [B, T] -> [B, T, d]
        if self.cfg.method == "learned":
            pos_embeddings = self.pos_embedding_layer(torch.arange(T))  # [T, d]
            input_embeddings = input_embeddings + pos_embeddings  # [B, T, d] + [T, d]
        if self.cfg.method == "sinusoidal":  # §3.4: token embeddings × √d, or the waves would drown them
            d = self.cfg.emb_dim
            input_embeddings = input_embeddings * d**0.5 + sinusoidal(torch.arange(T), d)  # + [T, d]
        x = input_embeddings
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))  # [B, T, V]


config = GPTConfig(len(vocab), context_length, emb_dim, n_heads, n_layers, method)
model = TinyGPT(config)
# GPT-2's init, N(0, 0.02²) weights and zero biases, from a generator of its own that then draws the
# batches. As in nanoGPT, the tied token table is drawn twice: last as the head's weight.
g = torch.Generator().manual_seed(seed)
for module in model.modules():
    if isinstance(module, (nn.Linear, nn.Embedding)):
        nn.init.normal_(module.weight, mean=0.0, std=0.02, generator=g)
    if isinstance(module, nn.Linear) and module.bias is not None:
        nn.init.zeros_(module.bias)
num_parameters = sum(p.numel() for p in model.parameters())  # the tied table counted once
print(f"{method}: {num_parameters:,} parameters")"""


def training_script(tcfg: TrainConfig, text: str, vocab_size: int = GPT2_VOCAB_SIZE) -> Script:
    """The script that repeats the Training page's run for ``tcfg`` on ``text``.

    ``vocab_size``: the sidebar's V, which cuts GPT-2's BPE (the model's own vocabulary is the text's).
    """
    emb_dim, n_heads, n_layers = SIZES[tcfg.size]
    files = text_files(text)
    imports = import_block(
        "import json",
        "import math",
        "from dataclasses import dataclass",
        *TOKENIZER_IMPORTS,
        "import torch",
        "from torch import nn",
        "from torch.nn import functional as F",
    )
    settings = f"""{imports}

vocab_size = {vocab_size}  # the sidebar's V: GPT-2's BPE (cut to V below 50,257)
method = "{tcfg.method}"  # the sidebar's positional method: learned, sinusoidal, rope, alibi or nope
context_length = {tcfg.context_length}  # T: the trained length
emb_dim, n_heads, n_layers = {emb_dim}, {n_heads}, {n_layers}  # model size "{tcfg.size}": d, H, blocks
steps = {tcfg.steps}  # optimizer steps
batch_size = {tcfg.batch_size}  # B: windows per step
lr = {tcfg.lr!r}  # AdamW's learning rate, decayed along a half cosine to a tenth
seed = {tcfg.seed}  # the sidebar's seed: the init and the batches"""
    cells = [
        Cell("Settings (the sidebar's and the page's)", settings),
        Cell("GPT-2's tokenizer, offline", TOKENIZER),
        Cell("Text → token IDs → the text's own small vocabulary", _data_cell(text)),
        Cell(FAMILIES_CELL, POSITIONAL),
        Cell("A tiny GPT (nanoGPT's shape); position enters where each family puts it", MODEL),
        Cell("Held-out loss at each position of a window, and a guess from token frequencies", _eval_cell()),
        Cell("Training: AdamW, cosine decay, gradient clipping; 25 points of the loss curve", _train_cell()),
        Cell("Past the trained length: windows of 2T", _final_cell()),
    ]
    about = (
        "Exported from Positional Embeddings Explorer: the same run as the Training page's Train button "
        "(same seed, same numbers). It prints the loss curve, the final losses and, last, one JSON line "
        f"with them. {reads(files)}"
    )
    return Script(
        "training", "Watch positions being learned: a tiny GPT trained on a text", about, cells, files
    )


def _data_cell(text: str) -> str:
    cut = f"[:{MAX_TRAIN_TOKENS:_}]  # the app's cap"  # the line stays within the 110 columns of ruff
    return f"""{text_lines(text)}
token_ids = tokenizer.encode(raw_text, allowed_special={{"<|endoftext|>"}}){cut}
# A text uses a few hundred of GPT-2's tokens: renumber them 0 … U-1, so no 50,257-row table is trained.
vocab = sorted(set(token_ids))
index = {{t: i for i, t in enumerate(vocab)}}
data = torch.tensor([index[t] for t in token_ids])  # [N]
split = int(len(data) * (1 - {VAL_FRACTION}))  # the last 10% are held out
train_data, val_data = data[:split], data[split:]
print(f"{{len(data):,}} tokens, {{len(vocab)}} distinct; {{len(val_data):,}} held out for validation")"""


def _eval_cell() -> str:
    return f'''def windows(data, length):  # non-overlapping windows and their next-token targets
    n = (len(data) - 1) // length
    return data[: n * length].view(n, length), data[1 : n * length + 1].view(n, length)  # [N, L] each


@torch.no_grad()
def per_position_loss(model, data, length, max_tokens={EVAL_TOKENS:_}):
    """Mean cross-entropy at each position of windows of `length` tokens: [length]."""
    x, y = windows(data[: max_tokens + 1], length)  # [N, L] each
    logits = model(x)  # [N, L, V]: the app makes them a few windows at a time, to bound its memory
    loss = F.cross_entropy(logits.transpose(1, 2), y, reduction="none")  # [N, L]
    return (loss.sum(dim=0, dtype=torch.float64) / len(x)).float()  # [L]


# The page's "guess from token counts" (a unigram model): each next token from its count in the training
# text alone, no earlier token; a model that learned from context scores below it
counts = torch.bincount(train_data, minlength=len(vocab)).double() + 1.0  # [U]: add-one smoothing
unigram_val_loss = float(-torch.log(counts / counts.sum())[val_data].mean())
print(f"guess from token counts (each from its count in the training text): {{unigram_val_loss:.4f}}")'''


def _train_cell() -> str:
    return f"""optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
curve = {{"steps": [], "train_loss": [], "val_loss": [], "structure": []}}


def record(step, train_loss):
    val_loss = float(per_position_loss(model, val_data, context_length, {RECORD_EVAL_TOKENS:_}).mean())
    for key, value in (("steps", step), ("train_loss", train_loss), ("val_loss", val_loss)):
        curve[key].append(value)
    if method == "learned":  # structure: mean cosine of neighbouring rows minus that of rows ≥ T/2 apart
        unit = F.normalize(model.pos_embedding_layer.weight.detach().double(), dim=1)  # [T, d] unit rows
        gap = (torch.arange(context_length)[None, :] - torch.arange(context_length)[:, None]).abs()  # [T, T]
        sim = unit @ unit.T  # [T, T] cosine similarity
        curve["structure"].append(float(sim[gap == 1].mean() - sim[gap >= context_length // 2].mean()))
    print(f"step {{step:5d}}  train loss {{train_loss:.4f}}  val loss {{val_loss:.4f}}")


every = max(1, steps // {RECORDS})
x, y = windows(train_data[: 8 * context_length + 1], context_length)  # [8, T] each: step 0's train loss
record(0, F.cross_entropy(model(x).flatten(0, 1), y.flatten()).item())
for step in range(1, steps + 1):
    starts = torch.randint(0, len(train_data) - context_length - 1, (batch_size,), generator=g)  # [B]
    batch = train_data[starts[:, None] + torch.arange(context_length + 1)]  # [B, T+1]
    logits = model(batch[:, :-1])  # [B, T, V]
    loss = F.cross_entropy(logits.flatten(0, 1), batch[:, 1:].flatten())
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    for group in optimizer.param_groups:  # step k uses the factor of k - 1, as torch's LambdaLR
        group["lr"] = lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * (step - 1) / steps)))
    optimizer.step()
    if step % every == 0 or step == steps:
        record(step, loss.item())"""


def _final_cell() -> str:
    return """T = context_length
val_loss_inside = float(per_position_loss(model, val_data, T).mean())
print(f"validation loss, windows of {T}: {val_loss_inside:.4f} (token counts alone: {unigram_val_loss:.4f})")
past_inside = past_outside = None
if method != "learned":  # a learned table has no row for position T or later: it cannot run
    past = per_position_loss(model, val_data, 2 * T)  # [2T]
    past_inside, past_outside = float(past[:T].mean()), float(past[T:].mean())
    print(f"windows of {2 * T}: positions < {T} {past_inside:.4f}, positions ≥ {T} {past_outside:.4f}")
summary = {"vocab_size": len(vocab), "num_parameters": num_parameters, "unigram_val_loss": unigram_val_loss}
summary |= {"val_loss_inside": val_loss_inside, "val_loss_past_inside": past_inside}
print(json.dumps({**summary, "val_loss_past_outside": past_outside, **curve}))"""
