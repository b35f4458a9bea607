"""Fixed sinusoidal positions (Vaswani et al. 2017, §3.5), in the three layouts found in code.

* ``"interleaved"`` (the paper): ``PE[p, 2i] = sin(p·base^(-2i/d))``, ``PE[p, 2i+1] = cos(same)``.
* ``"concat"``: the same frequencies as ``[sin(all) | cos(all)]`` (Transformer-XL's
  ``PositionalEmbedding``; the layout of tensor2tensor's ``get_timing_signal_1d``).
* ``"fairseq"``: fairseq ``SinusoidalPositionalEmbedding.get_embedding`` (which "matches the
  implementation in tensor2tensor"): frequencies ``base^(-i/(d/2-1))``, laid out ``[sin | cos]``.

All three use the same ``d/2`` sin/cos pairs up to the frequencies and the column order.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from core.embeddings import TableRows
from core.positional.family import Family, FamilyConfig, Param, ScriptCode, additive_logits
from core.views.colors import FAMILY_COLORS, FAMILY_DASHES

LAYOUTS = ("interleaved", "concat", "fairseq")
LAYOUT_WORDS = {  # each layout's order of a position's numbers, in plain words (its sources: the docstring)
    "interleaved": "each sine next to its cosine, as the 2017 paper",
    "concat": "all sines first, then all cosines",
    "fairseq": "all sines, then all cosines, with slightly different speeds",
}
SINUSOID_CHUNK_ELEMENTS = 2**18  # values computed at once


def check_sinusoidal(dim: int, layout: str) -> None:
    """Raise ``ValueError`` for an unknown layout or a dimension the layout cannot fill."""
    if layout not in LAYOUTS:
        raise ValueError(f"Unknown sinusoidal layout {layout!r}; choose one of {LAYOUTS}.")
    if dim % 2:
        raise ValueError(f"A sinusoidal encoding needs an even dimension (got {dim}).")
    if layout == "fairseq" and dim < 4:
        raise ValueError(
            f"The fairseq layout needs an even dimension of at least 4 (got {dim}): it divides by d/2 − 1."
        )


def sinusoidal_inv_freq(dim: int, base: float = 10000.0, layout: str = "interleaved") -> torch.Tensor:
    """Angular frequency of each sin/cos pair, in float64.

    Args:
        dim: d, even (at least 4 for ``"fairseq"``).
        base: 10000 in the paper.
        layout: one of ``LAYOUTS``.
    Returns:
        [d/2] float64: ``base^(-2i/d)``, or ``base^(-i/(d/2-1))`` for ``"fairseq"``.
    """
    check_sinusoidal(dim, layout)
    if layout == "fairseq":
        # Difference to the paper: the exponent runs over i/(d/2-1), so the last pair's wavelength is
        # exactly 2π·base, the paper's stated range; the paper's own formula stops at 2π·base^(1-2/d).
        half_dim = dim // 2
        return base ** (-torch.arange(half_dim, dtype=torch.float64) / (half_dim - 1))  # [d/2]
    return base ** (-torch.arange(0, dim, 2, dtype=torch.float64) / dim)  # [d/2]


def sinusoidal_wavelengths(dim: int, base: float = 10000.0, layout: str = "interleaved") -> torch.Tensor:
    """Wavelength ``2π / inv_freq`` of each sin/cos pair, in positions: [d/2] float64."""
    return 2 * math.pi / sinusoidal_inv_freq(dim, base, layout)  # [d/2]


def sinusoidal_at(
    positions: torch.Tensor, dim: int, base: float = 10000.0, layout: str = "interleaved"
) -> torch.Tensor:
    """``sinusoidal`` for any number of positions, in blocks of rows (its float64 temporaries stay small).

    Args:
        positions: [P] integer positions.
        dim: d, even (at least 4 for ``"fairseq"``).
        layout: ``"interleaved"`` (paper), ``"concat"`` or ``"fairseq"``.
    Returns:
        [P, d] float32.
    """
    check_sinusoidal(dim, layout)
    out = torch.empty(len(positions), dim)  # [P, d]
    rows = max(1, SINUSOID_CHUNK_ELEMENTS // dim)
    for start in range(0, len(positions), rows):
        out[start : start + rows] = sinusoidal(positions[start : start + rows], dim, base, layout)  # [p, d]
    return out


# The paper's formula as the page's scripts show it, computed in float64 and rounded once to float32, so
# every value is the float32 nearest the exact formula (a float32 computation drifts by up to ~1e-4 at
# large positions). fairseq's table starts at padding_idx + 1; here row p is position p itself.
def sinusoidal(positions, d, base=10000.0, layout="interleaved"):
    # Vaswani et al. 2017 §3.5: PE[p, 2i] = sin(p·base^(-2i/d)), PE[p, 2i+1] = cos(same); concat: [sin | cos]
    # (Transformer-XL); fairseq: [sin | cos] of base^(-i/(d/2-1)) (fairseq get_embedding). In float64.
    i = torch.arange(d // 2, dtype=torch.float64)  # [d/2] the pairs
    inv_freq = base ** (-i / (d // 2 - 1)) if layout == "fairseq" else base ** (-2 * i / d)  # [d/2]
    angles = positions.double()[:, None] * inv_freq  # [P, d/2]
    if layout == "interleaved":
        return torch.stack((angles.sin(), angles.cos()), dim=-1).flatten(1).float()  # [P, d/2, 2] -> [P, d]
    return torch.cat((angles.sin(), angles.cos()), dim=-1).float()  # [P, d]


# The frequency base, shared with RoPE (which rotates by the same frequencies).
BASE = Param(
    "base",
    "Base",
    10000.0,
    "How slow the slowest waves are, for the sinusoid and RoPE. Both use a vector's numbers two at a "
    "time: the first two go round once every 2π ≈ 6.3 positions, each next two more slowly, and the "
    "last about once every 2π × base positions. 10,000 in the 2017 paper; LLaMA 3 uses 500,000.",
    script="sinusoidal and RoPE frequency base (10000 in the paper, 500000 in LLaMA 3)",
)
LAYOUT = Param(
    "layout",
    "Sinusoid: order of the numbers",
    "interleaved",
    "The order of the sinusoid's numbers in a position's vector: "
    + "; ".join(f"{name}, {words}" for name, words in LAYOUT_WORDS.items())
    + ". The same kind of waves, in another order.",
    options=LAYOUTS,
    option_words=(
        "each sine beside its cosine, as the 2017 paper",
        "all sines, then all cosines",
        "sines, then cosines, other speeds (fairseq)",
    ),
    script="Vaswani §3.5; concat: [sin | cos] (Transformer-XL, tensor2tensor)\n"
    "# fairseq: [sin | cos] of base^(-i/(d/2-1)) (fairseq's SinusoidalPositionalEmbedding.get_embedding)",
)


def check_base(base: float) -> None:
    """Raise ``ValueError`` unless ``base`` > 1 (else the waves would not slow down pair by pair)."""
    if not base > 1:
        raise ValueError(f"The frequency base must be greater than 1 (it is {base:g}).")


def check_sinusoidal_settings(fam: FamilyConfig, dim: int, context_length: int) -> None:
    if dim % 2:
        raise ValueError(
            f"Sinusoidal positions pair a sine with a cosine, so the embedding dim must be even (it is "
            f"{dim}). Use {dim + 1} or {dim - 1}, or the learned method."
        )
    check_base(fam.base)
    check_sinusoidal(dim, fam.layout)


def sinusoidal_rows(
    positions: torch.Tensor, context_length: int, dim: int, seed: int, fam: FamilyConfig, state_after=None
) -> TableRows:
    """Rows of the table at ``positions`` [P] (any position has one): ``TableRows`` of [P, d]."""
    return TableRows(positions, sinusoidal_at(positions, dim, fam.base, layout=fam.layout))


class SinusoidalPositions(nn.Module):
    """The 2017 Transformer's input: token embeddings × √d plus the fixed table (no parameters)."""

    def __init__(self, context_length: int, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _, T, d = x.shape
        # Vaswani et al. §3.4 multiply the token embeddings by √d, so that the fixed waves (amplitude 1)
        # do not drown a GPT-2-style N(0, 0.02²) token embedding.
        return x * self.dim**0.5 + sinusoidal(torch.arange(T), d).to(x.device)  # [B, T, d] + [T, d]


def sinusoidal_past(context_length: int, dim: int, fam: FamilyConfig) -> str:
    """The waves past the trained length: a vector for any position, but one training never saw."""
    T = context_length
    seen = "position 0" if T == 1 else f"positions 0 … {T - 1:,}"
    return f"a vector by the same formula, but one training never saw (it saw {seen})"


def describe_sinusoidal(
    label: str, r: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig
) -> str:
    high = int(torch.argmax(y))
    return (
        f"{label} is highest at r = {int(r[high]):,} ({float(y[high]):+.3f}) and "
        f"{float(y[-1]):+.3f} at r = {int(r[-1]):,}: a smooth, rippling function of distance."
    )


CODE = ScriptCode(
    functions=(sinusoidal,),
    curve="input_logit(sinusoidal(distances, output_dim, base, layout))",
    pipeline_rows="""\
pos_embeddings = sinusoidal(torch.arange(context_length), output_dim)  # [T, d]: fixed, no parameters""",
    why_position_rows="pos_embeddings = sinusoidal(torch.arange(num_positions), output_dim)  # [N, d]: fixed",
    attention_settings="""base = {fam.base!r}  # frequency base
layout = "{fam.layout}"  # or concat, fairseq""",
    attention_cell=(
        sinusoidal,
        "pos_embeddings = sinusoidal(torch.arange(num_positions), output_dim, base, layout)  # [N, d]",
    ),
    training_input="""# §3.4: token embeddings × √d, or the waves would drown them
d = self.cfg.emb_dim
input_embeddings = input_embeddings * d**0.5 + sinusoidal(torch.arange(T), d)  # + [T, d]""",
)

FAMILY = Family(
    name="sinusoidal",
    label="Sinusoidal",
    kind="absolute",
    injects="input add",
    where="the sinusoidal table adds one fixed wave vector per position to the input",
    source="Vaswani et al. 2017 §3.5",
    extrapolates=sinusoidal_past,
    help="sinusoidal: one vector of fixed waves per position, nothing to train (the 2017 Transformer).",
    gives="gives each position a vector of fixed waves, the same in every model and defined for any position",
    logits=additive_logits,
    describe_logits=describe_sinusoidal,
    params=(BASE, LAYOUT),
    check=check_sinusoidal_settings,
    input_rows=sinusoidal_rows,
    pipeline_code=(
        "pos_embeddings = sinusoidal(torch.arange(max_length), output_dim)  # fixed, no parameters"
    ),
    table_name="sinusoidal(torch.arange(T), d)",
    input_note=(
        "Sinusoidal: fixed waves, fast in the first dimensions and slower in the later ones; nothing to "
        "train."
    ),
    trainable=True,
    input_module=SinusoidalPositions,
    color=FAMILY_COLORS["sinusoidal"],
    dash=FAMILY_DASHES["sinusoidal"],
    code=CODE,
    stays_in_training="Sinusoidal positions come from a formula of sine waves: training leaves them as they "
    "are and shapes the rest of the model to use them.",
)
