"""Human-readable numbers, shapes and byte counts for labels."""

from __future__ import annotations


def shape_str(shape: tuple[int, ...]) -> str:
    """``(8, 4, 256)`` → ``"8 × 4 × 256"``."""
    return " × ".join(f"{n:,}" for n in shape)


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
    return f"all {total:,} {what}" if step == 1 else f"every {ordinal(step)} of {total:,} {what}"
