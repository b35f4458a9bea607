"""AdamW as ``torch.optim.AdamW`` computes it on CPU, without the cost of importing it on a server.

Any ``torch.optim`` optimizer imports ``torch._dynamo`` when it is made (``add_param_group`` is
wrapped by ``torch._compile._disable_dynamo``): about 800 modules, sympy among them, whose memory the
server then keeps for good, a large share of the whole app's budget (``core.serving.budget``). This is the
same update, written out: torch's single-tensor path (the one it takes for CPU tensors), operation
for operation, so the bits are the same (``tests/core/training/test_adamw.py`` checks it against
``torch.optim.AdamW`` with its cosine ``LambdaLR``).
"""

from __future__ import annotations

from collections.abc import Iterable

import torch


class AdamW:
    """Decoupled weight decay Adam (Loshchilov & Hutter 2019), ``torch.optim.AdamW``'s defaults."""

    def __init__(
        self,
        params: Iterable[torch.nn.Parameter],
        lr: float,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.01,
    ):
        self.params = list(params)
        self.lr, self.betas, self.eps, self.weight_decay = lr, betas, eps, weight_decay
        self.exp_avgs = [torch.zeros_like(p, memory_format=torch.preserve_format) for p in self.params]
        self.exp_avg_sqs = [torch.zeros_like(p, memory_format=torch.preserve_format) for p in self.params]
        self.steps = 0

    def zero_grad(self) -> None:
        """Drop every gradient (``set_to_none=True``)."""
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self) -> None:
        """One update of every parameter that has a gradient, at the current ``lr``."""
        beta1, beta2 = self.betas
        lr = self.lr
        self.steps += 1
        step = float(self.steps)  # torch keeps it as a float32 tensor and reads it back as a float
        for param, exp_avg, exp_avg_sq in zip(self.params, self.exp_avgs, self.exp_avg_sqs, strict=True):
            if param.grad is None:
                continue
            grad = param.grad
            param.mul_(1 - lr * self.weight_decay)  # the decoupled decay, before the moments
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            step_size = lr / bias_correction1
            denom = (exp_avg_sq.sqrt() / bias_correction2**0.5).add_(self.eps)
            param.addcdiv_(exp_avg, denom, value=-step_size)
