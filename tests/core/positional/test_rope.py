import math

import pytest
import torch

from core.positional.rope import (
    apply_rope,
    rope_inv_freq,
    rope_long_term_decay,
    rope_pairing_permutation,
    rotate_half,
)


# Meta's reference, written as in facebookresearch/llama llama/model.py (precompute_freqs_cis,
# reshape_for_broadcast and apply_rotary_emb, for one tensor): pairs (2i, 2i+1) as complex numbers.
def meta_precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0) -> torch.Tensor:
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)  # complex64


def meta_apply_rotary_emb(xq: torch.Tensor, freqs_cis: torch.Tensor) -> torch.Tensor:
    # xq: [B, T, H, d] as in Meta's Attention.forward
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    shape = [d if i == 1 or i == xq_.ndim - 1 else 1 for i, d in enumerate(xq_.shape)]
    freqs_cis = freqs_cis.view(*shape)
    return torch.view_as_real(xq_ * freqs_cis).flatten(3).type_as(xq)


# Hugging Face's half-rotation form, written as in transformers models/llama/modeling_llama.py
# (LlamaRotaryEmbedding.forward, rotate_half and apply_rotary_pos_emb), pairs (i, i + d/2).
def hf_rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def hf_apply_rotary_pos_emb(
    q: torch.Tensor, position_ids: torch.Tensor, base: float = 10000.0
) -> torch.Tensor:
    dim = q.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    freqs = position_ids[..., None].float() * inv_freq
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos().to(q.dtype), emb.sin().to(q.dtype)
    return (q * cos) + (hf_rotate_half(q) * sin)


@pytest.mark.parametrize("interleaved", [True, False])
@pytest.mark.parametrize("p", [1, 2, 5, 100])
def test_d2_unit_vector_lands_on_the_unit_circle(p, interleaved):
    # d = 2: θ0 = 1, so [1, 0] at position p becomes [cos p, sin p]; values from Python's math.
    expected = {
        1: [0.5403023058681398, 0.8414709848078965],
        2: [-0.4161468365471424, 0.9092974268256817],
        5: [0.28366218546322625, -0.9589242746631385],
        100: [0.8623188722876839, -0.5063656411097588],
    }[p]
    out = apply_rope(torch.tensor([[1.0, 0.0]]), torch.tensor([p]), interleaved=interleaved)
    torch.testing.assert_close(out, torch.tensor([expected]), rtol=0, atol=1e-6)


def test_d4_hand_computed():
    # x = [1, 2, 3, 4] at position 1, θ = [1, 1/100].
    x = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
    # Interleaved: (1, 2) turns by 1 rad, (3, 4) by 0.01 rad: [cos1 − 2sin1, sin1 + 2cos1, …].
    interleaved = [-1.1426396637476532, 1.922075596544176, 2.9598506679133294, 4.029799501669161]
    # Half: (1, 3) turns by 1 rad, (2, 4) by 0.01 rad: [cos1 − 3sin1, 2cos.01 − 4sin.01, …].
    half = [-1.9841106485555495, 1.959900667496664, 2.4623779024123156, 4.019799668334994]
    pos = torch.tensor([1])
    torch.testing.assert_close(
        apply_rope(x, pos, interleaved=True), torch.tensor([interleaved]), rtol=0, atol=1e-6
    )
    torch.testing.assert_close(apply_rope(x, pos, interleaved=False), torch.tensor([half]), rtol=0, atol=1e-6)


def test_inv_freq_known_values():
    torch.testing.assert_close(rope_inv_freq(4), torch.tensor([1.0, 0.01]), rtol=0, atol=0)
    torch.testing.assert_close(
        rope_inv_freq(8, base=16.0), torch.tensor([1.0, 0.5, 0.25, 0.125]), rtol=0, atol=0
    )
    assert rope_inv_freq(8).dtype == torch.float32
    assert rope_inv_freq(8, dtype=torch.float64).dtype == torch.float64


def test_rotate_half_known_values():
    torch.testing.assert_close(
        rotate_half(torch.tensor([1.0, 2.0, 3.0, 4.0])), torch.tensor([-3.0, -4.0, 1.0, 2.0])
    )


@pytest.mark.parametrize("interleaved", [True, False])
def test_position_zero_is_identity_and_norms_are_kept(interleaved):
    x = torch.randn(2, 3, 7, 16)  # [B, H, T, d]
    out = apply_rope(x, torch.zeros(7, dtype=torch.long), interleaved=interleaved)
    torch.testing.assert_close(out, x, rtol=0, atol=0)
    rotated = apply_rope(x, torch.arange(100, 107), interleaved=interleaved)
    torch.testing.assert_close(rotated.norm(dim=-1), x.norm(dim=-1))


