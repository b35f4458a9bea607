import math

import torch

from core.training.adamw import AdamW
from core.training.model import SIZES, GPTConfig, TinyGPT, init_weights
from core.training.training import cosine_decay


def _model(seed: int) -> TinyGPT:
    model = TinyGPT(GPTConfig(40, 8, *SIZES["tiny"], "learned"))
    init_weights(model, torch.Generator().manual_seed(seed))
    return model


def test_the_same_bits_as_torch_adamw_with_its_cosine_lambda_lr():
    steps, lr = 30, 3e-3
    ours, theirs = _model(1), _model(1)
    opt_ours = AdamW(ours.parameters(), lr=lr, weight_decay=0.01)
    opt_theirs = torch.optim.AdamW(theirs.parameters(), lr=lr, weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        opt_theirs, lambda s: 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * s / steps))
    )
    g = torch.Generator().manual_seed(2)
    for step in range(1, steps + 1):
        batch = torch.randint(0, 40, (4, 9), generator=g)
        for model, opt in ((ours, opt_ours), (theirs, opt_theirs)):
            opt.zero_grad()
            model.loss(batch[:, :-1], batch[:, 1:]).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt_ours.lr = lr * cosine_decay(step - 1, steps)
        assert opt_ours.lr == opt_theirs.param_groups[0]["lr"]
        opt_ours.step()
        opt_theirs.step()
        schedule.step()
        for a, b in zip(ours.parameters(), theirs.parameters(), strict=True):
            assert torch.equal(a, b), step
    assert not torch.equal(next(ours.parameters()), next(_model(1).parameters()))  # it did train


def test_a_parameter_without_gradient_is_left_alone():
    p, q = torch.nn.Parameter(torch.ones(3)), torch.nn.Parameter(torch.ones(3))
    opt = AdamW([p, q], lr=0.1)
    (p * 2).sum().backward()
    opt.step()
    assert torch.equal(q, torch.ones(3)) and not torch.equal(p, torch.ones(3))
