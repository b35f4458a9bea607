"""Fixtures of the deploy tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deploy.support import TORCH_WHEEL, local_torch_wheel


@pytest.fixture(scope="session")
def torch_wheel() -> Path:
    """This machine's torch 2.13.0 CPU wheel for Python 3.11 (the test skips where there is none)."""
    path = local_torch_wheel()
    if path is None:
        pytest.skip(f"no local {TORCH_WHEEL} (pip's find-links)")
    return path
