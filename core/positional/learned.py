"""Learned absolute positions (GPT-2): ``nn.Embedding(context_length, d)(torch.arange(T))``.

The table starts as N(0, 1) noise (torch's default init, as in the lesson) and is learned in
training. Its rows come from ``core.embeddings`` so that, like the lesson's code, they are drawn
from the same seeded generator right after the token embedding table.
"""

from __future__ import annotations

import torch
from torch import nn

from core.embeddings import TableRows, learned_position_rows
from core.positional.family import Family, FamilyConfig, LogitInputs, Param, ScriptCode, additive_logits
from core.views.colors import FAMILY_COLORS, FAMILY_DASHES
from core.views.glossary import define

INITS = {"torch": 1.0, "openai": 0.01, "hf": 0.02}  # init name -> std of N(0, std²)
INIT = Param(
    "init",
    "Learned table's random start",
    "torch",
    "How spread out the untrained table's random numbers are, before training optimizes them: torch "
    "draws them as the lecture's code does (spread 1), openai as GPT-2's released code (spread 0.01), hf "
    "as Hugging Face's copy of GPT-2 (spread 0.02).",
    options=tuple(INITS),
    option_words=(
        "spread 1, as the lecture's code (torch)",
        "spread 0.01, as GPT-2's code (openai)",
        "spread 0.02, as Hugging Face's GPT-2 (hf)",
    ),
    script="std: torch 1 (nn.Embedding), openai 0.01 (GPT-2's code), hf 0.02 (HF's GPT-2)",
)


def learned_rows(
    positions: torch.Tensor,
    context_length: int,
    dim: int,
    seed: int,
    fam: FamilyConfig,
    state_after: torch.Tensor | None,
) -> TableRows:
    """Rows of the table, N(0, std²) for ``fam.init``, at ``positions`` [P] below the context length.

    ``state_after``: the generator's state after the token table (None when row-seeded); positions at
    or past the context length have no row and are left out.
    """
    positions = positions[positions < context_length]  # [P']
    rows = learned_position_rows(positions, context_length, dim, seed, state_after)  # [P', d]
    return TableRows(positions, rows * INITS[fam.init])


class LearnedPositions(nn.Embedding):
    """GPT-2's table as a model part: adds row t of ``nn.Embedding(T, d)`` to the tokens at position t."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _, T, _ = x.shape
        if T > self.num_embeddings:
            raise ValueError(
                f"A learned table has {self.num_embeddings} rows: it has no position "
                f"{self.num_embeddings} or later (nn.Embedding would raise IndexError)."
            )
        return x + super().forward(torch.arange(T, device=x.device))  # [B, T, d] + [T, d]


def describe_learned(
    label: str, r: torch.Tensor, y: torch.Tensor, context_length: int, fam: FamilyConfig
) -> str:
    T = context_length
    inside = r < T
    v = y[inside]
    past = (
        ""
        if bool(inside.all())
        else f"; past r = {T - 1:,} it has no rows, so its curve stops: a table is only as long as it was "
        f"built (nn.Embedding({T:,}, d) has rows 0 … {T - 1:,}), and a longer table is a different, bigger "
        "one"
    )
    if len(v) == 1:  # T = 1: one row, so no range and no trend to speak of
        only = float(v[0])
        return f"{label} (untrained) has one row: {only:+.3f} at r = 0, where a position meets itself{past}."
    return (
        f"{label} (untrained) goes from {float(v.min()):+.3f} to {float(v.max()):+.3f} with no trend"
        f", {float(v[0]):+.3f} at r = 0 where a position meets itself{past}."
    )


def learned_past(context_length: int, dim: int, fam: FamilyConfig) -> str:
    """A learned table past its rows: nothing to look up."""
    T = context_length
    rows = "row 0 only" if T == 1 else f"rows 0 … {T - 1:,} only"
    return f"nothing: the table has no row {T:,} ({rows})"


def learned_logits(x: LogitInputs) -> torch.Tensor:
    return additive_logits(x, rows_end=x.context_length)  # no row at T or later: NaN


# Each init's std as the scripts write it out: {"torch": 1.0, ...}.
STDS = "{" + ", ".join(f'"{name}": {std}' for name, std in INITS.items()) + "}"
CODE = ScriptCode(
    tables="""pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)  # the next draws
std = {stds}[init]  # N(0, std²) from the N(0, 1) draws
pos_embeddings = pos_embedding_layer.weight.detach() * std  # [T, d]
print("pos_embeddings:", pos_embeddings.shape)""".replace("{stds}", STDS),
    curve_setup="""\
learned = input_logit(pos_embeddings[distances[distances < context_length]])  # [R'] no row at T or later""",
    curve="learned",
    pipeline_rows="""pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)
pos_embeddings = pos_embedding_layer(torch.arange(max_length))  # [T, d]""",
    why_position_rows="""context_length = max(context_length, num_positions)
pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)
pos_embeddings = pos_embedding_layer(torch.arange(num_positions))  # [N, d]""",
    attention_settings='init = "{fam.init}"  # the table\'s std: torch 1, openai 0.01, hf 0.02',
    attention_cell=(
        f"""pos_embedding_layer = torch.nn.Embedding(max(context_length, num_positions), output_dim)
std = {INITS}[init]  # N(0, std²) from the N(0, 1) draws
pos_embeddings = pos_embedding_layer.weight[:num_positions] * std  # [N, d]""",
    ),
    training_init="""# GPT-2: one trained row per position, none past T
self.pos_embedding_layer = nn.Embedding(cfg.context_length, cfg.emb_dim)""",
    training_input="""pos_embeddings = self.pos_embedding_layer(torch.arange(T))  # [T, d]
input_embeddings = input_embeddings + pos_embeddings  # [B, T, d] + [T, d]""",
    training_table="model.pos_embedding_layer.weight",
)

FAMILY = Family(
    name="learned",
    label="Learned absolute",
    kind="absolute",
    injects="input add",
    where="the learned table adds one trained vector per position to the input",
    source="GPT-2 (Radford et al. 2019)",
    extrapolates=learned_past,
    help="learned: one vector per position, optimized in training (GPT-2, the lecture's code).",
    gives="gives each position its own row of a table, a vector that training optimizes like the token "
    "embeddings",
    logits=learned_logits,
    describe_logits=describe_learned,
    params=(INIT,),
    parameter_count=lambda T, d, fam: T * d,
    input_rows=learned_rows,
    fixed_length=True,
    table_name="pos_embedding_layer",
    input_note=f"Learned: random for now, drawn from {define('N(0, 1)')}; training changes them later.",
    seeded=True,
    pipeline_code="pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)\n"
    "pos_embeddings = pos_embedding_layer(torch.arange(max_length))",
    trainable=True,
    input_module=LearnedPositions,
    color=FAMILY_COLORS["learned"],
    dash=FAMILY_DASHES["learned"],
    code=CODE,
    parameters_name="position table",
)
