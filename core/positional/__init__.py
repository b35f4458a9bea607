"""Positional-encoding families, one module each, and ``FAMILIES``, the registry every page reads.

Each module ends with ``FAMILY = register(Family(...))`` (see ``core.positional.family``); importing
them below, in the order the app lists them, fills ``FAMILIES``. To add a family, write its module,
import it here, and give it a close-up view in ``ui/families/``.
"""

# isort: skip_file
# The imports register the families: their order is the app's order (NoPE first, RoPE last).
from core.positional.nope import nope
from core.positional.learned import learned_rows
from core.positional.sinusoidal import (
    LAYOUTS,
    check_sinusoidal,
    sinusoidal,
    sinusoidal_at,
    sinusoidal_inv_freq,
    sinusoidal_wavelengths,
)
from core.positional.shaw import shaw_attention, shaw_relative_indices
from core.positional.t5 import check_t5_buckets, t5_relative_bias, t5_relative_bucket
from core.positional.alibi import alibi_bias, alibi_slopes
from core.positional.rope import (
    apply_rope,
    apply_rotary,
    rope_inv_freq,
    rope_long_term_decay,
    rope_pairing_permutation,
    rotate_half,
)
from core.positional.family import FAMILIES, Family, FamilyConfig, Param

__all__ = [
    "FAMILIES",
    "LAYOUTS",
    "Family",
    "FamilyConfig",
    "Param",
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "apply_rotary",
    "check_sinusoidal",
    "check_t5_buckets",
    "learned_rows",
    "nope",
    "rope_inv_freq",
    "rope_long_term_decay",
    "rope_pairing_permutation",
    "rotate_half",
    "shaw_attention",
    "shaw_relative_indices",
    "sinusoidal",
    "sinusoidal_at",
    "sinusoidal_inv_freq",
    "sinusoidal_wavelengths",
    "t5_relative_bias",
    "t5_relative_bucket",
]
