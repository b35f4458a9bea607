"""gpt-oss's attention sink: a learned number per head that joins every row's softmax as one more,
keyless score and is then dropped, so a query may give less than all of its attention to the tokens.

Matches ``transformers`` 5.23 (``eager_attention_forward`` of ``modeling_gpt_oss``):
``tests/core/attention/test_sinks.py``.
"""

from __future__ import annotations

import torch


def sink_softmax(scores: torch.Tensor, sink: torch.Tensor) -> torch.Tensor:
    """[..., H, T, S] weights of ``scores`` (masked entries −inf) with ``sink`` [H] in each row's softmax:
    exp(s_j) / (Σ exp(s) + exp(sink)). A row sums to less than 1; what is missing went to the sink."""
    sinks = sink.reshape(-1, 1, 1).expand(*scores.shape[:-1], 1)
    with_sink = torch.cat((scores, sinks), dim=-1)
    with_sink = with_sink - with_sink.max(dim=-1, keepdim=True).values  # exp of ≤ 0 only: no overflow
    return torch.softmax(with_sink, dim=-1)[..., :-1]
