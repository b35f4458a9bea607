"""The Today's models script: it runs alone (``python -I``, no project on the path) and prints the page's
numbers, each as the page's core computes it."""

import pytest
import torch

from core.attention.soft_cap import soft_cap
from core.positional.todays_models import GEMMA2
from core.positional.todays_views import (
    AFTER,
    BEFORE,
    SHOWN_CHUNK,
    SHOWN_TOKENS,
    deepseek_scale,
    gemma2_layers,
    gemma3_layers,
    gemma3_wavelengths,
    gemma4_full_pairs,
    gemma4_layers,
    heads_frame,
    kept_scores,
    nope_layers,
    small_masks,
    temperature_frame,
    vl_tokens,
    window_scores,
)
from core.scripts.todays_models import todays_models_script

pytestmark = pytest.mark.slow  # it starts a Python of its own


def test_the_script_prints_the_pages_numbers(tmp_path, run):
    result, stdout = run(todays_models_script(), tmp_path)
    assert result["nope_layers"] == nope_layers()
    assert result["chunked_pairs"] == int(next(iter(small_masks(SHOWN_TOKENS, SHOWN_CHUNK).values())).sum())
    shown = temperature_frame().set_index("position")["query factor"]
    assert result["temperature"] == pytest.approx([shown[p] for p in (0, 8190, 8191, 70000)], abs=1e-7)
    assert result["gemma3_full"] == sum(p.sees == "full" for p in gemma3_layers())
    assert result["turning_in_window"] == gemma3_wavelengths().turning_in_window
    scores = window_scores()
    assert result["window_scores"] == {"at_edge": scores.at_edge, "past": scores.past}
    assert result["kept_lowest"] == pytest.approx(list(kept_scores().lowest.values()), abs=1e-12)
    capped = float(soft_cap(torch.tensor(100.0, dtype=torch.float64), GEMMA2.cap))
    assert result["gemma2"] == {"full": sum(p.sees == "full" for p in gemma2_layers()), "capped": capped}
    pairs = gemma4_full_pairs()
    assert result["gemma4"]["full"] == sum(p.sees == "full" for p in gemma4_layers())
    assert result["gemma4"]["turning_pairs"] == pairs.turned
    assert result["gemma4"]["slowest"] == pytest.approx(pairs.slowest, rel=1e-6)  # float32 θ, as the page's
    tokens = vl_tokens(BEFORE, AFTER)
    assert result["positions"] == [tokens[k].tolist() for k in ("t", "h", "w")]
    assert result["turned"] == dict(
        zip(heads_frame()["model"], heads_frame()["turned"].tolist(), strict=True)
    )
    assert result["deepseek_scale"] == pytest.approx(deepseek_scale()[0], rel=1e-12)
    assert "Llama 4 Scout: 12 of 48 layers without position" in stdout


def test_the_script_is_short():
    assert todays_models_script().lines <= 200
