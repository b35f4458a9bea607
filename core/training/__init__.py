"""Training: a tiny GPT learns its positions, and what the trained model shows.

* ``model``: the tiny decoder whose positional method can be swapped;
* ``training``: one training run (``python -m core.training`` prints its result as JSON);
* ``adamw``: AdamW as ``torch.optim.AdamW`` computes it, without importing ``torch.optim``;
* ``train_queue``: one fair, bounded queue of runs shared by a whole server;
* ``position_loss``: the loss at each position, inside and past the trained length;
* ``extrapolation``: a RoPE model evaluated past its length with its frequencies scaled.
"""
