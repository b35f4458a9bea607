"""torch's CPU generator after n draws, without drawing them: the Mersenne Twister's jump ahead.

``torch.manual_seed`` seeds an MT19937: 624 words of 32 bits, of which 19,937 bits are its state. One
draw is one step, and a step is linear over GF(2), with a characteristic polynomial φ of degree 19,937
(``CHARPOLY``: the shipped ``data/mt19937_charpoly.txt``, which ``charpoly()`` finds again from the
generator's own output bits by Berlekamp–Massey). So n steps are the polynomial g = xⁿ mod φ applied to
the step: the window of words at step n is the XOR of the windows at the steps i where g has a one
(Haramoto, Matsumoto, Nishimura, Panneton and L'Ecuyer, "Efficient jump ahead for F2-linear random
number generators", 2008).

The book's token table, ``nn.Embedding(50257, 256)``, is 12.9 M draws, which every new seed would
draw (even at a byte each) for the generator's state after the table, where the positional table
starts. xⁿ mod φ itself is more big-integer arithmetic than a jump, so it is not computed while a page
runs: ``data/mt19937_jumps.npy`` ships it for every multiple of ``ANCHOR_DRAWS`` up to the largest
exact table (2²⁵ draws; ``write_anchors()`` makes the file again). A state is one anchor's jump
(~20,000 words drawn and ~10,000 windows XORed) and at most ``ANCHOR_DRAWS`` draws on. Tested
bit-identical to the bulk draws (``tests/core/serving/test_generator_jump.py``).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import torch

WORDS = 624  # MT19937's state: 624 words, the first of which keeps only its top bit
DEGREE = 19937  # bits of state: the characteristic polynomial's degree
_WORDS_AT = slice(24, 24 + 8 * WORDS)  # the words in torch's CPU generator state (each as a uint64)
_MATRIX_A, _UPPER, _LOWER = 0x9908B0DF, 0x80000000, 0x7FFFFFFF
GATHERED_ROWS = (
    48  # windows XORed at a time: 117 kB, below the server's mmap threshold (ui.server.memory), where
)
# a bigger buffer would be mapped anew on every call and its pages faulted in again
CHARPOLY_FILE = Path(__file__).resolve().parents[2] / "data" / "mt19937_charpoly.txt"
ANCHOR_TWISTS = 840  # twists between two shipped jumps: 524,160 draws, few enough to draw on
ANCHOR_DRAWS = WORDS * ANCHOR_TWISTS
ANCHORS = 64  # jumps to k · ANCHOR_DRAWS, k = 1 … 64: an exact table (≤ 2²⁵ draws) ends < one unit past one
ANCHORS_FILE = CHARPOLY_FILE.with_name("mt19937_jumps.npy")  # [ANCHORS, 2,493] uint8: each xⁿ mod φ's bits
DRAWN_ON = (
    65_536  # bytes drawn at a time after an anchor (a buffer below the mmap threshold, ui.server.memory)
)


def charpoly() -> int:
    """φ, MT19937's characteristic polynomial (bit i: the coefficient of xⁱ), found by Berlekamp–Massey
    from 2 × 19,937 of the generator's output bits. Every output bit obeys the same linear
    recurrence, whose minimal polynomial is φ (irreducible for MT19937)."""
    bits = torch.empty(2 * DEGREE, dtype=torch.int64).random_(
        0, 2, generator=torch.Generator().manual_seed(5489)
    )
    connection, previous, length, gap, history = 1, 1, 0, 1, 0
    for n, bit in enumerate(bits.tolist()):
        history = history << 1 | bit  # bit j: the sequence's value j steps back
        if ((connection & history).bit_count() & 1) == 0:  # the recurrence predicts this bit
            gap += 1
        elif 2 * length <= n:
            connection, previous = connection ^ previous << gap, connection
            length, gap = n + 1 - length, 1
        else:
            connection ^= previous << gap
            gap += 1
    return int(f"{connection:0{length + 1}b}"[::-1], 2)  # φ(x) = x^L · C(1/x): the bits reversed


@functools.cache
def _charpoly() -> int:
    return int(CHARPOLY_FILE.read_text().strip(), 16)


_SPREAD = np.array([int(f"{b:08b}".replace("", "0")[:-1], 2) for b in range(256)], dtype="<u2")  # squaring


def _squared(p: int) -> int:
    """p² over GF(2): each bit moves to twice its place."""
    packed = np.frombuffer(p.to_bytes((p.bit_length() + 7) // 8 or 1, "little"), dtype=np.uint8)
    return int.from_bytes(_SPREAD[packed].tobytes(), "little")


@functools.cache
def _multiples() -> list[int]:
    """φ times every polynomial of degree < 8 (by its bits): a reduction's table, a byte at a time."""
    phi = _charpoly()
    out = [0] * 256
    for b in range(1, 256):
        low = b & -b
        out[b] = out[b ^ low] ^ phi << (low.bit_length() - 1)
    return out


