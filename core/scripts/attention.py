"""The Attention page as a script: one head's scores on two sentences, split where the chosen family acts."""

from __future__ import annotations

from core.attention.heads import EXACT_MAX_ELEMENTS as W_EXACT_MAX
from core.attention.heads import PROJECTION_STREAM
from core.config import FAMILIES, FamilyConfig, PipelineConfig
from core.embeddings import EXACT_MAX_ELEMENTS
from core.positional.alibi import get_slopes
from core.positional.learned import INITS
from core.positional.rope import apply_rotary, rotate_half
from core.positional.sinusoidal import sinusoidal
from core.positional.t5 import _relative_position_bucket
from core.scripts import Cell, Script
from core.scripts.common import (
    TOKENIZER,
    TOKENIZER_IMPORTS,
    big_table_lines,
    import_block,
    source,
    string_literal,
)

FAMILY_HEADING = "The family, as its paper writes it"
W_MAX_ELEMENTS = 2**26  # a W the script builds whole: past 256 MB of float32 it stops

TOKENS = """ids_a = tokenizer.encode(text_a, allowed_special={"<|endoftext|>"})
ids_b = tokenizer.encode(text_b, allowed_special={"<|endoftext|>"})
for label, ids in (("A", ids_a), ("B", ids_b)):
    print(f"{label}: {len(ids)} tokens", [(tokenizer.decode([i]), i) for i in ids])
num_positions = max(len(ids_a), len(ids_b))  # N
# The moved token: the first token of A found in B at another (first) position
shared = [t for t in dict.fromkeys(ids_a) if t in ids_b and ids_a.index(t) != ids_b.index(t)]
moved = (shared[0], ids_a.index(shared[0]), ids_b.index(shared[0])) if shared else None
print("moved (token ID, position in A, in B):", moved)"""

LOOKUP = """torch.set_grad_enabled(False)  # nothing is trained here
torch.manual_seed(seed)
token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
tok_a = token_embedding_layer(torch.tensor(ids_a))  # [Na, d]
tok_b = token_embedding_layer(torch.tensor(ids_b))  # [Nb, d]"""

T5_FORMULA = (
    """\
"""
    + source(_relative_position_bucket)
    + """


# nn.Embedding(buckets, heads) untrained: N(0, 1/d) as HF T5's _init_weights, from a generator of its own
t5_generator = torch.Generator().manual_seed(seed * 1_000_003 + 2)
t5_bias = torch.randn(buckets, heads, generator=t5_generator) * output_dim**-0.5  # [buckets, H]"""
)

SHAW_FORMULA = """# Shaw et al. 2018 §3: a^K, one vector per clipped offset clip(j − i, −k, k): 2k + 1 rows,
# N(0, 1) (untrained). The app seeds each row's generator on its own (splitmix64 of seed and row).
def row_seed(seed, row):
    x = (seed * 0x9E3779B97F4A7C15 + row * 0xBF58476D1CE4E5B9) % 2**64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) % 2**64
    return (x ^ (x >> 31)) >> 1


rel_k, g = torch.empty(2 * clip + 1, output_dim // heads), torch.Generator()  # [2k + 1, dh]
for row in range(2 * clip + 1):
    rel_k[row].normal_(generator=g.manual_seed(row_seed(seed * 1_000_003 + 1, row)))"""

FORMULAS = {
    "learned": "",
    "nope": "",
    "sinusoidal": source(sinusoidal)
    + """


pos_embeddings = sinusoidal(torch.arange(num_positions), output_dim, base, layout)  # [N, d]""",
    "rope": source(rotate_half) + "\n\n\n" + source(apply_rotary),
    "alibi": """"""
    + source(get_slopes)
    + """


slope = torch.tensor(get_slopes(heads))[head - 1]  # m of the head shown
print("slope m:", slope.item())""",
    "t5": T5_FORMULA,
    "shaw": SHAW_FORMULA,
}

SCORES = {  # what each family does to the scores of one sentence (x: its token embeddings, float64)
    "nope": "    scores = content  # NoPE: position enters nowhere; only the mask can tell orders apart",
    "learned": """    x_p = (tok + pos_embeddings[:T]).double()  # the table is added to the input
    scores = (x_p @ W_q) @ (x_p @ W_k).T / math.sqrt(head_dim)  # [T, T] from x + p""",
    "rope": """    q, k = apply_rotary(q0, positions, base), apply_rotary(k0, positions, base)  # [T, dh] each
    scores = q @ k.T / math.sqrt(head_dim)  # [T, T]""",
    "alibi": """    distance = (positions[:, None] - positions[None, :]).float()  # [T, T] i − j
    scores = content - (slope * distance).double()  # −m·(i − j)""",
    "t5": """    offset = positions[None, :] - positions[:, None]  # [T, T] j − i
    bucket = _relative_position_bucket(offset, not causal, buckets, max_distance)  # two-sided unless causal
    scores = content + t5_bias[bucket, head - 1].double()  # [T, T] the bias of (j − i)'s bucket""",
    "shaw": """\
    index = (positions[None, :] - positions[:, None]).clamp(-clip, clip) + clip  # [T, T] a^K's rows
    scores = content + (q0 @ rel_k.double().T).gather(1, index) / math.sqrt(head_dim)  # + q_i·a^K_ij/√dh""",
}
SCORES["sinusoidal"] = SCORES["learned"]
PLAIN_TERM = 'm["position"][i, j]'  # a family's own term on a pair: what it adds to the score
TERM = {"rope": 'm["content"][i, j] + m["position"][i, j]  # RoPE: the rotated score'}

