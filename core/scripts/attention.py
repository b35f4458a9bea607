"""The Attention page as a script: one head's scores on two sentences, split where the chosen family acts."""

from __future__ import annotations

import textwrap

from core.attention.heads import EXACT_MAX_ELEMENTS as W_EXACT_MAX
from core.attention.heads import PROJECTION_STREAM
from core.config import PipelineConfig
from core.embeddings import EXACT_MAX_ELEMENTS
from core.positional.family import FAMILIES, HEADS, Family, FamilyConfig, all_params
from core.scripts import Cell, Script
from core.scripts.common import (
    APP_IMPORTS,
    INPUT_ROWS,
    TOKENIZER,
    TOKENIZER_IMPORTS,
    app_record,
    big_table_lines,
    code,
    family_settings,
    import_block,
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

PLAIN_TERM = 'm["position"][i, j]  # what the method adds to the score'  # a family's own term on a pair

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
    family = FAMILIES[cfg.method]
    given = family.code.attention_settings
    own = given.format(fam=fam) if given else family_settings(_settings(family)[1:], fam)
    imports = ("import json", "import math", *TOKENIZER_IMPORTS, "import torch", *_app_imports(family))
    settings = f"""{import_block(*imports)}

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
    family_cell = _family_cell(cfg, family)
    cells = [
        Cell("Settings (the sidebar's and the page's)", settings),
        Cell("GPT-2's tokenizer, offline", TOKENIZER),
        Cell("Two sentences → token IDs, and the token that moved", TOKENS),
        Cell("Token embeddings: a token ID gets the same row wherever it stands", _token_cell(cfg)),
        *([Cell(f"{FAMILY_HEADING}: {family.label} ({family.source})", family_cell)] if family_cell else []),
        Cell("One head: W_q and W_k (d → dh), seeded random as the page's default", _head_cell(cfg, fam)),
        Cell(
            f"Attention: content q·kᵀ/√dh, what {family.label} changes, the mask, the weights",
            ATTENTION.format(scores=textwrap.indent(_scores(family), "    ")),
        ),
        Cell(
            "The moved token's row, and each pair's term, in A and B; last, one JSON line",
            ROW.replace("float(TERM)", _term(family)),
        ),
    ]
    about = (
        f"Exported from Positional Embeddings Explorer: one attention head on two sentences, {family.label}. "
        "It prints A's content part q·kᵀ/√dh, what position changes and the weights, B's weights and the "
        "moved token's row in both; last, a JSON line with the page's numbers. No file, no network."
    )
    return Script("attention", "Attention: where position acts", about, cells)


def _settings(family: Family) -> tuple:
    """The settings (``Param``) the page reads for ``family``: heads, its own, and the base it turns by."""
    extra = ("base",) if family.rotate is not None and "base" in all_params() else ()
    own = (*family.params, *(all_params()[key] for key in extra if key not in {p.key for p in family.params}))
    return (HEADS, *own)


def _hooks_from_app(family: Family) -> bool:
    """Whether the script calls ``family``'s hooks through the app: it gives no lines for the scores."""
    hooks = (family.rotate, family.attention_bias, family.score_bias)
    return not family.code.attention_scores and any(h is not None for h in hooks)


def _rows_from_app(family: Family) -> bool:
    """Whether the script draws ``family``'s input table through the app: it gives no cell of its own."""
    return family.additive and not family.code.attention_cell


def _app_imports(family: Family) -> tuple[str, ...]:
    if not (_hooks_from_app(family) or _rows_from_app(family)):
        return ()
    if _hooks_from_app(family) and family.score_bias is not None:
        return (APP_IMPORTS[0] + ", ScoreInputs",)
    return APP_IMPORTS


def _scores(family: Family) -> str:
    """The lines of ``attention(tok)`` that make ``scores`` [T, T]: the family's own, else from its hooks."""
    if family.code.attention_scores:
        return family.code.attention_scores
    hooks = family.rotate is not None or family.attention_bias is not None or family.score_bias is not None
    lines, q, k = [], "q0", "k0"
    if family.additive:
        lines.append("x_p = (tok + pos_embeddings[:T]).double()  # the table is added to the input")
        if not hooks:
            return (
                lines[0] + "\nscores = (x_p @ W_q) @ (x_p @ W_k).T / math.sqrt(head_dim)  # [T, T] from x + p"
            )
        lines.append("q, k = x_p @ W_q, x_p @ W_k  # [T, dh] each, from x + p")
        q, k = "q", "k"
    if family.rotate is not None:
        lines.append(
            f"q, k = family.rotate({q}, positions, fam.base), family.rotate({k}, positions, fam.base)"
        )
        q, k = "q", "k"
    same = "content  # " + (f"{family.label} changes no score" if not hooks else "q·kᵀ/√dh")
    lines.append(f"scores = {q} @ {k}.T / math.sqrt(head_dim)  # [T, T]" if q == "q" else f"scores = {same}")
    if family.attention_bias is not None:
        lines.append(
            "scores = scores + family.attention_bias(heads, positions)[head - 1].double()  # its bias"
        )
    if family.score_bias is not None:
        lines.append(
            "scores = scores + family.score_bias(ScoreInputs(q0, positions, head - 1, fam, output_dim, seed, "
            "causal))"
        )
    return "\n".join(lines)


def _term(family: Family) -> str:
    """The line's right side that reads a family's own term on the pair (i, j) of a map m."""
    expression, why = (family.code.attention_term or PLAIN_TERM).split("  # ")
    return f"float({expression})  # {why}"


def _token_cell(cfg: PipelineConfig) -> str:
    return big_table_lines(cfg.vocab_size, cfg.output_dim) + LOOKUP


def _family_cell(cfg: PipelineConfig, family: Family) -> str:
    """The family's own cell (its functions and tables), or the app's record of it ("" when it has none)."""
    exact = cfg.vocab_size * cfg.output_dim <= EXACT_MAX_ELEMENTS
    lines = []
    if family.seeded:
        row_seeded = "" if exact else " (the app's, row-seeded, has other values)"
        lines.append(f"# Drawn from the same generator, right after the token table{row_seeded}.")
    if family.fixed_length:
        lines.append("# A table has no row past its length: for longer sentences the page makes it as long.")
    if _rows_from_app(family) or _hooks_from_app(family):
        lines.append(app_record(family, _settings(family)))
    if _rows_from_app(family):
        state = "torch.get_rng_state()" if family.seeded and exact else "None"  # after the token table
        lines.append(
            INPUT_ROWS.format(
                positions="num_positions", length="max(context_length, num_positions)", state=state
            )
        )
    if family.code.attention_cell:
        lines.append(code(family.code.attention_cell))
    return "\n".join(lines)


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
