"""Jump ahead (core.serving.generator_jump) against torch's generator drawing every value."""

from __future__ import annotations

import pytest
import torch

from core.embeddings import EXACT_MAX_ELEMENTS
from core.serving import generator_jump
from core.serving.generator_jump import (
    ANCHOR_DRAWS,
    ANCHORS,
    CHARPOLY_FILE,
    DEGREE,
    charpoly,
    jump_polynomial,
    state_after_draws,
)
from tests.book import book_tables


def drawn(seed: int, draws: int) -> torch.Tensor:
    """The state after ``draws`` draws, drawn one byte each."""
    g = torch.Generator().manual_seed(seed)
    torch.empty(draws, dtype=torch.uint8).random_(generator=g)
    return g.get_state()


def test_the_shipped_characteristic_polynomial_is_the_generators():
    phi = charpoly()  # Berlekamp–Massey on the generator's own output bits
    assert phi.bit_length() - 1 == DEGREE and phi & 1  # degree 19,937, and x does not divide it
    assert phi == int(CHARPOLY_FILE.read_text().strip(), 16)


@pytest.mark.parametrize(
    "draws",
    [0, 1, 623, 624, 625, 1247, 1248, 1249, 19937, 100_003, 624 * 5000, ANCHOR_DRAWS - 1, ANCHOR_DRAWS]
    + [ANCHOR_DRAWS + 1, 2 * ANCHOR_DRAWS + 65_537, ANCHORS * ANCHOR_DRAWS + 5],
)
@pytest.mark.parametrize("seed", [0, 123, 2**32 - 1, 2**40 + 7])
def test_a_jump_lands_where_drawing_does(seed, draws):
    assert torch.equal(state_after_draws(seed, draws), drawn(seed, draws))


@pytest.mark.parametrize(
    "vocab_size, dim, seed", [(50257, 256, 123), (50257, 256, 9), (1000, 64, 5), (50257, 16, 2), (3, 16, 1)]
)
def test_a_jump_over_a_table_lands_where_nn_embedding_leaves_the_generator(vocab_size, dim, seed):
    _, pos = book_tables(vocab_size, dim, 4, seed)  # drawn after the token table's values
    g = torch.Generator()
    g.set_state(state_after_draws(seed, vocab_size * dim))
    assert torch.equal(torch.empty(4, dim).normal_(generator=g), pos)


def test_the_shipped_jumps_are_x_to_the_n_mod_phi():
    # the shipped file against the polynomials computed again by squaring (~1 s for all 64)
    shipped = generator_jump._anchors()
    assert shipped.shape == (ANCHORS, (DEGREE + 7) // 8)
    for k in range(1, ANCHORS + 1):
        g = jump_polynomial(k * ANCHOR_DRAWS - 1)
        assert int.from_bytes(shipped[k - 1].tobytes(), "little") == g, k
    # every exact table's state is an anchor and fewer than ANCHOR_DRAWS draws on
    assert (ANCHORS + 1) * ANCHOR_DRAWS > EXACT_MAX_ELEMENTS


def test_jump_polynomial_known_values():
    phi = charpoly()
    assert jump_polynomial(0) == 1 and jump_polynomial(5) == 1 << 5
    assert jump_polynomial(DEGREE) == phi ^ 1 << DEGREE  # x^19937 ≡ φ − x^19937
    assert jump_polynomial(DEGREE + 1) == (phi ^ 1 << DEGREE) << 1  # φ's next term is x^19314: no reduction


def test_a_new_table_size_computes_no_polynomial(monkeypatch):
    monkeypatch.setattr(generator_jump, "jump_polynomial", lambda n: pytest.fail("computed xⁿ mod φ"))
    monkeypatch.setattr(generator_jump, "_reduced", lambda p: pytest.fail("reduced a polynomial"))
    g = torch.Generator().manual_seed(3)
    torch.empty(50257 * 320, dtype=torch.uint8).random_(generator=g)
    assert torch.equal(state_after_draws(3, 50257 * 320), g.get_state())


def test_a_jump_stays_cheap_under_the_servers_allocator_settings():
    # The server maps every block of 128 kB or more anew (ui.server.memory): a jump's buffers stay below that,
    # where each block's pages would otherwise fault in on every call (14 ms against 2).
    import numpy as np

    from ui.server.memory import MMAP_THRESHOLD

    assert generator_jump.GATHERED_ROWS * generator_jump.WORDS * np.dtype(np.uint32).itemsize < MMAP_THRESHOLD
    assert generator_jump.DRAWN_ON < MMAP_THRESHOLD