ATTENTION = """def attention(tok):
    T = len(tok)  # tok: [T, d] token embeddings of one sentence
    positions = torch.arange(T)
    q0, k0 = tok.double() @ W_q, tok.double() @ W_k  # [T, dh] each: the tokens alone
    content = q0 @ k0.T / math.sqrt(head_dim)  # [T, T] q·kᵀ/√dh
{scores}
    mask = positions[None, :] <= positions[:, None] if causal else torch.ones(T, T, dtype=torch.bool)
    weights = scores.masked_fill(~mask, -math.inf).softmax(dim=-1)  # [T, T]: rows sum to 1
    cells = mask.nonzero().tolist()  # the visible (i, j), as the page's heatmaps hold them
    return dict(content=content, position=scores - content, weights=weights, mask=mask, cells=cells)


a, b = attention(tok_a), attention(tok_b)
for name in ("content", "position", "weights"):  # masked cells as nan
    print(f"A, {{name}}:\\n", a[name].masked_fill(~a["mask"], math.nan).numpy().round(3))
print("B, weights:\\n", b["weights"].masked_fill(~b["mask"], math.nan).numpy().round(3))"""

ROW = """row = []  # the moved token's attention, per key token, in A and in B (None: not there, or masked)
for t in dict.fromkeys(ids_a + ids_b) if moved else []:
    sides = []
    for ids, m, query in ((ids_a, a, moved[1]), (ids_b, b, moved[2])):
        keys = [j for j, i in enumerate(ids) if i == t and m["mask"][query, j]]  # visible ones
        sides.append(float(sum(m["weights"][query, j] for j in keys)) if keys else None)
    row.append({"token_id": t, "weight_a": sides[0], "weight_b": sides[1]})
    print("moved token -> key", repr(tokenizer.decode([t])), *(w and round(w, 4) for w in sides))

# Pairs of tokens found once in each sentence: the later one looks back at the other. A relative method
# gives the same two tokens at the same distance the same term. One entry for A, then one for B.
once = [t for t in dict.fromkeys(ids_a) if ids_a.count(t) == ids_b.count(t) == 1]
pairs = []
for u, v in ((u, v) for n, u in enumerate(once) for v in once[n + 1 :]):
    for ids, m in ((ids_a, a), (ids_b, b)):
        i, j = sorted((ids.index(u), ids.index(v)), reverse=True)  # the later token first
        term = float(TERM)
        pairs.append({"query": ids[i], "key": ids[j], "distance": i - j, "term": term})
page = {"ids_a": ids_a, "ids_b": ids_b, "moved": moved, "row": row, "pairs": pairs}
page |= {name: [[i, j, float(a[name][i, j])] for i, j in a["cells"]] for name in ("content", "position")}
page["weights"] = [[i, j, float(a["weights"][i, j])] for i, j in a["cells"]]
page["weights_b"] = [[i, j, float(b["weights"][i, j])] for i, j in b["cells"]]
print(json.dumps(page))"""


