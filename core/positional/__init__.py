"""Positional-encoding families, one module each, registered in ``FAMILIES`` from the one list below.

To add a family: write its module here, ending with ``FAMILY = Family(...)`` (``core.positional.family``
says what each field is and which are optional), and add its module's name to ``FAMILY_MODULES`` where
the app should list it. ``FAMILIES`` is defined in ``core.positional.family``: import it from there.
"""

from importlib import import_module

from core.positional.family import register

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