@pytest.mark.parametrize("interleaved", [True, False])
@pytest.mark.parametrize(
    ("dtype", "shifts", "tol"),
    [(torch.float32, [1, 3, 17], 1e-5), (torch.float64, [1, 1000, 123456], 1e-9)],
)
def test_logit_depends_only_on_relative_position(interleaved, dtype, shifts, tol):
    # RoFormer eq. 16: <f(q, m), f(k, n)> = g(q, k, m − n).
    q, k = torch.randn(2, 1, 32, dtype=dtype)  # [T=1, d] each
    m, n = 7, 3

    def logit(a, b):
        return (
            apply_rope(q, torch.tensor([a]), interleaved=interleaved)
            * apply_rope(k, torch.tensor([b]), interleaved=interleaved)
        ).sum()

    base = logit(m, n)
    for s in shifts:
        torch.testing.assert_close(logit(m + s, n + s), base, rtol=tol, atol=tol)


def test_keeps_dtype():
    for dtype in (torch.float32, torch.float64, torch.bfloat16):
        x = torch.randn(4, 8).to(dtype)
        assert apply_rope(x, torch.arange(4)).dtype == dtype
        assert apply_rope(x, torch.arange(4), interleaved=False).dtype == dtype


def test_interleaved_matches_meta_complex_reference():
    B, T, H, d = 2, 40, 3, 16
    x = torch.randn(B, T, H, d)
    freqs_cis = meta_precompute_freqs_cis(d, T)
    expected = meta_apply_rotary_emb(x, freqs_cis)  # [B, T, H, d]
    ours = apply_rope(x.transpose(1, 2), torch.arange(T), interleaved=True).transpose(1, 2)  # [B, T, H, d]
    torch.testing.assert_close(ours, expected, rtol=1e-6, atol=1e-6)


def test_half_matches_hugging_face_reference():
    x = torch.randn(2, 4, 50, 16)  # [B, H, T, d]
    positions = torch.arange(1000, 1050)
    expected = hf_apply_rotary_pos_emb(x, positions)
    # Same float32 arithmetic in the same order, so the match is exact.
    torch.testing.assert_close(apply_rope(x, positions, interleaved=False), expected, rtol=0, atol=0)


def test_pairing_permutation():
    assert rope_pairing_permutation(8).tolist() == [0, 2, 4, 6, 1, 3, 5, 7]
    P = rope_pairing_permutation(16)
    x = torch.randn(3, 20, 16)
    positions = torch.arange(5, 25)
    interleaved = apply_rope(x, positions, interleaved=True)
    half = apply_rope(x[..., P], positions, interleaved=False)
    torch.testing.assert_close(interleaved[..., P], half, rtol=1e-6, atol=1e-6)


def test_long_term_decay_known_values():
    # r = 0: every |S_j| = j, so the mean is (1/(d/2))·Σ j = (d/2 + 1)/2.
    for d in (2, 4, 128):
        assert rope_long_term_decay(d, 0).item() == pytest.approx((d / 2 + 1) / 2, abs=1e-12)
    # d = 4, θ = [1, 1/100]: |S_1| = 1, |S_2| = |e^{ir} + e^{ir/100}| = 2|cos(0.495 r)|.
    decay = rope_long_term_decay(4, 10)
    assert decay.dtype == torch.float64 and decay.shape == (11,)
    for r in (1, 2, 10):
        assert decay[r].item() == pytest.approx((1 + 2 * abs(math.cos(0.495 * r))) / 2, abs=1e-12)


def test_long_term_decay_falls_on_average():
    # RoFormer Figure 2 (d = 128): the bound decays, with ripples, as the distance grows.
    decay = rope_long_term_decay(128, 250)
    assert decay[:51].mean() > decay[200:].mean()
    assert decay[0] == decay.max()


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="even"):
        apply_rope(torch.randn(4, 5), torch.arange(4))
    with pytest.raises(ValueError, match="even"):
        rope_inv_freq(7)
    with pytest.raises(ValueError, match="even"):
        rope_pairing_permutation(3)
    with pytest.raises(ValueError, match=r"positions must be \[T\]"):
        apply_rope(torch.randn(4, 6), torch.arange(5))
    with pytest.raises(ValueError, match="non-negative"):
        rope_long_term_decay(8, -1)
