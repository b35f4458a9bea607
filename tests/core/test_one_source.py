"""What a student reads is written once: a page's script shows the very function the app runs."""

import pytest
import torch

from core.config import PipelineConfig
from core.positional.alibi import get_slopes
from core.positional.family import FAMILIES, FamilyConfig
from core.positional.rope import apply_rope, apply_rotary, rotate_half
from core.positional.sinusoidal import sinusoidal
from core.positional.t5 import _relative_position_bucket
from core.scripts.attention import attention_script
from core.scripts.common import source
from core.scripts.families import families_script
from core.scripts.pipeline import pipeline_script
from core.scripts.trained_positions import trained_positions_script
from core.scripts.training import training_script
from core.scripts.why_position import why_position_script
from core.text.samples import SAMPLES
from core.training.training import TrainConfig

# Each page's script, and the reference functions it shows.
SINUSOIDAL = PipelineConfig(method="sinusoidal")
SCRIPTS = {
    "Pipeline": (lambda: pipeline_script(SINUSOIDAL, SAMPLES["lesson"]), [sinusoidal]),
    "Why position?": (lambda: why_position_script(SINUSOIDAL, "The cat sat", "sat cat"), [sinusoidal]),
    "Families": (
        lambda: families_script(PipelineConfig(), FamilyConfig()),
        [sinusoidal, get_slopes, _relative_position_bucket, rotate_half, apply_rotary],
    ),
    "Attention, sinusoidal": (
        lambda: attention_script(SINUSOIDAL, FamilyConfig(), 1, True, "The cat sat", "sat cat"),
        [sinusoidal],
    ),
    "Attention, ALiBi": (
        lambda: attention_script(
            PipelineConfig(method="alibi"), FamilyConfig(), 1, True, "The cat sat", "sat cat"
        ),
        [get_slopes],
    ),
    "Attention, RoPE": (
        lambda: attention_script(
            PipelineConfig(method="rope"), FamilyConfig(), 1, True, "The cat sat", "sat cat"
        ),
        [rotate_half, apply_rotary],
    ),
    "Attention, T5": (
        lambda: attention_script(
            PipelineConfig(method="t5"), FamilyConfig(), 1, True, "The cat sat", "sat cat"
        ),
        [_relative_position_bucket],
    ),
    "Training": (
        lambda: training_script(TrainConfig(method="alibi"), SAMPLES["log"]),
        [sinusoidal, get_slopes, rotate_half, apply_rotary],
    ),
    "Trained positions": (lambda: trained_positions_script(123), [sinusoidal]),
}


def test_the_app_runs_the_reference_text():
    slopes, bucket = source(get_slopes), source(_relative_position_bucket)
    assert slopes.startswith("def get_slopes(n):") and "def get_slopes_power_of_2(n):" in slopes
    assert bucket.startswith("def _relative_position_bucket(relative_position, bidirectional=True,")
    rotary = source(apply_rotary)
    assert rotary.startswith("def apply_rotary(x, positions, base=10000.0, interleaved=True):")
    assert "rotate_half(x)" in rotary and source(rotate_half).startswith("def rotate_half(x):")


def test_the_app_rotates_with_the_reference():
    x, positions = torch.randn(2, 3, 5, 8, generator=torch.Generator().manual_seed(0)), torch.arange(5)
    for interleaved in (True, False):
        assert torch.equal(
            FAMILIES["rope"].rotate(x, positions, 500.0, interleaved),
            apply_rotary(x, positions, 500.0, interleaved),
        )
    assert FAMILIES["rope"].rotate is apply_rope


@pytest.mark.parametrize("page", SCRIPTS)
def test_a_page_script_shows_the_functions_the_app_runs(page):
    script, functions = SCRIPTS[page]
    text = script().py()
    assert all(source(function) in text for function in functions)
