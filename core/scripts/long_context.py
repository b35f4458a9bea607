"""The Long context page as a script: one RoPE config's scaled frequencies, the pairs it keeps or
slows down, the position-only score out to L' beside plain RoPE, and its attention factor.

Only the config's own ``rope_type`` function is written out, as transformers computes it (so the values
equal ``core.positional.rope_scaling.scaled_inv_freq``'s; the tests check both, and a drift guard runs
the script's functions against core's).
"""

from __future__ import annotations

import json
import textwrap

from core.positional.long_context_config import RopeConfig
from core.positional.rope_scaling import VARIANTS
from core.scripts import Cell, Script
from core.scripts.common import comment, import_block

FUNCTION_HEADING = "This config's frequencies, as transformers computes them"
SCORE_HEADING = "What the page measures: regimes, unseen angles, the position-only score"

PLAIN = '''def plain_inv_freq(dim):
    """Plain RoPE (Su et al. 2021): θ_i = base^(-2i/dim), in float32 as transformers: [dim/2]."""
    return 1.0 / (rope_theta ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))'''

FUNCTIONS = {
    "default": """def scaled_inv_freq():
    # plain RoPE: nothing is rescaled
    return plain_inv_freq(dim), 1.0""",
    "linear": """def scaled_inv_freq():
    # position interpolation: position p is read as p / s, the same as every θ divided by s
    return plain_inv_freq(dim) / factor, 1.0""",
    "dynamic": """def scaled_inv_freq(seq_len=L_ext):
    # NTK-aware: a larger base, recomputed for the current length (here L')
    seq_len = max(seq_len, max_position_embeddings)
    base = rope_theta * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim)), 1.0""",
    "yarn": """def get_mscale(scale, mscale=1.0):
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def scaled_inv_freq():
    # keep pairs that turn beta_fast times within L, divide those under beta_slow turns by s, ramp between
    p = rope_parameters
    attention_factor = p.get("attention_factor")
    if attention_factor is None:  # DeepSeek writes mscale and mscale_all_dim
        if p.get("mscale") and p.get("mscale_all_dim"):
            attention_factor = get_mscale(factor, p["mscale"]) / get_mscale(factor, p["mscale_all_dim"])
        else:
            attention_factor = get_mscale(factor)  # Peng et al. 2023: 0.1 ln s + 1
    beta_fast, beta_slow = p.get("beta_fast") or 32, p.get("beta_slow") or 1

    def pair_turning(turns):  # the pair that turns `turns` times within L
        return dim * math.log(L / (turns * 2 * math.pi)) / (2 * math.log(rope_theta))

    low, high = pair_turning(beta_fast), pair_turning(beta_slow)
    if p.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    high = high + 0.001 if low == high else high
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)  # [dim/2]
    pos_freqs = rope_theta ** (torch.arange(0, dim, 2).float() / dim)  # [dim/2]
    keep = 1 - ramp  # [dim/2] 1: kept as trained, 0: slowed by s
    inv_freq = (1.0 / (factor * pos_freqs)) * (1 - keep) + (1.0 / pos_freqs) * keep
    return inv_freq, attention_factor""",
    "llama3": """def scaled_inv_freq():
    # keep wavelengths under L / high_freq_factor, divide those over L / low_freq_factor by s, blend between
    low, high = rope_parameters["low_freq_factor"], rope_parameters["high_freq_factor"]
    inv_freq = plain_inv_freq(dim)  # [dim/2]
    wavelen = 2 * math.pi / inv_freq  # [dim/2]
    inv_freq_llama = torch.where(wavelen > L / low, inv_freq / factor, inv_freq)  # [dim/2]
    smooth = (L / wavelen - low) / (high - low)  # [dim/2]
    smoothed = (1 - smooth) * inv_freq_llama / factor + smooth * inv_freq_llama  # [dim/2]
    medium = ~(wavelen < L / high) * ~(wavelen > L / low)  # [dim/2]
    return torch.where(medium, smoothed, inv_freq_llama), 1.0""",
    "longrope": """def scaled_inv_freq(seq_len=L_ext):
    # one searched divisor per pair: short_factor up to L, long_factor past it
    chosen = rope_parameters["long_factor" if seq_len > L else "short_factor"]
    attention_factor = rope_parameters.get("attention_factor")
    if attention_factor is None:
        attention_factor = math.sqrt(1 + math.log(factor) / math.log(L)) if factor > 1 else 1.0
    shape = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim  # [dim/2]
    return 1.0 / (torch.tensor(chosen, dtype=torch.float32) * rope_theta**shape), attention_factor""",
    "proportional": """def scaled_inv_freq():
    # only the first share of the head's pairs turns, at a whole head's frequencies; the rest keep θ = 0
    rope_angles = int(rope_parameters.get("partial_rotary_factor", 1.0) * head_dim // 2)
    exponents = torch.arange(0, 2 * rope_angles, 2, dtype=torch.int64).float() / head_dim  # [n]
    inv_freq = torch.cat((1.0 / (rope_theta**exponents), torch.zeros(head_dim // 2 - rope_angles)))
    return inv_freq / rope_parameters.get("factor", 1.0), 1.0""",
}

