"""The Why position? page as a script: two sentences, the same token at two positions, and a shuffle."""

from __future__ import annotations

from core.config import PipelineConfig
from core.embeddings import EXACT_MAX_ELEMENTS
from core.positional.family import FAMILIES
from core.scripts import Cell, Script
from core.scripts.common import (
    APP_IMPORTS,
    INPUT_ROWS,
    TOKENIZER,
    TOKENIZER_IMPORTS,
    app_record,
    big_table_lines,
    code,
    comment,
    import_block,
    string_literal,
)

FAMILIES_HEADING = "The positional families, as their papers write them"

TOKENS = """ids_a = tokenizer.encode(text_a, allowed_special={"<|endoftext|>"})
ids_b = tokenizer.encode(text_b, allowed_special={"<|endoftext|>"})
for label, ids in (("A", ids_a), ("B", ids_b)):
    print(f"{label}: {len(ids)} tokens", [(tokenizer.decode([i]), i) for i in ids])
num_positions = max(len(ids_a), len(ids_b))  # N: the positions the two sentences need

# The shuffle of A the page shows: the seed picks it (one that moves nothing is rotated by one).
order = torch.randperm(len(ids_a), generator=torch.Generator().manual_seed(seed)).tolist()
if order == sorted(order):
    order = order[1:] + order[:1]
ids_shuffled = [ids_a[k] for k in order]
print("A shuffled:", [(tokenizer.decode([i]), i) for i in ids_shuffled])"""

LOOKUP = """torch.set_grad_enabled(False)  # nothing is trained here: plain values, no autograd graph
torch.manual_seed(seed)
token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
tok_a = token_embedding_layer(torch.tensor(ids_a))  # [Na, d]: one row per token, wherever it stands
tok_b = token_embedding_layer(torch.tensor(ids_b))  # [Nb, d]
tok_shuffled = tok_a[order]  # [Na, d]: A's rows in the shuffled order
print("tok_a:", tok_a.shape, "tok_b:", tok_b.shape)"""

SHARED = """def cosine(a, b):
    a, b = a.double(), b.double()  # float64, as the page
    return float(a @ b / (a.norm() * b.norm()))


shared = []  # every token ID found in both sentences, at its first position in each
for token_id in dict.fromkeys(ids_a):
    if token_id in ids_b:
        pa, pb = ids_a.index(token_id), ids_b.index(token_id)
        in_a, in_b = tok_a[pa] + pos_embeddings[pa], tok_b[pb] + pos_embeddings[pb]  # [d] each
        s = {"token_id": token_id, "position_a": pa, "position_b": pb}
        s["cosine_without"] = cosine(tok_a[pa], tok_b[pb])  # the same row of the same table: 1
        s["cosine_with"] = cosine(in_a, in_b)
        s["norm_without"] = float(tok_a[pa].double().norm())
        s["norm_with_a"], s["norm_with_b"] = float(in_a.double().norm()), float(in_b.double().norm())
        shared.append(s)
        piece = tokenizer.decode([token_id])
        print(f"{piece!r} at {pa} in A, {pb} in B: cos {s['cosine_without']:.6f} without positions, ", end="")
        print(f"{s['cosine_with']:.6f} with; norms {s['norm_with_a']:.6f} and {s['norm_with_b']:.6f}")

moved = next((s for s in shared if s["position_a"] != s["position_b"]), None)  # the page's two numbers
if moved:
    pa, pb = moved["position_a"], moved["position_b"]
    moved = {"token_id": moved["token_id"], "without": moved["cosine_without"], "with": moved["cosine_with"]}
    print(f"{tokenizer.decode([moved['token_id']])!r} moved from {pa} to {pb}")"""

ORDERS = """def count_same(x_a, x_b):
    rows_a = {tuple(row.tolist()) for row in x_a}
    return sum(tuple(row.tolist()) in rows_a for row in x_b)  # rows of x_b that are exactly a row of x_a


def compare(tok_a, tok_b):
    tok_a, tok_b, pos = tok_a.double(), tok_b.double(), pos_embeddings.double()  # sums in float64
    in_a, in_b = tok_a + pos[: len(tok_a)], tok_b + pos[: len(tok_b)]  # [Na, d], [Nb, d]
    # The mean is blind to order either way: mean(tok + pos) = mean(tok) + mean(pos) for any order.
    return {
        "shared_without": count_same(tok_a, tok_b),
        "shared_with": count_same(in_a, in_b),
        "num_vectors": len(tok_b),
        "mean_cosine_without": cosine(tok_a.mean(0), tok_b.mean(0)),
        "mean_cosine_with": cosine(in_a.mean(0), in_b.mean(0)),
        "mean_diff_with": float((in_a.mean(0) - in_b.mean(0)).abs().max()),
    }


orders = {"A vs shuffled A": compare(tok_a, tok_shuffled), "A vs B": compare(tok_a, tok_b)}
for pair, c in orders.items():
    n = c["num_vectors"]
    print(f"{pair}: same vectors {c['shared_without']} of {n} without positions, {c['shared_with']} with;")
    print(f"  cosine of the averages {c['mean_cosine_with']:.6f}, largest gap {c['mean_diff_with']:.4f}")

page = {"ids_a": ids_a, "ids_b": ids_b, "ids_shuffled": ids_shuffled, "shared": shared, "moved": moved}
print(json.dumps({**page, "orders": orders}))"""


