"""core.attention against the code people copy: on the same q and k, scores and weights equal to 1e-5.

RoPE against Hugging Face Llama (``LlamaRotaryEmbedding``, ``apply_rotary_pos_emb``,
``eager_attention_forward``), ALiBi against BLOOM (``build_alibi_tensor`` and ``BloomAttention``'s
``baddbmm``), T5 against ``T5Attention.compute_bias`` (decoder and encoder) and its
``eager_attention_forward``, all from transformers 5.23.0 (a test-only dependency,
requirements-dev.txt); Shaw against the paper's eqs. (2)–(4), written out below element by element.
"""

import math
from types import SimpleNamespace

import pytest
import torch

from core.attention.maps import attention_map, causal_mask
from core.positional.family import FAMILIES, FamilyConfig
from core.positional.rope import rope_pairing_permutation
from core.positional.shaw import shaw_key_vectors
from core.positional.t5 import t5_bias_table

pytest.importorskip("transformers")
from transformers import LlamaConfig, T5Config  # noqa: E402
from transformers.models.bloom.modeling_bloom import build_alibi_tensor  # noqa: E402
from transformers.models.llama import modeling_llama  # noqa: E402
from transformers.models.t5 import modeling_t5  # noqa: E402

T, DH = 12, 8


def qk(heads: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Random queries and keys [H, T, dh] (float32, as the models run)."""
    g = torch.Generator().manual_seed(seed)
    return torch.randn(heads, T, DH, generator=g), torch.randn(heads, T, DH, generator=g)


def hf_causal_mask(length: int) -> torch.Tensor:
    """Hugging Face's additive decoder mask: 0 where seen, float32's minimum after. [1, 1, T, T]"""
    hidden = ~causal_mask(length)  # [T, T]
    return torch.zeros(length, length).masked_fill(hidden, torch.finfo(torch.float32).min)[None, None]


def ours(name: str, q: torch.Tensor, k: torch.Tensor, fam: FamilyConfig, causal: bool = True):
    """Our map of every head: (scores, weights, position part), each [H, T, T]."""
    maps = [
        attention_map(FAMILIES[name], q[h], k[h], head=h, fam=fam, dim=64, seed=7, causal=causal)
        for h in range(len(q))
    ]
    return tuple(torch.stack([getattr(m, part) for m in maps]) for part in ("scores", "weights", "position"))


def close(a: torch.Tensor, b: torch.Tensor) -> None:
    torch.testing.assert_close(a.double(), b.double(), rtol=0, atol=1e-5)


@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_rope_equals_hugging_face_llama(base):
    q, k = qk(heads=2)
    config = LlamaConfig(hidden_size=2 * DH, num_attention_heads=2, head_dim=DH, rope_theta=base)
    cos, sin = modeling_llama.LlamaRotaryEmbedding(config)(q[None], torch.arange(T)[None])  # [1, T, dh] each
    # HF pairs coordinate i with i + dh/2, the paper (and we) 2i with 2i + 1: the same rotation up to a
    # fixed permutation of the coordinates, which Llama's weight conversion folds into W_q and W_k.
    perm = rope_pairing_permutation(DH)
    hf_q, hf_k = modeling_llama.apply_rotary_pos_emb(q[None][..., perm], k[None][..., perm], cos, sin)
    module = SimpleNamespace(num_key_value_groups=1, training=False)
    _, hf_weights = modeling_llama.eager_attention_forward(
        module, hf_q, hf_k, hf_k, hf_causal_mask(T), scaling=DH**-0.5
    )
    hf_scores = hf_q @ hf_k.transpose(-2, -1) * DH**-0.5  # eager_attention_forward's first line
    scores, weights, _ = ours("rope", q.double(), k.double(), FamilyConfig(heads=2, base=base))
    mask = causal_mask(T).expand(2, T, T)
    close(scores[mask], hf_scores[0][mask])
    close(weights, hf_weights[0])


@pytest.mark.parametrize("heads", [8, 6])  # 6: not a power of two, the slopes interleave
def test_alibi_equals_bloom(heads):
    q, k = qk(heads, seed=1)
    alibi = build_alibi_tensor(torch.ones(1, T), heads, torch.float32)  # [H, 1, T]: m_h · j
    bloom_scores = alibi.baddbmm(batch1=q, batch2=k.transpose(-1, -2), beta=1.0, alpha=DH**-0.5)  # [H, T, T]
    bloom_weights = torch.softmax(bloom_scores[None] + hf_causal_mask(T), dim=-1, dtype=torch.float32)[0]
    scores, weights, position = ours("alibi", q.double(), k.double(), FamilyConfig(heads=heads))
    # BLOOM adds m_h·j, the paper −m_h·(i − j): they differ by m_h·i, the same in a whole row, which the
    # softmax ignores (BLOOM's docstring says so).
    slopes = alibi[:, 0, 1].double()  # [H]: m_h · 1
    row_shift = slopes[:, None, None] * torch.arange(T, dtype=torch.float64)[None, :, None]  # [H, T, 1]
    mask = causal_mask(T).expand(heads, T, T)
    close((scores + row_shift)[mask], bloom_scores[mask])
    close(weights, bloom_weights)
    close(position + row_shift, alibi.expand(heads, T, T))


@pytest.mark.parametrize("causal", [True, False], ids=["decoder", "encoder"])
@pytest.mark.parametrize("buckets, max_distance", [(32, 128), (8, 6)])  # (8, 6): log buckets within T
def test_t5_equals_hugging_face_compute_bias(causal, buckets, max_distance):
    q, k = qk(heads=2, seed=2)
    fam = FamilyConfig(heads=2, buckets=buckets, max_distance=max_distance)
    config = T5Config(
        d_model=2 * DH,
        d_kv=DH,
        num_heads=2,
        relative_attention_num_buckets=buckets,
        relative_attention_max_distance=max_distance,
        is_decoder=causal,
    )
    t5 = modeling_t5.T5Attention(config, has_relative_attention_bias=True, layer_idx=0)
    with torch.no_grad():
        t5.relative_attention_bias.weight.copy_(t5_bias_table(fam, 64, 7))  # the table our map reads
        bias = t5.compute_bias(T, T)  # [1, H, T, T]
    mask = hf_causal_mask(T) if causal else None
    # T5 scales by 1 (its init absorbs 1/√dh); the page scales every family by 1/√dh, so we pass it.
    _, hf_weights = modeling_t5.eager_attention_forward(
        t5, q[None], k[None], k[None], mask, scaling=DH**-0.5, position_bias=bias
    )
    scores, weights, position = ours("t5", q.double(), k.double(), fam, causal=causal)
    close(position, bias[0])
    seen = causal_mask(T).expand(2, T, T) if causal else torch.ones(2, T, T, dtype=torch.bool)
    close(scores[seen], (q @ k.transpose(-1, -2) * DH**-0.5 + bias[0])[seen])
    close(weights, hf_weights[0])


def shaw_by_the_paper(x, w_q, w_k, a_k_table, clip, causal):
    """Shaw, Uszkoreit & Vaswani 2018, element by element: eq. (4) e_ij = x_i W^Q (x_j W^K + a^K_ij)ᵀ / √d_z,
    a^K_ij = w^K_clip(j − i, k) (eq. 5), and eq. (2) α_ij = exp e_ij / Σ_k exp e_ik (over the keys a
    decoder may see)."""
    n, d_z = len(x), w_q.shape[1]
    e = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if causal and j > i:
                continue
            a_k = a_k_table[max(-clip, min(clip, j - i)) + clip]
            e[i][j] = float((x[i] @ w_q) @ (x[j] @ w_k + a_k)) / math.sqrt(d_z)
    alpha = []
    for row in e:
        total = sum(math.exp(v) for v in row if v is not None)
        alpha.append([0.0 if v is None else math.exp(v) / total for v in row])
    return e, alpha


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("clip", [0, 2, 16])
def test_shaw_equals_the_papers_equations(causal, clip):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(T, 16, generator=g, dtype=torch.float64)
    w_q, w_k = (
        torch.randn(16, DH, generator=g, dtype=torch.float64),
        torch.randn(16, DH, generator=g).double(),
    )
    a_k_table = shaw_key_vectors(DH, 7, torch.arange(2 * clip + 1)).double()  # the table our map reads
    e, alpha = shaw_by_the_paper(x, w_q, w_k, a_k_table, clip, causal)
    m = attention_map(
        FAMILIES["shaw"], x @ w_q, x @ w_k, head=0, fam=FamilyConfig(clip=clip), dim=64, seed=7, causal=causal
    )
    seen = m.mask
    expected = torch.tensor([[v if v is not None else 0.0 for v in row] for row in e], dtype=torch.float64)
    close(m.scores[seen], expected[seen])
    close(m.weights, torch.tensor(alpha))
