"""The app's colours, in one place: one per positional method, one per tensor of the lesson.

Every chart, diagram and table that shows a method or one of the three tensors takes its colour
from here, so a method (or ``token_embeddings``) looks the same on every page.
"""

from __future__ import annotations

# One colour per positional method (Tableau 10, distinguishable in print and for most colour-blind
# readers); NoPE is grey: it adds nothing.
METHOD_COLORS: dict[str, str] = {
    "nope": "#79706e",
    "learned": "#4e79a7",
    "sinusoidal": "#f28e2b",
    "shaw": "#b07aa1",
    "t5": "#9c755f",
    "alibi": "#e15759",
    "rope": "#59a14f",
}

# The lesson's three tensors: (light fill, strong stroke/text). Token blue + position amber = input green.
TENSOR_COLORS: dict[str, tuple[str, str]] = {
    "token_embeddings": ("#bfdbfe", "#1d4ed8"),
    "pos_embeddings": ("#fde68a", "#b45309"),
    "input_embeddings": ("#bbf7d0", "#15803d"),
}
