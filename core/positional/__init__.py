"""Positional-encoding families, one module each; import them from here.

from core.positional import sinusoidal
"""

from core.positional.learned import learned_position_rows
from core.positional.sinusoidal import sinusoidal, sinusoidal_at

__all__ = ["learned_position_rows", "sinusoidal", "sinusoidal_at"]
