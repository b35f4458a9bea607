"""What a generated sentence must not say, whatever the settings: the checks the sentence tests share.

``prose_problems(text)`` lists each fault found: a count that disagrees with its noun or verb ("1
vectors", "2 vector", "1 of the 6 vectors are"), an internal family key where its label belongs, a
difference of "0.0e+00" called rounding, a "1.0×" (or "1.00×") change, "all 1" of anything.
"""

from __future__ import annotations

import re

# Nouns the app's sentences count; a count before one of them must agree with it.
NOUNS = (
    "vector",
    "token",
    "pair",
    "bucket",
    "number",
    "row",
    "sequence",
    "position",
    "window",
    "distance",
    "dimension",
    "character",
    "step",
    "parameter",
    "run",
)
_NOUN = "|".join(NOUNS)
_ONE = r"(?<![\d,.\-+])1"  # the number 1 itself, not the end of 11, 2,001 or 0.1
_MANY = r"(?<![\d,.\-+])(?:0|[2-9]|[1-9][\d,]*\d)"  # any other whole count, 0 and 1,000 included

# Keys that are no English word: in prose each is the family's label (NoPE, Shaw relative, T5 bias, ALiBi,
# RoPE). "learned" and "sinusoidal" are also words, so only their bold or "With learned" uses count.
_KEYS = re.compile(
    r"\b(nope|shaw|t5|alibi|rope)\b|\*\*(learned|sinusoidal)\*\*|\bWith (learned|sinusoidal)\b"
)

PATTERNS = {
    "a count of 1 with a plural noun": re.compile(rf"{_ONE} (?:{_NOUN})s\b"),
    # "278 token IDs" and "a 4 × 256 position table" are compound nouns, not a singular noun's count.
    "a count other than 1 with a singular noun": re.compile(
        rf"{_MANY} (?:{_NOUN})\b(?![-'’]| (?:IDs?|tables?)\b)"
    ),
    "1 of n things with a plural verb": re.compile(
        rf"{_ONE} of (?:the )?[\d,]+ (?:{_NOUN})s (?:are|have|were)\b"
    ),
    "k of n things with a singular verb": re.compile(
        rf"{_MANY} of (?:the )?[\d,]+ (?:{_NOUN})s (?:is|has|was)\b"
    ),
    "'all 1'": re.compile(r"\ball 1 "),
    "a zero difference called rounding": re.compile(r"0\.0e\+00"),
    "a change of 1.0×": re.compile(r"\b1\.0+×"),
    "an internal family key": _KEYS,
}


_CODE = re.compile(r"`[^`]*`")  # code, or a picker's option as it shows it: not prose

# The numbers the lecture itself says (its batch of 8, context 4, d 256, GPT-2's 50,257, positions "1 to 4",
# GPT-3's 12,288, the book's 20,479 characters): a clause that quotes the lecture quotes only these.
LECTURE_NUMBERS = {"1", "4", "8", "256", "50,257", "50257", "12,288", "20,479"}
_LECTURE_CLAUSE = re.compile(r"\b[Tt]he lecture\b[^.;:)]*")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?")


def lecture_misquotes(text: str) -> list[str]:
    """Clauses that say what the lecture says with a number it never said ("The lecture says Python
    duplicates the values 2 times")."""
    return [
        f"a number the lecture never said: {m.group(0)!r}"
        for m in _LECTURE_CLAUSE.finditer(text)
        if any(n not in LECTURE_NUMBERS for n in _NUMBER.findall(m.group(0)))
    ]


def prose_problems(text: str) -> list[str]:
    """Every fault ``text`` has outside `code`, as "what: the words" (empty: none)."""
    prose = _CODE.sub("`…`", text)
    found = [f"{what}: {m.group(0)!r}" for what, pattern in PATTERNS.items() for m in pattern.finditer(prose)]
    return found + lecture_misquotes(prose)
