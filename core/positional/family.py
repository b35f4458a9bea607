"""What a positional-encoding family is, as one record: every page, script, fact box and the model read it.

To add a family, write one module in ``core/positional/`` that ends with ``FAMILY = Family(...)``, and
add its module's name to ``FAMILY_MODULES`` in ``core/positional/__init__.py``; nothing else. Only the
fields up to ``describe_logits`` are required. For any other a family leaves out, whatever reads it
uses a generic one, built from the family's hooks or its words (``where``, ``gives``, ``source``), and
its colour and dash are the ones ``core.views.colors`` keeps for a new family; a close-up view
``ui/families/<name>.py`` is optional too. ``register`` adds a family at run time (the tests do).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn

from core.embeddings import TableRows
from core.views.colors import NEXT_FAMILY_COLOR, NEXT_FAMILY_DASH
from core.views.glossary import define


@dataclass(frozen=True)
class Param:
    """One setting of a family, bound to the URL parameter ``key`` (also ``FamilyConfig``'s attribute)."""

    key: str  # URL key and attribute name
    label: str  # widget label; also names the setting in messages
    default: int | float | str
    help: str  # the widget's tooltip, in the lecture's words
    low: int | float | None = None  # numbers: the smallest allowed value (inclusive)
    high: int | float | None = None  # numbers: the largest allowed value (inclusive)
    options: tuple = ()  # choices: the allowed values, the default among them
    # A sentence that defines the glossary words of ``label`` (core.views.glossary), shown above the
    # settings: a widget's label is read before anything under it.
    words: str = ""
    # What the list shows for each of ``options``, in the same order, in a student's words (the URL and
    # the code keep the options themselves); none: the options as they are.
    option_words: tuple[str, ...] = ()
    script: str = ""  # its comment in a script's settings ("" : its label); may go on as "\n# ..." lines

    def script_line(self, value: object) -> str:
        """Its line in a script's settings: ``key = value  # comment`` (strings in double quotes)."""
        literal = f'"{value}"' if isinstance(value, str) else repr(value)
        return f"{self.key} = {literal}  # {self.script or self.label}"

    def shown(self, value: object) -> str:
        """What the list shows for the option ``value``."""
        words = dict(zip(self.options, self.option_words, strict=False))
        return words.get(value, str(value))

    def check(self, value: object) -> None:
        """Raise ``ValueError`` naming the setting when ``value`` is out of its range or options."""
        if self.options:
            if value not in self.options:
                allowed = ", ".join(map(str, self.options))
                raise ValueError(f"{self.label}: {value!r} is not one of {allowed}.")
            return
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        if not low <= value <= high:  # also False for NaN
            raise ValueError(f"{self.label} must be between {low:,} and {high:,} (it is {value:,}).")


@dataclass(frozen=True)
class LogitInputs:
    """What every family's position-only logit is computed from (see ``core.families``)."""

    distances: torch.Tensor  # [R] query positions r; the key is at position 0
    fam: FamilyConfig
    dim: int  # d
    seed: int
    rows: TableRows | None  # an additive family's table rows covering 0 and ``distances``
    context_length: int  # T, the trained length


@dataclass(frozen=True)
class ScoreInputs:
    """What a family that adds a term to one head's attention scores reads (see ``core.attention``)."""

    q: torch.Tensor  # [T, dh] the head's queries, projected from the token embeddings
    positions: torch.Tensor  # [T] the tokens' positions
    head: int  # h, 0-based, of ``fam.heads``
    fam: FamilyConfig
    dim: int  # d; the head dim is dh = d / H
    seed: int  # the untrained tables' seed
    causal: bool  # a decoder's attention (keys after the query masked); T5 buckets its offsets so


# A family's hooks: (T, d, fam) -> trainable positional parameters of one layer.
ParameterCount = Callable[[int, int, "FamilyConfig"], int]


def no_parameters(context_length: int, dim: int, fam: FamilyConfig) -> int:
    """A family with nothing to train."""
    return 0


# A piece of a script: the app's own functions (shown as their source, core.scripts.common.source) and
# lines of code, in order; the script puts two blank lines between them.
Code = tuple[Callable | str, ...]


@dataclass(frozen=True)
class ScriptCode:
    """What each page's script (``core.scripts``) shows of a family, in the scripts' own names.

    Every piece is optional. For one a family leaves empty, the script writes what its hooks need: lines
    that call them through the app (that script then runs from the app's folder only), its settings'
    lines from its ``params``, a pair's plain term; and nothing where there is nothing to show (no
    functions, no tables, no trained table to measure).
    """

    # Its functions as its paper writes them: the Families, Training and Why position? scripts.
    functions: Code = ()
    # The Families script (chart 1): lines drawing its untrained tables (a seeded family's come right
    # after the token table), lines that prepare its curve, and its curve, an expression of the
    # distances [R] that gives [R] float64, with its comment.
    tables: str = ""
    curve_setup: str = ""
    curve: str = ""
    # The Pipeline's and Why position?'s lines that make ``pos_embeddings``, [T, d] and [N, d], after
    # ``functions`` (an additive family; a seeded one's lines come after the scripts' note on its draws).
    pipeline_rows: str = ""
    why_position_rows: str = ""
    # The Attention script, one head: its settings' lines (a template of the families' settings
    # ``fam``), its cell, the lines of ``attention(tok)`` that make ``scores`` [T, T] (from ``content``,
    # ``q0``, ``k0``, ``tok``, ``positions``), and a pair's own term read from a map ``m``.
    attention_settings: str = ""
    attention_cell: Code = ()
    attention_scores: str = ""
    attention_term: str = ""
    # The Training script's tiny GPT (a trainable family): its functions (default ``functions``), and the
    # lines of ``TinyGPT.__init__``, of its forward on ``input_embeddings``, of the attention on ``q``
    # and ``k``, and on the ``mask``, each led by a "# ..." line that says what it does; and its trained
    # table, whose neighbours' likeness the run records.
    training_functions: Code | None = None
    training_init: str = ""
    training_input: str = ""
    training_qk: str = ""
    training_mask: str = ""
    training_table: str = ""


# A family's key fact on the Attention page: (fam, head 0-based, the distances back its pairs use, each
# ≥ 1, causal, consequence: also what follows for a pair's term) -> one or a few sentences.
KeyFact = Callable[["FamilyConfig", int, list[int], bool, bool], str]


@dataclass(frozen=True)
class Family:
    """A positional-encoding family as a student meets it, and what the app computes with it."""

    name: str  # the URL value of ``method``
    label: str  # short display name
    kind: str  # "none", "absolute" or "relative"
    injects: str  # where position enters the model, in a few words
    where: str  # the same as a sentence ("RoPE rotates each query and key ..."); "" for nowhere
    source: str  # paper and the code people copy
    # What a position past the trained length gets, as the Families table says it: a phrase, or one
    # built from the trained length T, d and the settings (``past_trained``).
    extrapolates: str | Callable[[int, int, FamilyConfig], str]
    help: str  # one line for the sidebar's method picker, "name: ..." in the lecture's words
    gives: str  # what it gives a position, a clause after its name ("gives each position ..."), plain words
    logits: Callable[[LogitInputs], torch.Tensor]  # position-only logit [R] float64 at ``distances``
    describe_logits: Callable[[str, torch.Tensor, torch.Tensor, int, FamilyConfig], str]
    # (label, r [R], y [R], T, fam) -> one sentence on what its logit curve shows, from the numbers
    params: tuple[Param, ...] = ()  # its own settings on the Families page
    check: Callable[[FamilyConfig, int, int], None] | None = None  # (fam, d, T): settings that cannot work
    parameter_count: ParameterCount = no_parameters
    # Families that add a [T, d] table to the input (learned, sinusoidal): (positions [P], T, d, seed,
    # fam, generator state after the token table) -> TableRows at the positions that have a row.
    input_rows: Callable[..., TableRows] | None = None
    fixed_length: bool = False  # no row past the trained length (a learned table)
    seeded: bool = False  # rows drawn from the lesson's generator right after the token table
    pipeline_code: str = ""  # the lesson's lines that make ``pos_embeddings``
    table_name: str = ""  # what the Pipeline's lookup diagram calls its table
    input_note: str = ""  # the Pipeline's sentence on its table
    # Position vectors whose cosine similarity chart 2 shows: (positions [P], d, fam) -> [P, k].
    vectors: Callable[[torch.Tensor, int, FamilyConfig], torch.Tensor] | None = None
    # Hooks of the tiny GPT (core.training.model); a family without ``trainable`` cannot be trained there.
    trainable: bool = False
    input_module: Callable[[int, int], nn.Module] | None = None  # (T, d) -> x [B, T, d] ↦ [B, T, d]
    rotate: Callable[[torch.Tensor, torch.Tensor, float], torch.Tensor] | None = None  # q/k, positions, base
    attention_bias: Callable[[int, torch.Tensor], torch.Tensor] | None = None  # (H, positions [T]) -> [H,T,T]
    # A term of one head's scores that needs the family's own tables or the queries (T5's bucket bias,
    # Shaw's q·a^K), added to q·kᵀ/√dh: ScoreInputs -> [T, T] (the Attention page, core.attention).
    score_bias: Callable[[ScoreInputs], torch.Tensor] | None = None
    # Its colour on every chart and its line's dash where families share one: the seven's from
    # ``core.views.colors.FAMILY_COLORS`` and ``FAMILY_DASHES``, a new family's the one kept for it.
    color: str = NEXT_FAMILY_COLOR
    dash: tuple[int, ...] = NEXT_FAMILY_DASH
    code: ScriptCode = ScriptCode()  # what the pages' scripts show of it
    key_fact: KeyFact | None = None  # none: a fact from ``where`` and its hooks (core.attention.facts)
    curve_reads_seed_and_dim: bool = True  # False: chart 1's curve is the same at every seed and d
    featured: bool = False  # the one of its kind the pages offer as the example (what most models use)
    # The Training page: how it gives position and that training leaves it as it is ("": from its label).
    stays_in_training: str = ""
    parameters_name: str = ""  # what a model's parameter count calls its trained numbers ("": from its label)

    @property
    def additive(self) -> bool:
        """Whether it adds a [T, d] table to the token embeddings (the lesson's broadcasting add)."""
        return self.input_rows is not None

    def past_trained(self, context_length: int, dim: int, fam: FamilyConfig) -> str:
        """What a position past the trained length ``context_length`` gets, for d and the settings."""
        said = self.extrapolates
        return said if isinstance(said, str) else said(context_length, dim, fam)


# Settings every family shares on the Families page.
HEADS = Param(
    "heads",
    "Heads H",
    8,
    "How many attentions a layer runs side by side. ALiBi gives each head its own slope and T5 its own "
    "numbers; Shaw and RoPE work on each head's share of a vector, d / H numbers.",
    low=1,
    high=128,
    script="H",
    words=f"{define('head', 'Heads')}: some methods give each head numbers of its own, others work on each "
    "head's share of a vector, d / H numbers.",
)
EXTRAPOLATE = Param(
    "extrapolate",
    "How far the charts go",
    2,
    "How far the charts look past the trained length (the sidebar's context length T): the used length is "
    "this many times T.",
    options=(1, 2, 4, 8),
    option_words=("T, the trained length", "2 × T", "4 × T", "8 × T"),
    script="used length = extrapolate × T",
)
MAX_USED_LENGTH = 65_536  # positions any family is evaluated at (used length = factor × context)


class FamilyConfig:
    """The Families page's settings: the shared ones and every registered family's own.

    ``FamilyConfig(clip=8)`` sets Shaw's clip and leaves every other setting at its default; read
    them as attributes (``fam.clip``). Frozen and hashable, so pages can cache on it.
    """

    __slots__ = ("_values",)

    def __init__(self, **values: object):
        specs = all_params()
        unknown = set(values) - set(specs)
        if unknown:
            raise TypeError(f"Unknown family setting(s): {', '.join(sorted(unknown))}.")
        merged = {key: values.get(key, p.default) for key, p in specs.items()}
        object.__setattr__(self, "_values", tuple(merged.items()))

    def __getattr__(self, key: str):
        for k, v in object.__getattribute__(self, "_values"):
            if k == key:
                return v
        raise AttributeError(key)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("FamilyConfig is frozen; use replace().")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FamilyConfig) and self._values == other._values

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return "FamilyConfig(" + ", ".join(f"{k}={v!r}" for k, v in self._values) + ")"

    def __reduce__(self):  # pickled (copied to another process, say) as its values
        return (_family_config, (self._values,))

    def as_dict(self) -> dict[str, object]:
        return dict(self._values)

    def items(self) -> tuple[tuple[str, object], ...]:
        """Every setting as (key, value) pairs: a plain, hashable key for caches."""
        return self._values

    def replace(self, **changes: object) -> FamilyConfig:
        return FamilyConfig(**{**self.as_dict(), **changes})

    def validate(self, dim: int, context_length: int) -> None:
        """Raise ``ValueError`` with a message for the first setting that cannot work."""
        for key, param in all_params().items():
            param.check(getattr(self, key))
        if dim % self.heads:
            raise ValueError(
                f"The embedding dim {dim} does not split into {self.heads} heads: RoPE and Shaw act on "
                f"each head's {dim}/{self.heads} dimensions. Pick heads that divide {dim}."
            )
        if self.extrapolate * context_length > MAX_USED_LENGTH:
            raise ValueError(
                f"The used length {self.extrapolate} × {context_length:,} is over {MAX_USED_LENGTH:,} "
                "positions: lower the factor or the context length."
            )
        for family in FAMILIES.values():
            if family.check is not None:
                family.check(self, dim, context_length)


