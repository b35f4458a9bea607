"""Positional-encoding families, one module each; import them from here.

from core.positional import sinusoidal
"""

from core.positional.alibi import alibi_bias, alibi_slopes
from core.positional.learned import learned_position_rows
from core.positional.nope import nope
from core.positional.rope import (
    apply_rope,
    rope_inv_freq,
    rope_long_term_decay,
    rope_pairing_permutation,
    rotate_half,
)
from core.positional.shaw import shaw_attention, shaw_relative_indices
from core.positional.sinusoidal import (
    LAYOUTS,
    check_sinusoidal,
    sinusoidal,
    sinusoidal_at,
    sinusoidal_inv_freq,
    sinusoidal_wavelengths,
)
from core.positional.t5 import check_t5_buckets, t5_relative_bias, t5_relative_bucket

__all__ = [
    "LAYOUTS",
    "check_sinusoidal",
    "check_t5_buckets",
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "learned_position_rows",
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
