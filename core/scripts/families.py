"""The Families page as a script: chart 1, what position alone adds to an attention score, per family."""

from __future__ import annotations

import textwrap

from core.config import PipelineConfig
from core.embeddings import EXACT_MAX_ELEMENTS
from core.families import CURVE_POINTS
from core.positional.family import (
    FAMILIES,
    MAX_USED_LENGTH,
    Family,
    FamilyConfig,
    all_params,
)
from core.scripts import Cell, Script
from core.scripts.common import APP_IMPORTS, PLAIN_MAX_ELEMENTS, app_record, code, import_block

CANONICAL_HEADING = "The positional families, as their papers write them"

CONTENT = f"""\
# The used length, and twice T5's max distance and Shaw's clip, so that their flat tails show
span = min({MAX_USED_LENGTH}, max(extrapolate * context_length, 2 * max(max_distance, clip)))
distances = torch.arange(0, span, -(-span // {CURVE_POINTS}))  # [R] query at r, key at 0
head_dim = output_dim // heads  # dh: RoPE and Shaw act on each head's share; T5 and ALiBi show head 1
u = torch.randn(output_dim, generator=torch.Generator().manual_seed(seed * 1_000_003 + 3)).double()  # [d]
print("distances:", distances.shape, "from", distances[0].item(), "to", distances[-1].item())"""

INPUT_LOGIT = """def input_logit(rows):  # an input-added table: ((u + p_r)·(u + p_0) − u·u) / √d
    p = rows.double()  # [R, d]; row 0 is position 0, the key's
    return ((u + p) @ (u + p[0]) - u @ u) / math.sqrt(output_dim)  # [R]"""

PRINT = """for method, y in curves.items():  # a learned table has rows 0 … T-1 only: its curve stops there
    stop = "" if len(y) == len(distances) else " (no value past it)"
    print(f"{method:>10}: r = 0 -> {y[0]:+.4f}, r = {distances[len(y) - 1]} -> {y[-1]:+.4f}{stop}")
curves = {method: y.tolist() for method, y in curves.items()}  # [R] each, the learned one [R']
print(json.dumps({"distances": distances.tolist(), "curves": curves}, allow_nan=False))  # strict JSON"""


def families_script(cfg: PipelineConfig, fam: FamilyConfig) -> Script:
    """The script that prints chart 1 of the Families page for ``cfg`` and ``fam``: every family's
    position-only contribution to the attention logit against distance."""
    app = [f for f in FAMILIES.values() if not f.code.curve]  # families whose curves the app computes
    imports = ("import json", "import math", "import torch")
    if app:
        imports += (*APP_IMPORTS, "from core.families import position_logits")
    params = all_params()
    settings = f"""{import_block(*imports)}

vocab_size = {cfg.vocab_size}  # V
output_dim = {cfg.output_dim}  # d
context_length = {cfg.context_length}  # T: the trained length
seed = {cfg.seed}
""" + "\n".join(p.script_line(getattr(fam, key)) for key, p in params.items())
    cells = [
        Cell("Settings (the sidebar's and the page's)", settings),
        Cell(CANONICAL_HEADING, canonical()),
        Cell(
            "The distances, and the content u that query and key share (only their positions differ)",
            CONTENT + "\nuh = u[:head_dim]  # [dh] head 1's share of u",
        ),
        Cell("The seeded tables (a learned one after the token table, as in the lesson)", _tables(cfg)),
        Cell("What position alone adds to the score, per family", _curves(app, params)),
    ]
    about = (
        "Chart 1 of the Families page: each curve, then one JSON line. It reads no file and needs no network."
    )
    return Script("families", "What position alone adds to an attention score, per family", about, cells)


def canonical() -> str:
    """Every family's functions, as their papers write them, in the app's order."""
    return code(tuple(part for f in FAMILIES.values() for part in f.code.functions))


def _tables(cfg: PipelineConfig) -> str:
    """Each family's untrained tables; a seeded family's come right after the lesson's token table."""
    seeded = [f.code.tables for f in FAMILIES.values() if f.seeded and f.code.tables]
    others = [f.code.tables for f in FAMILIES.values() if not f.seeded and f.code.tables]
    return "\n\n".join(([_seeded(cfg) + "\n" + "\n\n".join(seeded)] if seeded else []) + others)


def _seeded(cfg: PipelineConfig) -> str:
    """The lesson's seed and token table, which a seeded family's table comes right after; past 2^25
    elements the app's learned rows differ (a comment says so)."""
    V, d = cfg.vocab_size, cfg.output_dim
    gb = V * d * 4 / 1e9
    note = ""
    if V * d > EXACT_MAX_ELEMENTS:
        note = f"# The app never draws this {V:,} × {d:,} table ({gb:.2f} GB): "
        note += "its learned rows differ from these.\n"
    table = "token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)  # drawn first, unused here"
    if V * d > PLAIN_MAX_ELEMENTS:
        table = "# Not drawn here either (over 1 GB): the learned table comes right after the seed."
    return note + "torch.manual_seed(seed)\n" + table


def _curves(app: list[Family], params: dict) -> str:
    """Each family's curve, in the app's order: its own lines, or the app's ``position_logits``."""
    lines = [INPUT_LOGIT, "", ""] if any(f.additive for f in FAMILIES.values()) else []
    lines += [f.code.curve_setup for f in FAMILIES.values() if f.code.curve_setup]
    if app:
        values = textwrap.fill(
            ", ".join(f"{k}={k}" for k in params), 100, initial_indent="    ", subsequent_indent="    "
        )
        lines.append(f"fam = FamilyConfig(  # the page's settings\n{values}\n)")
    entries = []
    for f in FAMILIES.values():
        if f.code.curve:
            expression, _, why = f.code.curve.partition("  # ")
        else:
            lines.append(_app_curve(f))
            expression, why = f"curve_{f.name}", ""
        entries.append(f'    "{f.name}": {expression},' + (f"  # {why}" if why else ""))
    return "\n".join([*lines, "curves = {", *entries, "}", PRINT])


def _app_curve(family: Family) -> str:
    """The lines that compute ``curve_<name>`` with the app's code, for a family that gives no curve."""
    # An additive family's rows at the distances, as the page draws them (a fixed-length table's: below T).
    rows = (
        "family.input_rows(distances, context_length, output_dim, seed, fam, None)"
        if family.additive
        else "None"
    )
    return (
        f"{app_record(family)}\nrows = {rows}\n"
        f'curve_{family.name} = position_logits("{family.name}", distances, fam, output_dim, seed, rows, '
        "context_length)"
    )
