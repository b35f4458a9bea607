"""The Training page as a script: the same run as its Train button, a tiny GPT in nanoGPT's shape."""

from __future__ import annotations

import textwrap

from core.positional.family import FAMILIES, Family
from core.scripts import Cell, Script
from core.scripts.common import (
    TOKENIZER,
    TOKENIZER_IMPORTS,
    code,
    import_block,
    reads,
    text_files,
    text_lines,
)
from core.text.tokenizer import GPT2_VOCAB_SIZE
from core.training.model import SIZES, GPTConfig, trainable_methods
from core.training.training import (
    EVAL_TOKENS,
    MAX_TRAIN_TOKENS,
    RECORD_EVAL_TOKENS,
    RECORDS,
    VAL_FRACTION,
    TrainConfig,
)

FAMILIES_CELL = "The positional families, as their papers write them"

# The tiny GPT of core.training.model; each family's lines go at {qk}, {mask}, {init} and {input}.
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
        q, k, v = (t.view(B, T, H, d // H).transpose(1, 2) for t in (q, k, v))  # [B, H, T, d/H] each
        positions = torch.arange(T)
{qk}
        mask = torch.zeros(T, T).masked_fill(positions[None, :] > positions[:, None], float("-inf"))  # [T, T]
{mask}
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
{init}
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.ln_f = nn.LayerNorm(cfg.emb_dim)
        self.head = nn.Linear(cfg.emb_dim, cfg.vocab_size, bias=False)
        self.head.weight = self.token_embedding_layer.weight  # weight tying, as GPT-2

    def forward(self, idx):
        _, T = idx.shape
        input_embeddings = self.token_embedding_layer(idx)  # [B, T] -> [B, T, d]
{input}
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
    families = [FAMILIES[name] for name in trainable_methods()]
    app = ("from core.positional.family import FAMILIES",) if any(map(_from_app, families)) else ()
    imports = import_block(
        "import json",
        "import math",
        "from dataclasses import dataclass",
        *TOKENIZER_IMPORTS,
        "import torch",
        "from torch import nn",
        "from torch.nn import functional as F",
        *app,
    )
    names = [f.name for f in families]
    settings = f"""{imports}

vocab_size = {vocab_size}  # the sidebar's V: GPT-2's BPE (cut to V below 50,257)
method = "{tcfg.method}"  # the sidebar's positional method: {", ".join(names[:-1])} or {names[-1]}
context_length = {tcfg.context_length}  # T: the trained length
emb_dim, n_heads, n_layers = {emb_dim}, {n_heads}, {n_layers}  # model size "{tcfg.size}": d, H, blocks
steps, batch_size = {tcfg.steps}, {tcfg.batch_size}  # optimizer steps; B: windows per step
lr = {tcfg.lr!r}  # AdamW's learning rate, decayed along a half cosine to a tenth
seed = {tcfg.seed}  # the sidebar's seed: the init and the batches"""
    functions = [part for f in families for part in _pieces(f)[0]]
    cells = [
        Cell("Settings (the sidebar's and the page's)", settings),
        Cell("GPT-2's tokenizer, offline", TOKENIZER),
        Cell("Text → token IDs → the text's own small vocabulary", _data_cell(text)),
        *([Cell(FAMILIES_CELL, code(tuple(functions)))] if functions else []),
        Cell("A tiny GPT (nanoGPT's shape); position enters where each family puts it", _model(families)),
        Cell("Held-out loss at each position of a window, and a guess from token frequencies", _eval_cell()),
        Cell(
            "Training: AdamW, cosine decay, gradient clipping; 25 points of the loss curve",
            _train_cell(families),
        ),
        Cell("Past the trained length: windows of 2T", _final_cell(families)),
    ]
    about = (
        "Exported from Positional Embeddings Explorer: the same run as the Training page's Train button "
        "(same seed, same numbers). It prints the loss curve, the final losses and, last, one JSON line "
        f"with them. {reads(files)}"
    )
    return Script(
        "training", "Watch positions being learned: a tiny GPT trained on a text", about, cells, files
    )


def _from_app(family: Family) -> bool:
    """Whether ``family`` gives the tiny GPT no lines of its own, so the script calls its hooks in the app."""
    given = family.code
    hooks = (family.input_module, family.rotate, family.attention_bias)
    own = given.training_init or given.training_input or given.training_qk or given.training_mask
    return not own and any(h is not None for h in hooks)


def _pieces(family: Family) -> tuple[tuple, str, str, str, str]:
    """``family``'s functions and its lines in the tiny GPT: __init__, forward's input, q and k, mask."""
    given = family.code
    functions = given.functions if given.training_functions is None else given.training_functions
    if not _from_app(family):
        return functions, given.training_init, given.training_input, given.training_qk, given.training_mask
    record, base = f'FAMILIES["{family.name}"]', GPTConfig.rope_base
    said = f"# {family.label}: its record's hook, from the app\n"
    init = input_ = qk = mask = ""
    if family.input_module is not None:
        init = f"{said}self.positions = {record}.input_module(cfg.context_length, cfg.emb_dim)"
        input_ = "input_embeddings = self.positions(input_embeddings)  # [B, T, d]"
    if family.rotate is not None:
        qk = f"{said}q, k = {record}.rotate(q, positions, {base}), {record}.rotate(k, positions, {base})"
    if family.attention_bias is not None:
        mask = f"{said}mask = mask + {record}.attention_bias(H, positions)  # [H, T, T]"
    return functions, init, input_, qk, mask


def _guarded(name: str, lines: str, indent: int, cfg: str = "self.cfg") -> str:
    """``lines`` under ``if <cfg>.method == "<name>":``, the first line's comment (if it is one) on it."""
    first, _, rest = lines.partition("\n")
    said = f"  {first}" if first.startswith("# ") else ""
    body = rest if said else lines
    guard = f'if {cfg}.method == "{name}":{said}\n' + textwrap.indent(body, "    ")
    return textwrap.indent(guard, " " * indent)


def _model(families: list[Family]) -> str:
    """The tiny GPT with each trainable family's lines where it puts position."""
    slots = {"init": [], "input": [], "qk": [], "mask": []}
    for f in families:
        _, init, input_, qk, mask = _pieces(f)
        for slot, lines, cfg in (
            ("init", init, "cfg"),
            ("input", input_, "self.cfg"),
            ("qk", qk, "self.cfg"),
        ):
            if lines:
                slots[slot].append(_guarded(f.name, lines, 8, cfg))
        if mask:
            slots["mask"].append(_guarded(f.name, mask, 8))
    text = MODEL
    for slot, pieces in slots.items():
        text = text.replace("{" + slot + "}\n", "".join(piece + "\n" for piece in pieces))
    return text


def _data_cell(text: str) -> str:
    cut = f"[:{MAX_TRAIN_TOKENS:_}]  # the app's cap"  # the line stays within the 110 columns of ruff
    return f"""{text_lines(text)}
token_ids = tokenizer.encode(raw_text, allowed_special={{"<|endoftext|>"}}){cut}
# A text uses a few hundred of GPT-2's tokens: renumber them 0 … U-1, so no 50,257-row table is trained.
vocab = sorted(set(token_ids))
data = torch.searchsorted(torch.tensor(vocab), torch.tensor(token_ids))  # [N]: each token's place in vocab
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


# The page's "guess from token counts" (a unigram model): no earlier token; a model of context scores below it
counts = torch.bincount(train_data, minlength=len(vocab)).double() + 1.0  # [U]: add-one smoothing
unigram_val_loss = float(-torch.log(counts / counts.sum())[val_data].mean())
print(f"guess from token counts (each from its count in the training text): {{unigram_val_loss:.4f}}")'''


def _which(names: list[str], one_of: bool = True) -> str:
    """The condition that ``method`` is (``one_of``) or is not one of ``names``."""
    if len(names) == 1:
        return f'method {"==" if one_of else "!="} "{names[0]}"'
    return f"method {'in' if one_of else 'not in'} {tuple(names)!r}"


def _structure(families: list[Family]) -> str:
    """The lines of ``record`` that measure a trained table's structure, for the families that have one."""
    tables = {f.name: f.code.training_table for f in families if f.code.training_table}
    if not tables:
        return ""
    table = (
        next(iter(tables.values()))
        if len(tables) == 1
        else f"{{{', '.join(f'{n!r}: {t}' for n, t in tables.items())}}}[method]"
    )
    said = "structure: mean cosine of neighbouring rows minus that of rows ≥ T/2 apart"
    return f"""    if {_which(list(tables))}:  # {said}
        unit = F.normalize({table}.detach().double(), dim=1)  # [T, d] unit rows
        gap = (torch.arange(context_length)[None, :] - torch.arange(context_length)[:, None]).abs()  # [T, T]
        sim = unit @ unit.T  # [T, T] cosine similarity
        curve["structure"].append(float(sim[gap == 1].mean() - sim[gap >= context_length // 2].mean()))
"""


def _train_cell(families: list[Family]) -> str:
    return f"""optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
curve = {{"steps": [], "train_loss": [], "val_loss": [], "structure": []}}


def record(step, train_loss):
    val_loss = float(per_position_loss(model, val_data, context_length, {RECORD_EVAL_TOKENS:_}).mean())
    for key, value in (("steps", step), ("train_loss", train_loss), ("val_loss", val_loss)):
        curve[key].append(value)
{_structure(families)}    print(f"step {{step:5d}}  train loss {{train_loss:.4f}}  val loss {{val_loss:.4f}}")


every = max(1, steps // {RECORDS})
x, y = windows(train_data[: 8 * context_length + 1], context_length)  # [8, T] each: step 0's train loss
record(0, F.cross_entropy(model(x).flatten(0, 1), y.flatten()).item())
for step in range(1, steps + 1):
    starts = torch.randint(0, len(train_data) - context_length - 1, (batch_size,), generator=g)  # [B]
    batch = train_data[starts[:, None] + torch.arange(context_length + 1)]  # [B, T+1]
    loss = F.cross_entropy(model(batch[:, :-1]).flatten(0, 1), batch[:, 1:].flatten())  # logits [B·T, V]
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    for group in optimizer.param_groups:  # step k uses the factor of k - 1, as torch's LambdaLR
        group["lr"] = lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * (step - 1) / steps)))
    optimizer.step()
    if step % every == 0 or step == steps:
        record(step, loss.item())"""


FINAL = """T = context_length
val_loss_inside = float(per_position_loss(model, val_data, T).mean())
print(f"validation loss, windows of {T}: {val_loss_inside:.4f} (token counts alone: {unigram_val_loss:.4f})")
past_inside = past_outside = None
{past}
summary = {"vocab_size": len(vocab), "num_parameters": num_parameters, "unigram_val_loss": unigram_val_loss}
summary |= {"val_loss_inside": val_loss_inside, "val_loss_past_inside": past_inside}
print(json.dumps({**summary, "val_loss_past_outside": past_outside, **curve}))"""
PAST = """past = per_position_loss(model, val_data, 2 * T)  # [2T]
past_inside, past_outside = float(past[:T].mean()), float(past[T:].mean())
print(f"windows of {2 * T}: positions < {T} {past_inside:.4f}, positions ≥ {T} {past_outside:.4f}")"""


def _final_cell(families: list[Family]) -> str:
    """Past the trained length, for every family but those with no row for position T or later."""
    fixed = [f.name for f in families if f.fixed_length]
    past = PAST
    if fixed:
        said = "a learned table has no row for position T or later: it cannot run"
        past = f"if {_which(fixed, one_of=False)}:  # {said}\n" + textwrap.indent(PAST, "    ")
    return FINAL.replace("{past}", past)