MEASURES = '''def regime(plain, scaled):
    """What scaling did to one pair, from its slow-down θ_plain / θ_scaled."""
    if scaled == 0:
        return "never turned (θ = 0)"
    ratio = plain / scaled
    if abs(ratio - 1) <= 1e-4:
        return "kept as trained"
    if abs(ratio - factor) <= 1e-4 * factor:
        return "slowed by s"
    if ratio < 1:
        return "sped up"
    return "slowed by less than s" if ratio < factor else "slowed by more than s"


def unseen(inv_freq, trained):
    """Pairs that reach, by L', an angle plain RoPE never reached within L (nor turned a full circle)."""
    seen = L * trained.double()  # [n]
    return int(((seen < 2 * math.pi) & (L_ext * inv_freq.double() > seen * (1 + 1e-4))).sum())


def banded_score(inv_freq, attention_factor, distances):
    """q·k / q·q for the all-ones head, averaged over every distance from each r to the next one: [R].

    Σ_(r=a..b-1) cos(rθ) = (sin((b - ½)θ) - sin((a - ½)θ)) / (2 sin(θ/2)), and b - a when θ = 0.
    """
    a = distances.double()  # [R]
    b = torch.cat((a[1:], a[-1:] + 1))  # [R]
    theta = inv_freq.double()  # [n]
    half = torch.sin(theta / 2)  # [n]
    still = half == 0
    sums = (torch.sin((b[:, None] - 0.5) * theta) - torch.sin((a[:, None] - 0.5) * theta)) / (
        2 * torch.where(still, torch.ones_like(half), half)
    )  # [R, n]
    sums = torch.where(still, (b - a)[:, None], sums)  # [R, n]
    rotated = attention_factor**2 * (sums / (b - a)[:, None]).sum(dim=-1)  # [R]
    return (rotated + (head_dim // 2 - len(inv_freq))) / (head_dim // 2)  # [R]


# about 400 whole distances from 1 to L', evenly spaced on a log axis
distances = torch.logspace(0, math.log10(L_ext), 400, dtype=torch.float64).round().long()
distances = torch.unique(torch.cat((distances, torch.tensor([L_ext]))))  # [R]'''


REGIMES_LINE = (
    'REGIMES = ["kept as trained", "slowed by less than s", "slowed by s", "slowed by more than s",\n'
    '           "sped up", "never turned (θ = 0)"]'
)

PAIRS = """inv_freq, attention_factor = scaled_inv_freq()  # [n], float
plain = plain_inv_freq(dim)  # [n] the same pairs without scaling
regimes = [regime(p, s) for p, s in zip(plain.tolist(), inv_freq.tolist(), strict=True)]
counts = {r: regimes.count(r) for r in dict.fromkeys(sorted(regimes, key=REGIMES.index))}
print(f"L = {L:,}, L' = {L_ext:,}, s = {factor:g}, attention factor {attention_factor:.4f}")
parts = ", ".join(f"{c:,} {r}" for r, c in counts.items())
print(f"Of the {len(regimes):,} pairs: {parts}." if len(regimes) > 1 else f"Its one pair: {regimes[0]}.")
unseen_plain, unseen_scaled = unseen(plain, plain), unseen(inv_freq, plain)
print(f"Pairs that meet, by L' = {L_ext:,}, angles never reached within L = {L:,}: {unseen_plain:,} "
      f"without scaling, {unseen_scaled:,} with this config.")"""