def why_position_script(cfg: PipelineConfig, text_a: str, text_b: str) -> Script:
    """The script that prints what the Why position? page shows for ``cfg`` and its two sentences.

    ``text_a``, ``text_b``: the sentences as the page reads them (with a leading space when its
    "mid-sentence" toggle is on, see ``core.order.mid_sentence``).
    """
    family = FAMILIES[cfg.method]
    app = APP_IMPORTS if family.additive and not family.code.why_position_rows else ()
    imports = import_block("import json", *TOKENIZER_IMPORTS, "import torch", *app)
    settings = f"""{imports}

vocab_size = {cfg.vocab_size}  # V
output_dim = {cfg.output_dim}  # d
context_length = {cfg.context_length}  # T
seed = {cfg.seed}
method = {cfg.method!r}
# As the page reads them: with "mid-sentence" on, a space first (GPT-2's " cat" and "cat" differ)
text_a = {string_literal(text_a)}
text_b = {string_literal(text_b)}"""
    formulas = code(family.code.functions) if family.additive else ""
    cells = [
        Cell("Settings (the sidebar's and the page's)", settings),
        Cell("GPT-2's tokenizer, offline", TOKENIZER),
        Cell("Two sentences → token IDs, and a shuffle of A", TOKENS),
        Cell("Token embeddings: a token ID gets the same row wherever it stands", _token_cell(cfg)),
        *([Cell(FAMILIES_HEADING, formulas)] if formulas else []),
        Cell("Positional embeddings: one row per position", _position_cell(cfg)),
        Cell("1. The same token, two positions", SHARED),
        Cell("2. Shuffle the words: the same vectors, in another order", ORDERS),
    ]
    about = (
        "Exported from Positional Embeddings Explorer. It prints each sentence's token IDs, the cosine "
        "and norms of every token the two sentences share, without and with positions, and how A "
        "compares with a shuffle of itself and with B; last, one JSON line with the page's numbers. "
        "It reads no file and needs no network."
    )
    return Script("why_position", "Why position? Two sentences, with and without positions", about, cells)


def _token_cell(cfg: PipelineConfig) -> str:
    V, d = cfg.vocab_size, cfg.output_dim
    return big_table_lines(V, d) + LOOKUP


def _position_cell(cfg: PipelineConfig) -> str:
    family = FAMILIES[cfg.method]
    shape = '\nprint("pos_embeddings:", pos_embeddings.shape)'
    if not family.additive:
        return (
            comment(f"{family.label} adds nothing at the input: {family.where or 'position enters nowhere'}.")
            + "\npos_embeddings = torch.zeros(num_positions, output_dim)  # [N, d]: adding it changes nothing"
            + shape
        )
    said = []
    if family.seeded:
        exact = cfg.vocab_size * cfg.output_dim <= EXACT_MAX_ELEMENTS
        said.append(
            "Drawn from the same generator, right after the token table"
            + ("" if exact else " (the app's, row-seeded, has other values)")
            + "."
        )
    if family.fixed_length:
        said.append(
            "A table has no row past its length, so for longer sentences the page makes it as long as they "
            "need."
        )
    rows = family.code.why_position_rows or _app_rows(family, cfg)
    return (comment(" ".join(said)) + "\n" if said else "") + rows + shape


def _app_rows(family, cfg: PipelineConfig) -> str:
    """The lines that draw ``family``'s table through the app, for an additive family with no lines of its
    own (the lesson's settings, as the page; a seeded table right after the token table)."""
    exact = cfg.vocab_size * cfg.output_dim <= EXACT_MAX_ELEMENTS
    state = "torch.get_rng_state()" if family.seeded and exact else "None"  # after the token table
    length = "max(context_length, num_positions)"  # a table long enough for both sentences
    return (
        app_record(family, ())
        + "\n"
        + INPUT_ROWS.format(positions="num_positions", length=length, state=state)
    )