def attention_script(
    cfg: PipelineConfig, fam: FamilyConfig, head: int, causal: bool, text_a: str, text_b: str
):
    """The script that prints what the Attention page shows for ``cfg.method``: sentence A's content,
    position part and weights, B's weights and the moved token's row (random heads, as the page's default).

    Args:
        head: the head shown, 0-based.
        causal: the page's mask.
        text_a, text_b: the sentences as the page reads them (a leading space when "mid-sentence" is on).
    """
    method = cfg.method
    own = {
        "sinusoidal": f'base = {fam.base!r}  # frequency base\nlayout = "{fam.layout}"  # or concat, fairseq',
        "rope": f"base = {fam.base!r}  # RoPE's frequency base",
        "t5": f"buckets = {fam.buckets}  # T5's\nmax_distance = {fam.max_distance}  # farther: one bucket",
        "shaw": f"clip = {fam.clip}  # Shaw's k: offsets past ±k share one vector",
        "learned": f'init = "{fam.init}"  # the table\'s std: torch 1, openai 0.01, hf 0.02',
    }.get(method, "")
    settings = f"""{import_block("import json", "import math", *TOKENIZER_IMPORTS, "import torch")}

vocab_size = {cfg.vocab_size}  # V
output_dim = {cfg.output_dim}  # d
context_length = {cfg.context_length}  # T
seed = {cfg.seed}
heads = {fam.heads}  # H
head = {head + 1}  # the head shown, 1 … H
causal = {causal}  # a decoder's mask: each token sees itself and the tokens before it
{own}
# As the page reads them: with "mid-sentence" on, a space first (GPT-2's " cat" and "cat" differ)
text_a = {string_literal(text_a)}
text_b = {string_literal(text_b)}""".replace("\n\n# As", "\n# As")
    family = FAMILIES[method]
    cells = [
        Cell("Settings (the sidebar's and the page's)", settings),
        Cell("GPT-2's tokenizer, offline", TOKENIZER),
        Cell("Two sentences → token IDs, and the token that moved", TOKENS),
        Cell("Token embeddings: a token ID gets the same row wherever it stands", _token_cell(cfg)),
        *(
            [Cell(f"{FAMILY_HEADING}: {family.label} ({family.source})", _family_cell(cfg))]
            if _family_cell(cfg)
            else []
        ),
        Cell("One head: W_q and W_k (d → dh), seeded random as the page's default", _head_cell(cfg, fam)),
        Cell(
            f"Attention: content q·kᵀ/√dh, what {family.label} changes, the mask, the weights",
            ATTENTION.format(scores=SCORES[method]),
        ),
        Cell(
            "The moved token's row, and each pair's term, in A and B; last, one JSON line",
            ROW.replace("float(TERM)", _term(method)),
        ),
    ]
    about = (
        f"Exported from Positional Embeddings Explorer: one attention head on two sentences, {family.label}. "
        "It prints A's content part q·kᵀ/√dh, what position changes and the weights, B's weights and the "
        "moved token's row in both; last, a JSON line with the page's numbers. No file, no network."
    )
    return Script("attention", "Attention: where position acts", about, cells)


def _term(method: str) -> str:
    """The line's right side that reads a family's own term on the pair (i, j) of a map m."""
    if method in TERM:
        expression, why = TERM[method].split("  # ")
        return f"float({expression})  # {why}"
    return f"float({PLAIN_TERM})  # what the method adds to the score"


def _token_cell(cfg: PipelineConfig) -> str:
    return big_table_lines(cfg.vocab_size, cfg.output_dim) + LOOKUP


def _family_cell(cfg: PipelineConfig) -> str:
    if cfg.method != "learned":
        return FORMULAS[cfg.method]
    exact = cfg.vocab_size * cfg.output_dim <= EXACT_MAX_ELEMENTS
    return (
        "# Drawn from the same generator, right after the token table"
        + ("" if exact else " (the app's, row-seeded, has other values)")
        + ".\n# A table has no row past its length: for longer sentences the page makes it as long.\n"
        "pos_embedding_layer = torch.nn.Embedding(max(context_length, num_positions), output_dim)\n"
        f"std = {INITS}[init]  # N(0, std²) from the N(0, 1) draws\n"
        "pos_embeddings = pos_embedding_layer.weight[:num_positions] * std  # [N, d]"
    )


def _head_cell(cfg: PipelineConfig, fam: FamilyConfig) -> str:
    d, dh = cfg.output_dim, cfg.output_dim // fam.heads
    lines = "head_dim = output_dim // heads  # dh\n"
    stream = f"{PROJECTION_STREAM} + 2 * (head - 1)"  # W_q's seed stream; W_k's is the next
    if d * dh > W_MAX_ELEMENTS:
        lines += (
            f'raise SystemExit("W_q of {d:,} × {dh:,} needs {d * dh * 4 / 1e9:.1f} GB: raise the heads.")\n'
        )
    if d * dh <= W_EXACT_MAX:
        return lines + (
            "\n\ndef projection(stream):  # N(0, 1/d): unit-sized q and k for N(0, 1) inputs\n"
            "    g = torch.Generator().manual_seed(seed * 1_000_003 + stream)\n"
            "    return (torch.randn(output_dim, head_dim, generator=g) * output_dim**-0.5).double()\n"
            f"\n\nW_q, W_k = projection({stream}), projection({stream} + 1)"
        )
    return lines + (
        "\n\ndef projection(stream):  # N(0, 1/d), as the app: in blocks of rows, each its own generator\n"
        "    rows = max(1, 2**20 // head_dim)\n"
        "    blocks = [\n"
        "        torch.randn(min(rows, output_dim - s), head_dim, generator=torch.Generator().manual_seed(\n"
        "            seed * 1_000_003 + stream + 1000 * (b + 1)))\n"
        "        for b, s in enumerate(range(0, output_dim, rows))\n"
        "    ]\n"
        "    return (torch.cat(blocks) * output_dim**-0.5).double()  # [d, dh]\n"
        f"\n\nW_q, W_k = projection({stream}), projection({stream} + 1)"
    )
