"""Shared fixtures: the book's corpus (skipped when absent) and a fixed seed for every test."""

from pathlib import Path

import pytest
import torch

VERDICT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "the-verdict.txt"


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


@pytest.fixture
def verdict_text() -> str:
    """The book's sample text, ``../shared/data/the-verdict.txt``; never committed here."""
    if not VERDICT.exists():
        pytest.skip(f"{VERDICT} is absent")
    return VERDICT.read_text(encoding="utf-8")
