"""The colours of the lesson's three tensors, in one place (a method's colour is ``Family.color``).

Every chart, diagram and table that shows one of the three tensors takes its colour from here, so
``token_embeddings`` looks the same on every page.
"""

from __future__ import annotations

# The lesson's three tensors: (light fill, strong stroke/text). Token blue + position amber = input green.
TENSOR_COLORS: dict[str, tuple[str, str]] = {
    "token_embeddings": ("#bfdbfe", "#1d4ed8"),
    "pos_embeddings": ("#fde68a", "#b45309"),
    "input_embeddings": ("#bbf7d0", "#15803d"),
}
