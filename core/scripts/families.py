"""The Families page as a script: chart 1, what position alone adds to an attention score, per family."""

from __future__ import annotations

from core.config import FamilyConfig, PipelineConfig
from core.embeddings import EXACT_MAX_ELEMENTS
from core.families import CURVE_POINTS
from core.positional.alibi import get_slopes
from core.positional.family import MAX_USED_LENGTH
from core.positional.rope import apply_rotary, rotate_half
from core.positional.sinusoidal import sinusoidal
from core.positional.t5 import _relative_position_bucket
from core.scripts import Cell, Script
from core.scripts.common import PLAIN_MAX_ELEMENTS, import_block, source

CANONICAL_HEADING = "The positional families, as their papers write them"

CANONICAL = (
    source(sinusoidal)
    + """


"""
    + source(get_slopes)
    + """


"""
    + source(_relative_position_bucket)
    + """


"""
    + source(rotate_half)
    + """


"""
    + source(apply_rotary)
    + """


def relative_positions(positions, clip):
    # Shaw et al. 2018 §3.2; tensor2tensor _generate_relative_positions_matrix: clip(j − i, −k, k) + k
    distance = positions[None, :] - positions[:, None]  # [P, P] j − i, query i (row), key j (column)
    return distance.clamp(-clip, clip) + clip  # [P, P]"""
)

CONTENT = f"""\
# The used length, and twice T5's max distance and Shaw's clip, so that their flat tails show
span = min({MAX_USED_LENGTH}, max(extrapolate * context_length, 2 * max(max_distance, clip)))
distances = torch.arange(0, span, -(-span // {CURVE_POINTS}))  # [R] query at r, key at 0
head_dim = output_dim // heads  # dh: RoPE and Shaw act on each head's share; T5 and ALiBi show head 1
u = torch.randn(output_dim, generator=torch.Generator().manual_seed(seed * 1_000_003 + 3)).double()  # [d]
print("distances:", distances.shape, "from", distances[0].item(), "to", distances[-1].item())"""

ROW_SEED = """\
# Shaw's a^K has 2k + 1 rows of N(0, 1). The app seeds each row's generator on its own (splitmix64 of
# seed and row), so that a clip of 8,192 costs only the rows it draws; the script does the same.
def row_seed(seed, row):
    x = (seed * 0x9E3779B97F4A7C15 + row * 0xBF58476D1CE4E5B9) % 2**64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) % 2**64
    return (x ^ (x >> 31)) >> 1


"""

SEEDED = """\
# T5: nn.Embedding(buckets, heads), standard deviation 1/√d as HF T5's _init_weights, own generator.
t5_generator = torch.Generator().manual_seed(seed * 1_000_003 + 2)
t5_bias = torch.randn(buckets, heads, generator=t5_generator) * output_dim**-0.5  # [buckets, H]
rel_k, g = torch.empty(2 * clip + 1, head_dim), torch.Generator()  # [2k + 1, dh]
for row in range(2 * clip + 1):
    rel_k[row].normal_(generator=g.manual_seed(row_seed(seed * 1_000_003 + 1, row)))
print("pos_embeddings:", pos_embeddings.shape, "t5_bias:", t5_bias.shape, "rel_k:", rel_k.shape)"""

CURVES = """def input_logit(rows):  # an input-added table: ((u + p_r)·(u + p_0) − u·u) / √d
    p = rows.double()  # [R, d]; row 0 is position 0, the key's
    return ((u + p) @ (u + p[0]) - u @ u) / math.sqrt(output_dim)  # [R]


learned = input_logit(pos_embeddings[distances[distances < context_length]])  # [R'] no row at T or later
uh = u[:head_dim]  # [dh] head 1's share of u
interleaved = pairing == "interleaved"
q = apply_rotary(uh.expand(len(distances), head_dim), distances, base, interleaved)  # [R, dh] at r
k = apply_rotary(uh[None], torch.zeros(1, dtype=torch.long), base, interleaved)[0]  # [dh] at 0
bucket = _relative_position_bucket(-distances, False, buckets, max_distance)  # [R] key r back (causal)
curves = {
    "nope": torch.zeros(len(distances), dtype=torch.float64),  # position adds nothing
    "learned": learned,
    "sinusoidal": input_logit(sinusoidal(distances, output_dim, base, layout)),
    "shaw": rel_k.double()[relative_positions(distances, clip)[:, 0]] @ uh / math.sqrt(head_dim),  # u·a^K
    "t5": t5_bias[bucket, 0].double(),  # a learned bias per bucket, head 1
    "alibi": (torch.tensor(get_slopes(heads))[0] * -distances).double(),  # -m·r, head 1's slope
    "rope": (q @ k - uh @ uh) / math.sqrt(head_dim),  # depends on r only
}
for method, y in curves.items():  # a learned table has rows 0 … T-1 only: its curve stops there
    stop = "" if len(y) == len(distances) else " (no value past it)"
    print(f"{method:>10}: r = 0 -> {y[0]:+.4f}, r = {distances[len(y) - 1]} -> {y[-1]:+.4f}{stop}")
curves = {method: y.tolist() for method, y in curves.items()}  # [R] each, the learned one [R']
print(json.dumps({"distances": distances.tolist(), "curves": curves}, allow_nan=False))  # strict JSON"""