SCORES = """score_plain = banded_score(plain, 1.0, distances)  # [R]
score = banded_score(inv_freq, attention_factor, distances)  # [R]
for r in (1, L, L_ext):
    k = int(torch.searchsorted(distances, r))
    print(f"r = {r:,}: plain RoPE {score_plain[k]:+.4f}, this config {score[k]:+.4f}")

print(json.dumps({
    "original": L, "extended": L_ext, "factor": factor, "attention_factor": attention_factor,
    "plain_inv_freq": plain.tolist(), "inv_freq": inv_freq.tolist(), "regimes": regimes,
    "unseen_plain": unseen_plain, "unseen_scaled": unseen_scaled,
    "distances": distances.tolist(), "score_plain": score_plain.tolist(), "score": score.tolist(),
}))"""

ABOUT = (
    "Exported from Positional Embeddings Explorer. It prints the lengths, the factor and the attention "
    "factor, how many pairs the config keeps or slows down, how many pairs meet angles training "
    "never showed them, the position-only score at 1, L and L', and, last, one JSON line with those "
    "numbers."
)


def _literal(value: object) -> str:
    """A Python literal, strings in double quotes; a list of numbers wrapped to lines ruff takes."""
    if isinstance(value, list | tuple):
        body = ", ".join(repr(float(v)) for v in value)
        lines = textwrap.wrap(body, width=96, break_on_hyphens=False)
        return "[\n" + "".join(f"        {line}\n" for line in lines) + "    ]"
    return json.dumps(value) if isinstance(value, str) else repr(value)


def _settings_cell(cfg: RopeConfig, label: str) -> Cell:
    """The config's numbers as the script's settings, each length and factor with where it comes from."""
    imports = import_block("import json", "import math", "import torch")
    params = "".join(f"    {_literal(k)}: {_literal(v)},\n" for k, v in cfg.parameters().items())
    partial = cfg.parameters().get("partial_rotary_factor", 1.0)
    rotated = cfg.head_dim if cfg.rope_type == "proportional" else int(cfg.head_dim * partial)
    if "factor" in cfg.parameters():
        factor_note = "s"
    elif cfg.rope_type in ("yarn", "longrope"):
        factor_note = "s = max_position_embeddings / L"
    else:
        factor_note = "s: no extension"
    length_note = " (original_max_position_embeddings)" if cfg.reads_original else ""
    ext_note = "max(max_position_embeddings, s·L)" if cfg.reads_original else "s·L"
    settings = f"""{imports}

{comment(f"{label}: what its config.json says about rotary positions.")}
rope_type = {_literal(cfg.rope_type)}
head_dim = {cfg.head_dim}  # dh: the dims of one head that RoPE rotates
rope_theta = {cfg.base!r}  # the base
max_position_embeddings = {cfg.max_position_embeddings}
rope_parameters = {{\n{params}}}
dim = {rotated}  # the rotated dims (head_dim × partial_rotary_factor; proportional: the whole head)
L = {cfg.original}  # the trained length{length_note}
factor = {cfg.factor!r}  # {factor_note}
L_ext = {cfg.extended}  # L' = {ext_note}"""
    return Cell("Settings (the page's config)", settings)


def _function_cell(cfg: RopeConfig) -> Cell:
    """Plain RoPE's frequencies and the config's own ``rope_type`` function, with its paper."""
    variant = VARIANTS[cfg.rope_type]
    function = (
        f"{comment(f'{variant.name}: {variant.paper}; as {variant.reference}.')}\n"
        f"{PLAIN}\n\n\n{FUNCTIONS[cfg.rope_type]}"
    )
    return Cell(FUNCTION_HEADING, function)


def long_context_script(cfg: RopeConfig, label: str) -> Script:
    """The script that prints what the Long context page shows for ``cfg`` (named ``label`` there)."""
    cells = [
        _settings_cell(cfg, label),
        _function_cell(cfg),
        Cell(SCORE_HEADING, f"{REGIMES_LINE}\n\n\n{MEASURES}"),
        Cell("Which pairs scaling slows down", PAIRS),
        Cell("What position alone adds to a score, out to L'", SCORES),
    ]
    return Script("long_context", f"Long context: {label}'s RoPE scaling ({cfg.rope_type})", ABOUT, cells)