def _reduced(p: int) -> int:
    """p mod φ, clearing p's bits at and above the degree a byte at a time, from the top."""
    multiples = _multiples()
    while (top := p.bit_length() - 1) >= DEGREE:
        shift = max(top - 7, DEGREE) - DEGREE
        p ^= multiples[p >> (shift + DEGREE) & 0xFF] << shift
    return p


def jump_polynomial(n: int) -> int:
    """xⁿ mod φ (bit i: the coefficient of xⁱ), by squaring and multiplying by x."""
    g, phi = 1, _charpoly()
    for bit in f"{n:b}":
        g = _reduced(_squared(g))
        if bit == "1":
            g <<= 1
            if g >> DEGREE & 1:
                g ^= phi
    return g


def _anchor_jump(k: int) -> int:
    """The jump to the window one word before the state after ``k · ANCHOR_DRAWS`` draws."""
    return ANCHOR_DRAWS * k - 1


def write_anchors(path: Path = ANCHORS_FILE) -> None:
    """Compute the shipped jumps again and save them."""
    size = (DEGREE + 7) // 8
    rows = [jump_polynomial(_anchor_jump(k)).to_bytes(size, "little") for k in range(1, ANCHORS + 1)]
    np.save(path, np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(ANCHORS, size))


@functools.cache
def _anchors() -> np.ndarray:
    return np.load(ANCHORS_FILE)  # [ANCHORS, 2,493]


@functools.cache
def _anchor_steps(k: int) -> np.ndarray:
    """The steps i < 19,937 whose windows XOR to the window of anchor ``k``: the ones of its xⁿ mod φ."""
    return np.flatnonzero(np.unpackbits(_anchors()[k - 1], bitorder="little"))


def _words(state: torch.Tensor) -> np.ndarray:
    return state[_WORDS_AT].view(torch.int64).numpy().astype(np.uint32)


def state_after_draws(seed: int, draws: int) -> torch.Tensor:
    """The generator state after ``torch.Generator().manual_seed(seed)`` and ``draws`` 32-bit draws, as
    ``get_state()`` gives it (``normal_`` on a float tensor of n ≥ 16 values, n a multiple of 16, makes n
    draws): the nearest anchor below, then the rest drawn a byte each. Bit-identical to drawing them all."""
    k = min(draws // ANCHOR_DRAWS, ANCHORS)
    g = torch.Generator()
    if k:
        g.set_state(_jumped(seed, _anchor_steps(k)))
    else:
        g.manual_seed(seed)
    rest = draws - k * ANCHOR_DRAWS
    block = torch.empty(min(rest, DRAWN_ON), dtype=torch.uint8)
    for start in range(0, rest, DRAWN_ON):
        block[: min(DRAWN_ON, rest - start)].random_(generator=g)
    return g.get_state()


def _jumped(seed: int, steps: np.ndarray) -> torch.Tensor:
    """The state after whole twists, from the window one word before it: the XOR of the windows at
    ``steps`` (sorted, the last < 19,937) of ``manual_seed(seed)``'s raw words."""
    g = torch.Generator().manual_seed(seed)
    windows, block = [_words(g.get_state())], torch.empty(WORDS, dtype=torch.uint8)
    while len(windows) * WORDS < int(steps[-1]) + WORDS:  # the raw words x_0 … x_(i+623) for every i
        block.random_(generator=g)
        windows.append(_words(g.get_state()))
    raw = np.lib.stride_tricks.sliding_window_view(np.concatenate(windows), WORDS)  # [steps, 624] views
    window = np.zeros(WORDS, dtype=np.uint32)
    for k in range(0, len(steps), GATHERED_ROWS):
        window ^= np.bitwise_xor.reduce(raw[steps[k : k + GATHERED_ROWS]], axis=0)
    # The window's first word keeps only its top bit: the state's words are the next 623 and one more.
    mixed = int(window[0]) & _UPPER | int(window[1]) & _LOWER
    last = int(window[397]) ^ mixed >> 1 ^ (_MATRIX_A if mixed & 1 else 0)
    state_words = np.append(window[1:], np.uint32(last))
    g = torch.Generator().manual_seed(seed)  # a state with the same place in its words (left, next)
    torch.empty(WORDS, dtype=torch.uint8).random_(generator=g)
    state = g.get_state()
    state[_WORDS_AT] = torch.from_numpy(state_words.astype(np.int64)).view(torch.uint8)
    return state
