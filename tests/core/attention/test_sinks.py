"""gpt-oss's sink (core/attention/sinks.py) against transformers 5.23's own attention."""

import math
from types import SimpleNamespace

import pytest
import torch

from core.attention.sinks import sink_softmax

pytest.importorskip("transformers")
from transformers.models.gpt_oss import modeling_gpt_oss  # noqa: E402


def test_the_weights_are_gpt_oss_eager_attentions():
    g = torch.Generator().manual_seed(0)
    B, H, T, dh = 1, 4, 6, 8
    q, k, v = (torch.randn(B, H, T, dh, generator=g, dtype=torch.float64) for _ in range(3))
    sink = torch.randn(H, generator=g, dtype=torch.float64) * 3
    mask = torch.full((T, T), -math.inf, dtype=torch.float64).triu(1)[None, None]  # causal
    module = SimpleNamespace(sinks=sink, num_key_value_groups=1, training=False)
    _, theirs = modeling_gpt_oss.eager_attention_forward(module, q, k, v, mask, scaling=dh**-0.5)
    ours = sink_softmax(q @ k.transpose(-1, -2) * dh**-0.5 + mask, sink)
    assert torch.allclose(ours, theirs, rtol=0, atol=1e-15)


def test_a_row_gives_the_sink_what_it_does_not_give_the_tokens():
    """Known values: one key of score 0 and a sink of 0 split the row in halves; a sink of ln 3, 1 : 3."""
    assert sink_softmax(torch.zeros(1, 1, 1), torch.zeros(1)).item() == 0.5
    assert sink_softmax(torch.zeros(1, 1, 1), torch.tensor([math.log(3.0)])).item() == pytest.approx(0.25)
    rows = sink_softmax(torch.randn(2, 5, 5), torch.tensor([1.0, -2.0])).sum(-1)
    assert (rows < 1).all() and (rows > 0).all()
