import pytest
import torch

from core.training.model import SIZES, GPTConfig, TinyGPT, init_weights, num_parameters, trainable_methods


def model(method, T=8, V=50, layers=2):
    m = TinyGPT(
        GPTConfig(vocab_size=V, context_length=T, emb_dim=32, n_heads=2, n_layers=layers, method=method)
    )
    init_weights(m, torch.Generator().manual_seed(0))
    return m.eval()


@pytest.mark.parametrize("method", trainable_methods())
def test_shapes_and_causality(method):
    m = model(method)
    idx = torch.randint(0, 50, (3, 8))
    logits = m(idx)
    assert logits.shape == (3, 8, 50)
    # Changing the last token never changes the predictions before it (causal mask).
    other = idx.clone()
    other[:, -1] = (other[:, -1] + 1) % 50
    torch.testing.assert_close(m(other)[:, :-1], logits[:, :-1])


def test_learned_positions_cannot_go_past_the_table():
    with pytest.raises(ValueError, match="has 8 rows"):
        model("learned")(torch.zeros(1, 9, dtype=torch.long))


@pytest.mark.parametrize("method", ["sinusoidal", "rope", "alibi", "nope"])
def test_other_methods_run_past_the_trained_length(method):
    assert model(method)(torch.zeros(1, 16, dtype=torch.long)).shape == (1, 16, 50)


def test_nope_sees_a_set_in_one_layer_but_the_causal_mask_leaks_order_in_two():
    idx = torch.tensor([[1, 2, 3, 4, 5]])
    shuffled = torch.tensor([[3, 1, 4, 2, 5]])
    # One layer: the last position attends to the same set of tokens, so its prediction is the same.
    one = model("nope", layers=1)
    torch.testing.assert_close(one(idx)[0, -1], one(shuffled)[0, -1], rtol=1e-5, atol=1e-5)
    # Two layers: earlier positions saw different prefixes, so order leaks in (Haviv et al. 2022).
    two = model("nope", layers=2)
    assert not torch.allclose(two(idx)[0, -1], two(shuffled)[0, -1], atol=1e-5)
    assert not torch.allclose(
        model("learned", layers=1)(idx)[0, -1], model("learned", layers=1)(shuffled)[0, -1]
    )


def test_weight_tying_and_sizes():
    m = model("learned")
    assert m.head.weight is m.tok_emb.weight
    assert num_parameters(m) == sum(p.numel() for p in m.parameters())
    assert set(SIZES) == {"tiny", "small", "medium"}