def _family_config(values: tuple) -> FamilyConfig:
    return FamilyConfig(**dict(values))


FAMILIES: dict[str, Family] = {}  # name -> family, in the app's order: core.positional's list fills it


def register(family: Family) -> Family:
    """Add ``family`` to ``FAMILIES``, last: the list in ``core.positional`` does for each module, and a
    caller may at run time. Raises ``ValueError`` when another record already has its name."""
    if FAMILIES.setdefault(family.name, family) is not family:
        raise ValueError(f"A family named {family.name!r} is already registered.")
    return family


def all_params() -> dict[str, Param]:
    """Every setting by key: heads, each family's own (once per key), the used length's factor."""
    specs: dict[str, Param] = {HEADS.key: HEADS}
    for family in FAMILIES.values():
        for p in family.params:
            if specs.setdefault(p.key, p) != p:
                raise ValueError(f"Two families define the setting {p.key!r} differently.")
    return {**specs, EXTRAPOLATE.key: EXTRAPOLATE}


def seeded_normal(shape: tuple[int, ...], std: float, seed: int, stream: int) -> torch.Tensor:
    """N(0, std²) values from a generator of their own (``stream`` separates the tables)."""
    g = torch.Generator().manual_seed(seed * 1_000_003 + stream)
    return torch.randn(shape, generator=g) * std