def families_script(cfg: PipelineConfig, fam: FamilyConfig) -> Script:
    """The script that prints chart 1 of the Families page for ``cfg`` and ``fam``: every family's
    position-only contribution to the attention logit against distance."""
    settings = f"""{import_block("import json", "import math", "import torch")}

vocab_size = {cfg.vocab_size}  # V
output_dim = {cfg.output_dim}  # d
context_length = {cfg.context_length}  # T: the trained length
seed = {cfg.seed}
heads = {fam.heads}  # H
base = {fam.base!r}  # sinusoidal and RoPE frequency base (10000 in the paper, 500000 in LLaMA 3)
layout = "{fam.layout}"  # Vaswani §3.5; concat: [sin | cos] (Transformer-XL, tensor2tensor)
# fairseq: [sin | cos] of base^(-i/(d/2-1)) (fairseq's SinusoidalPositionalEmbedding.get_embedding)
pairing = "{fam.pairing}"  # (2i, 2i+1): RoFormer, Meta's LLaMA; halves (i, i + d/2): rotate_half, NeoX, HF
buckets = {fam.buckets}  # T5's buckets
max_distance = {fam.max_distance}  # T5: offsets past it share the last bucket
clip = {fam.clip}  # Shaw's k: offsets past ±k share one vector
init = "{fam.init}"  # std: torch 1 (nn.Embedding), openai 0.01 (GPT-2's code), hf 0.02 (HF's GPT-2)
extrapolate = {fam.extrapolate}  # used length = extrapolate × T"""
    cells = [
        Cell("Settings (the sidebar's and the page's)", settings),
        Cell(CANONICAL_HEADING, CANONICAL),
        Cell(
            "The distances, and the content u that query and key share (only their positions differ)", CONTENT
        ),
        Cell(
            "The seeded tables: learned positions (after the token table, as in the lesson), T5, Shaw",
            ROW_SEED + _learned_cell(cfg) + "\n\n" + SEEDED,
        ),
        Cell("What position alone adds to the score, per family", CURVES),
    ]
    about = (
        "Chart 1 of the Families page: each curve, then one JSON line. It reads no file and needs no network."
    )
    return Script("families", "What position alone adds to an attention score, per family", about, cells)


def _learned_cell(cfg: PipelineConfig) -> str:
    """The lesson's two tables from one seed; past 2^25 elements the app's learned rows differ (comment)."""
    V, d = cfg.vocab_size, cfg.output_dim
    gb = V * d * 4 / 1e9
    note = ""
    if V * d > EXACT_MAX_ELEMENTS:
        note = f"# The app never draws this {V:,} × {d:,} table ({gb:.2f} GB): "
        note += "its learned rows differ from these.\n"
    table = "token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)  # drawn first, unused here\n"
    if V * d > PLAIN_MAX_ELEMENTS:
        table = "# Not drawn here either (over 1 GB): the learned table comes right after the seed.\n"
    return (
        note
        + "torch.manual_seed(seed)\n"
        + table
        + "pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)  # the next draws\n"
        + 'std = {"torch": 1.0, "openai": 0.01, "hf": 0.02}[init]  # N(0, std²) from the N(0, 1) draws\n'
        + "pos_embeddings = pos_embedding_layer.weight.detach() * std  # [T, d]"
    )
