"""Human-readable numbers, shapes and byte counts for labels."""

from __future__ import annotations


def shape_str(shape: tuple[int, ...]) -> str:
    """``(8, 4, 256)`` → ``"8 × 4 × 256"``."""
    return " × ".join(f"{n:,}" for n in shape)


def position_str(position: tuple[int, ...]) -> str:
    """``(3, 4, 5)`` → ``"(3, 4, 5)"``: a position of several numbers, as a guess is written."""
    return "(" + ", ".join(str(n) for n in position) + ")"


def human_bytes(n: int) -> str:
    """Bytes in binary-free SI units, as memory is usually quoted: ``805306368`` → ``"805.3 MB"``."""
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{n:,} B"


def human_count(n: int) -> str:
    """``12866048`` → ``"12.87 M"``; small counts stay exact."""
    for unit, size in (("B", 10**9), ("M", 10**6)):
        if n >= size:
            return f"{n / size:,.2f} {unit}"
    return f"{n:,}"


def ordinal(n: int) -> str:
    """``1`` → ``"1st"``, ``2`` → ``"2nd"``, ``11`` → ``"11th"``, ``23`` → ``"23rd"``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def every(step: int, total: int, what: str) -> str:
    """What a strided sample shows: ``every(3, 256, "dimensions")`` → ``"every 3rd of 256 dimensions"``."""
    if total == 1:  # "all 1 positions" would not read
        return f"the only {what.removesuffix('s')}"
    return f"all {total:,} {what}" if step == 1 else f"every {ordinal(step)} of {total:,} {what}"


def signed(value: float, digits: int = 2) -> str:
    """``value`` with its sign, to ``digits`` decimals; one that rounds to zero is written 0.00, not -0.00."""
    text = f"{value:+.{digits}f}"
    return f"{0:.{digits}f}" if float(text) == 0 else text


def listing(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and ``noun`` agreeing in number: ``plural(1, "vector")`` → ``"1 vector"``, ``plural(0,
    "vector")`` → ``"0 vectors"``, ``plural(2, "matrix", "matrices")`` → ``"2 matrices"``."""
    return f"{n:,} {noun if n == 1 else many or noun + 's'}"


def verb(n: int, one: str = "is", many: str = "are") -> str:
    """The verb that agrees with a count ``n``: ``verb(1)`` → ``"is"``, ``verb(0)`` → ``"are"``."""
    return one if n == 1 else many


def count_of(k: int, n: int, noun: str, many: str | None = None) -> str:
    """``k`` of ``n`` things as a sentence's subject with its verb: "all 6 vectors are", "the one vector
    is", "none of the 6 vectors is", "no vector is" (of one), "1 of the 6 vectors is", "2 of the 6 vectors
    are"."""
    nouns = many or noun + "s"
    if k == 0:
        return f"none of the {n:,} {nouns} is" if n > 1 else f"no {noun if n else nouns} {verb(n)}"
    if k == n:
        return f"the one {noun} is" if n == 1 else f"all {n:,} {nouns} are"
    return f"{k:,} of the {n:,} {nouns} {verb(k)}"


def capitalized(sentence: str) -> str:
    """``sentence`` with its first letter upper-case (the rest as it is): a generated subject may begin it."""
    return sentence[:1].upper() + sentence[1:]
