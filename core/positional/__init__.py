"""Positional-encoding families, one module each, registered in ``FAMILIES`` from the one list below.

To add a family: write its module here, ending with ``FAMILY = Family(...)`` (``core.positional.family``
says what each field is and which are optional), and add its module's name to ``FAMILY_MODULES`` where
the app should list it. ``FAMILIES`` is defined in ``core.positional.family``: import it from there.
"""

from importlib import import_module

from core.positional.alibi import alibi_bias, alibi_slopes
from core.positional.family import FAMILIES, Family, FamilyConfig, Param, register
from core.positional.learned import learned_rows
from core.positional.nope import nope
from core.positional.rope import (
    apply_rope,
    apply_rotary,
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

# Every family's module, in the app's order (NoPE first, RoPE last): FAMILIES is filled from this list.
FAMILY_MODULES = (
    "core.positional.nope",
    "core.positional.learned",
    "core.positional.sinusoidal",
    "core.positional.shaw",
    "core.positional.t5",
    "core.positional.alibi",
    "core.positional.rope",
)
for module in FAMILY_MODULES:
    register(import_module(module).FAMILY)

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