def content_vector(dim: int, seed: int) -> torch.Tensor:
    """The content u that query and key share in the position-only logit: [d] N(0, 1), float64."""
    return seeded_normal((dim,), 1.0, seed, stream=3).double()


def additive_logits(x: LogitInputs, rows_end: int | None = None) -> torch.Tensor:
    """Position-only logit of an input-added table: ((u + p_r)·(u + p_0) − u·u) / √d, [R] float64.

    ``rows_end``: the table has rows only below it (a learned table: T); farther positions give NaN.
    """
    r, u = x.distances.long(), content_vector(x.dim, x.seed)  # [R], [d]
    out = torch.full((len(r),), math.nan, dtype=torch.float64)
    inside = r < rows_end if rows_end is not None else torch.ones(len(r), dtype=torch.bool)  # [R]
    p = x.rows.lookup(r[inside]).double()  # [R', d]
    p0 = x.rows.lookup(torch.zeros(1, dtype=torch.long)).double()[0]  # [d]
    out[inside] = ((u + p) @ (u + p0) - u @ u) / math.sqrt(len(u))
    return out


def flat_from(distances: torch.Tensor, y: torch.Tensor) -> int | None:
    """The first drawn distance from which ``y`` [R] stays at its last value (None: no flat tail)."""
    same = (y - y[-1]).abs() <= 1e-12 * max(1.0, float(y.abs().max()))  # [R]
    if len(y) < 3 or not bool(same[-3:].all()):
        return None
    k = len(y) - 1
    while k > 0 and bool(same[k - 1]):
        k -= 1
    return int(distances[k])


def flat_tail_sentence(label: str, r: torch.Tensor, y: torch.Tensor, limit: str, last_distinct: int) -> str:
    """Whether a clipped or bucketed curve ``y`` [R] is flat by the end, from its numbers.

    ``last_distinct``: the first distance the family no longer tells apart; equal values before it
    are a coincidence of the draw, not the flat tail.
    """
    start = flat_from(r, y)
    if start is not None and start < last_distinct:
        start = None
    if start is None:
        return f"{label} still changes at the last drawn distance ({int(r[-1]):,}; {limit})."
    return f"{label} is flat from distance {start:,} on ({limit}): all farther keys look alike to it."
