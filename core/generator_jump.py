"""torch's CPU generator after n draws, without drawing them: the Mersenne Twister's jump ahead.

``torch.manual_seed`` seeds an MT19937: 624 words of 32 bits, of which 19,937 bits are its state. One
draw is one step, and a step is linear over GF(2), with a characteristic polynomial φ of degree 19,937
(``CHARPOLY``: the shipped ``data/mt19937_charpoly.txt``, which ``charpoly()`` finds again from the
generator's own output bits by Berlekamp–Massey). So n steps are the polynomial g = xⁿ mod φ applied to
the step: the window of words at step n is the XOR of the windows at the steps i where g has a one
(Haramoto, Matsumoto, Nishimura, Panneton and L'Ecuyer, "Efficient jump ahead for F2-linear random
number generators", 2008).

The book's token table, ``nn.Embedding(50257, 256)``, is 12.9 M draws: ~27 ms to draw even at a byte
each, and every new seed paid it for the generator's state after the table, where the positional table
starts. Jumping there costs ~2 ms: g (~14 ms, once per table size), then ~20,000 words drawn and
~10,000 windows XORed. Tested bit-identical to the bulk draws (``tests/core/test_generator_jump.py``).
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
GATHERED_ROWS = 48  # windows XORed at a time: 117 kB, below the server's mmap threshold (ui.memory), where
# a bigger buffer would be mapped anew on every call and its pages faulted in (14 ms a jump instead of 2)
CHARPOLY_FILE = Path(__file__).resolve().parents[1] / "data" / "mt19937_charpoly.txt"


def charpoly() -> int:
    """φ, MT19937's characteristic polynomial (bit i: the coefficient of xⁱ), found by Berlekamp–Massey
    from 2 × 19,937 of the generator's output bits (~70 ms). Every output bit obeys the same linear
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


@functools.lru_cache(maxsize=16)  # one per table size in use, 10,000 indices each
def _jump_steps(n: int) -> np.ndarray:
    """The steps i < 19,937 whose windows XOR to the window at step ``n``: the ones of xⁿ mod φ."""
    g, phi = 1, _charpoly()
    for bit in f"{n:b}":
        g = _reduced(_squared(g))
        if bit == "1":
            g <<= 1
            if g >> DEGREE & 1:
                g ^= phi
    packed = np.frombuffer(g.to_bytes((g.bit_length() + 7) // 8 or 1, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(packed, bitorder="little"))


def _words(state: torch.Tensor) -> np.ndarray:
    return state[_WORDS_AT].view(torch.int64).numpy().astype(np.uint32)


def state_after_draws(seed: int, draws: int) -> torch.Tensor:
    """The generator state after ``torch.Generator().manual_seed(seed)`` and ``draws`` 32-bit draws, as
    ``get_state()`` gives it (``normal_`` on a float tensor of n ≥ 16 values, n a multiple of 16, makes n
    draws). Bit-identical to drawing them."""
    if draws <= WORDS:
        g = torch.Generator().manual_seed(seed)
        torch.empty(draws, dtype=torch.uint8).random_(generator=g)
        return g.get_state()
    twists = -(-draws // WORDS)  # the first draw twists, then one every 624 draws
    steps = _jump_steps(WORDS * twists - 1)  # to the window one word before the state's
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
    torch.empty(draws - WORDS * (twists - 1), dtype=torch.uint8).random_(generator=g)
    state = g.get_state()
    state[_WORDS_AT] = torch.from_numpy(state_words.astype(np.int64)).view(torch.uint8)
    return state
