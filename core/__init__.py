"""Positional Embeddings Explorer: pure Python + torch core (no Streamlit), grouped by the pipeline's steps.

* ``text``: text → token IDs → batches; ``positional``: the positional-encoding families;
* ``attention``: where relative positions act; ``training``: a tiny GPT learns its positions;
* ``views``: charts, diagrams and labels; ``serving``: one small server's memory for a whole class;
* ``scripts``: each view as a script a student can run; the modules at the top (``config``,
  ``pipeline``, ``embeddings``, ``order``, ``similarity``, ``families``, ``presets``, ``prediction``)
  are the lesson's settings and the steps that join the packages.

Everything here is usable from a notebook::

    from core.text import create_dataloader, gpt2_tokenizer
"""

from __future__ import annotations

import importlib
from collections.abc import Callable


def lazy_exports(
    package: str, exports: dict[str, tuple[str, ...]]
) -> tuple[Callable[[str], object], list[str]]:
    """A package's ``__getattr__`` and ``__all__`` for ``exports`` (module → names): ``from core.text import
    encode`` imports ``core.text.tokenizer`` on first use, so importing a package costs nothing and no
    package imports another's modules before they are asked for."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> object:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(where[name]), name)

    return __getattr__, sorted(where)
