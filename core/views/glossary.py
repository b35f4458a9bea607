"""The words the lecture does not teach, each defined once, in the lecture's words.

Every page defines a term where a student first meets it, inline (``define``: the word, then its
definition in brackets), and the Glossary page lists them all. A page test reads each page's text in
reading order and fails on a term used before its definition (``first_undefined``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """One word a page uses that the lecture does not teach."""

    name: str  # the word as the glossary lists it
    gloss: str  # its definition, short enough to stand in brackets after the word
    uses: str  # a regular expression that finds the word, in any of its forms, in a page's text
    topic: str  # the glossary's section


VECTORS, TENSORS, ATTENTION, FAMILIES, INSIDE, LONG, TRAINING, MODELS, TODAY = (
    "Vectors and numbers",
    "Tensors in PyTorch",
    "Attention",
    "The positional methods",
    "Inside the methods",
    "Longer texts",
    "Training",
    "Trained models",
    "Today's models",
)

TERMS = (
    Term(
        "cosine similarity",
        "how alike two vectors' directions are: 1 when they point the same way, 0 when unrelated, −1 when "
        "opposite",
        r"(?<!sine and a )(?<!sine and )(?<!sine next to its )\bcos(?:ine)?s?\b",  # not the lecture's waves
        VECTORS,
    ),
    Term(
        "norm",
        "a vector's length: the square root of the sum of its squared numbers",
        r"\bnorms?\b",
        VECTORS,
    ),
    Term(
        "N(0, 1)",
        "random numbers from the bell-shaped normal distribution around 0 with a spread (standard "
        "deviation) of 1, so most fall between −2 and 2; N(0, 0.02²) has a spread of 0.02",
        r"N\(0, ?[0-9.]+²?\)|normal distribution",
        VECTORS,
    ),
    Term(
        "log scale",
        "an axis whose equal steps multiply instead of add (10, 100, 1,000, …), so small and huge numbers "
        "fit on one chart",
        r"\(log\)|\blog scale|\blogarithm",
        VECTORS,
    ),
    Term(
        "byte",
        "the unit of computer memory: one number from 0 to 255; GPT-2's BPE starts from the 256 bytes, and "
        "UTF-8 stores a letter in 1 byte and an accented letter or emoji in 2 to 4",
        r"\bUTF-8\b|\bbytes only\b",
        TENSORS,
    ),
    Term(
        "float32",
        "the number type of embeddings in PyTorch: a decimal number stored in 4 bytes",
        r"\bfloat32\b|\bfp32\b",
        TENSORS,
    ),
    Term(
        "int64",
        "the number type of token IDs in PyTorch: a whole number stored in 8 bytes",
        r"\bint64\b",
        TENSORS,
    ),
    Term(
        "bf16",
        "a decimal number stored in 2 bytes, half of float32, that large models use to halve their memory",
        r"\bbf16\b|\bbfloat16\b|\bfp16\b",
        TENSORS,
    ),
    Term(
        "IndexError",
        "the error Python raises when code asks for a row that a table does not have",
        r"\bIndexError\b",
        TENSORS,
    ),
    Term(
        "attention",
        "the part of the model where each token looks at the other tokens and mixes in what it needs from "
        "them",
        r"\battention\b",
        ATTENTION,
    ),
    Term(
        "query and key",
        "two vectors attention makes from each token's input embedding: the query says what the token looks "
        "for, the key what it offers",
        r"\bquer(?:y|ies)\b",
        ATTENTION,
    ),
    Term(
        "score",
        "how well a query matches a key: their dot product divided by √dh, where dh is how many "
        "numbers each has; a higher score means more attention",
        r"\bscores?\b",
        ATTENTION,
    ),
    Term(
        "softmax",
        "turns a row of scores into weights that are positive and add up to 1",
        r"\bsoftmax\b",
        ATTENTION,
    ),
    Term(
        "head",
        "one of several attentions a layer runs side by side, each with its own query and key matrices",
        r"\bheads?\b",
        ATTENTION,
    ),
    Term(
        "causal mask",
        "hides every later token from a token, so it sees only itself and the tokens before it and cannot "
        "peek at the next token it must predict",
        r"\bcausal\b|\bmask(?:ed|s)?\b",
        ATTENTION,
    ),
    Term(
        "value vector",
        "the third vector attention makes from each token: what the token passes on; attention's output is "
        "the weighted mix of the value vectors",
        r"\bvalue vectors?\b",
        ATTENTION,
    ),
    Term(
        "decoder",
        "a model like GPT that reads left to right and predicts the next token: each token sees only the "
        "tokens before it",
        r"\bdecoders?\b",
        MODELS,
    ),
    Term(
        "encoder",
        "a model like BERT that reads a whole text at once: each token sees every other token",
        r"\bencoders?\b",
        MODELS,
    ),
    Term(
        "NoPE",
        "no positional embedding: nothing is added for position anywhere",
        r"\bNoPE\b",
        FAMILIES,
    ),
    Term(
        "Shaw relative",
        "a learned vector for each distance, added inside attention",
        r"\bShaw\b",
        FAMILIES,
    ),
    Term(
        "T5 bias",
        "a learned number for each range of distances, added to the score",
        r"\bT5\b(?!-)",  # not the model T5-base
        FAMILIES,
    ),
    Term(
        "ALiBi",
        "a fixed penalty for each token of distance, subtracted from the score",
        r"\bALiBi\b",
        FAMILIES,
    ),
    Term(
        "RoPE",
        "rotary position embedding: it turns the vectors attention compares by an angle that grows with the "
        "position",
        r"\bRoPE\b",
        FAMILIES,
    ),
    Term(
        "extrapolate",
        "to work past the longest length seen in training",
        r"\bextrapolat\w*",
        FAMILIES,
    ),
    Term(
        "clip",
        "Shaw's largest distance k with a vector of its own; every farther distance gets the vector of k",
        r"\bclip(?:s|ped)?\b",
        INSIDE,
    ),
    Term(
        "offset",
        "how far a key stands from its query, j − i, with its sign: −2 is two tokens before",
        r"\boffsets?\b",
        INSIDE,
    ),
    Term(
        "bucket",
        "T5's group of distances that share one learned number: each small distance has its own, farther "
        "ones share wider and wider ranges",
        r"\bbuckets?\b",
        INSIDE,
    ),
    Term(
        "pair i",
        "RoPE and the sinusoid use a vector's dimensions two at a time; pair i is one such two, and RoPE "
        "turns it like a clock hand by an angle that grows with the position",
        r"\bpairs? (?:i|\d+)\b|\bpairs? of dimensions\b",
        INSIDE,
    ),
    Term(
        "frequency θᵢ",
        "how fast pair i turns: θᵢ radians per position, fast for the first pairs and slower for each next",
        r"θ|\bfrequenc(?:y|ies)\b",
        INSIDE,
    ),
    Term(
        "wavelength 2π/θᵢ",
        "how many positions pair i needs to turn once all the way round",
        r"2π/θ|\bwavelengths?\b|\bpositions per (?:full )?turn\b",
        INSIDE,
    ),
    # More words of Families side by side.
    Term(
        "position interpolation",
        "scaling that divides every position by s, so a text s times longer reuses the angles seen in "
        "training",
        r"\bposition interpolation\b|\binterpolat\w*",
        LONG,
    ),
    Term(
        "NTK scaling",
        "scaling that raises RoPE's base, so the slow pairs slow down and the fast ones barely change; "
        "dynamic NTK raises it only once a text is longer than L",
        r"\bNTK\b",
        LONG,
    ),
    Term(
        "YaRN",
        "scaling that keeps the fast pairs, slows the slow pairs by s, blends those between, and adds an "
        "attention factor",
        r"\bYaRN\b",
        LONG,
    ),
    Term(
        "LongRoPE",
        "scaling with a factor of its own for each pair, found by search, and an attention factor",
        r"\bLongRoPE\b",
        LONG,
    ),
    Term(
        "attention factor",
        "a number (above 1 in YaRN and LongRoPE) that multiplies the turned queries and keys, so attention "
        "stays as sharp over a long text as over a short one",
        r"\battention factor\b",
        LONG,
    ),
    Term(
        "config.json",
        "the file of settings a released model ships with: its sizes and how it handles positions, such as "
        "rope_theta (RoPE's base), max_position_embeddings (the length in the config) and rope_type (its "
        "scaling for long texts)",
        r"\bconfig\.json\b|\brope_type\b|\brope_theta\b|\bmax_position_embeddings\b",
        MODELS,
    ),
    Term(
        "partial_rotary_factor",
        "the share of each head's dimensions that RoPE turns; the rest carry no position",
        r"\bpartial_rotary_factor\b",
        LONG,
    ),
    # More words of Long context.
    Term(
        "loss",
        "how wrong the model's guesses of the next token are, averaged over the text: lower is better",
        r"\bloss(?:es)?\b",
        TRAINING,
    ),
    Term(
        "cross-entropy",
        "the loss a language model trains on: minus the log of the probability it gave the real next token",
        r"\bcross-entropy\b",
        TRAINING,
    ),
    Term(
        "validation",
        "measuring the loss on text kept out of training, the text's last tenth here, to see how the model "
        "does on text it never learned from",
        r"\bvalidation\b|\bheld out\b|\bval loss\b",
        TRAINING,
    ),
    Term(
        "gradient descent",
        "how training changes every number of the model: a small step in the direction that lowers the loss, "
        "found by backpropagation, again and again",
        r"\bgradients?\b",
        TRAINING,
    ),
    Term(
        "sentence-embedding model",
        "a model that turns a whole sentence into one vector, so that sentences of similar meaning get "
        "similar vectors",
        r"\bsentence[- ]embedding\b",
        MODELS,
    ),
    Term(
        "distilled",
        "trained to give the same outputs as a larger model, to be smaller and faster",
        r"\bdistill\w*",
        MODELS,
    ),
    Term(
        "fine-tuned",
        "trained further, on a narrower task, after its first training",
        r"\bfine-tun\w*",
        MODELS,
    ),
    Term(
        "principal components",
        "the directions in which a table's vectors spread out most; the first two draw a table of many "
        "dimensions flat on the page",
        r"\bprincipal components?\b|\bPCA\b",
        MODELS,
    ),
    # More words of Watch positions being learned and Real trained positions.
    Term(
        "chunk",
        "a run of consecutive tokens; in a chunked layer a token sees only those before it in its own chunk",
        r"\bchunk(?:s|ed)?\b",
        TODAY,
    ),
    Term(
        "temperature",
        "a number the query is multiplied by; above 1 it makes the highest scores stand out more, so "
        "attention stays on a few tokens",
        r"\btemperature\b",
        TODAY,
    ),
    Term(
        "sliding-window attention",
        "a layer in which a token sees only the last W tokens (its window), itself included",
        r"\bsliding-window attention\b|\bsliding (?:layer|window layer)s?\b",
        TODAY,
    ),
    Term(
        "image patch",
        "a small square of an image (14 × 14 pixels in Qwen2.5-VL), which the model turns into one vector",
        r"\bpatch(?:es)?\b",
        TODAY,
    ),
    Term(
        "2 × 2 merge",
        "Qwen2.5-VL joins each square of 2 × 2 image patches into one token",
        r"\b2 × 2 merge\b",
        TODAY,
    ),
    Term(
        "M-RoPE",
        "multimodal RoPE: three positions per token (t time, h row, w column), each pair turning with one",
        r"\bM-RoPE\b",
        TODAY,
    ),
    Term(
        "soft-capping",
        "squeezing each attention score s into (−cap, cap) as cap · tanh(s / cap) before scores become "
        "weights: small scores stay almost as they were, and none passes the cap",
        r"\bsoft-cap(?:s|ping|ped)?\b",
        TODAY,
    ),
    Term(
        "sink",
        "gpt-oss's learned score per head for no token, in each row's softmax: the row's weights sum to "
        "less than 1",
        r"\bsinks?\b",
        TODAY,
    ),
    Term(
        "partial rotary",
        "RoPE on only the first numbers of each head; the others pass through and carry no position",
        r"\bpartial rotary\b",
        TODAY,
    ),
    Term(
        "MLA",
        "multi-head latent attention, DeepSeek's: keys and values are kept squeezed small, and position "
        "rides on a separate small part of each head",
        r"\bMLA\b",
        TODAY,
    ),
)
GLOSSARY = {term.name: term for term in TERMS}


def named(label: str) -> str:
    """A method's display name as a page first writes it: defined when the glossary has it (RoPE, ALiBi,
    …), else as it is (the lecture's learned and sinusoidal methods)."""
    return define(label) if label in GLOSSARY else label


def define(name: str, shown: str | None = None) -> str:
    """The word ``name`` (or its form ``shown``, "cosines") in bold, then its definition in brackets: how
    a page says it where a student first meets it."""
    term = GLOSSARY[name]
    return f"**{shown or term.name}** ({term.gloss})"


class FirstUse:
    """A page's glossary words as it writes them in reading order: defined the first time (``define``),
    plain after. ``teach=False`` writes every word plain (a projector's slide, a chart's description)."""

    def __init__(self, teach: bool = True):
        self.teach = teach
        self.taught: set[str] = set()

    def __call__(self, name: str, shown: str | None = None) -> str:
        """The word ``name`` (or its form ``shown``), with its definition where the page first writes it."""
        if not self.teach or name in self.taught:
            return shown or GLOSSARY[name].name
        self.taught.add(name)
        return define(name, shown)


def defined_in(text: str) -> tuple[str, ...]:
    """The glossary words ``text`` defines (as ``define`` writes them): a later text need not again."""
    return tuple(term.name for term in TERMS if f"({term.gloss})" in text)


def gloss(name: str) -> str:
    """The definition of ``name``, as ``define`` writes it."""
    return GLOSSARY[name].gloss


_MARKUP = re.compile(r"\*\*|`|\\(?=[^\s\w])")


def plain(text: str) -> str:
    """``text`` as a student reads it: no bold marks, code ticks or Markdown escapes."""
    return _MARKUP.sub("", text)


SLACK = 80  # characters a definition may follow its word by: "cos(' cat' in A, ' cat' in B) (how …)"


def first_undefined(
    text: str, terms: tuple[Term, ...] = TERMS, names: tuple[str, ...] = ()
) -> list[tuple[str, str]]:
    """The terms ``text`` uses before (or without) defining them, each with the words around its first
    use; ``text`` is a page's text in reading order. A word inside a definition is not a use, nor one
    inside a name in ``names`` (a page's title, "Attention: where position acts")."""
    text = plain(text)
    blanked = text
    for said in (*(term.gloss for term in TERMS), *names):
        blanked = blanked.replace(said, " " * len(said))
    missing = []
    for term in terms:
        use = re.search(term.uses, blanked, re.IGNORECASE)  # "Loss" and "Attention factor" too
        if use is None:
            continue
        defined = text.find(term.gloss)
        if defined == -1 or defined > use.end() + SLACK:
            missing.append((term.name, text[max(0, use.start() - 60) : use.end() + 60]))
    return missing
