"""What a student reads is written once: a page's script shows the very function the app runs."""

import pytest

from core.config import FamilyConfig, PipelineConfig
from core.positional.alibi import get_slopes
from core.scripts.attention import attention_script
from core.scripts.common import source
from core.scripts.families import families_script
from core.scripts.training import training_script
from core.text.samples import SAMPLES
from core.training.training import TrainConfig

SCRIPTS = {
    "Families": lambda: families_script(PipelineConfig(), FamilyConfig()),
    "Attention": lambda: attention_script(
        PipelineConfig(method="alibi"), FamilyConfig(), 1, True, "The cat sat", "sat the cat"
    ),
    "Training": lambda: training_script(TrainConfig(method="alibi"), SAMPLES["log"]),
}


def test_the_app_runs_the_reference_text():
    text = source(get_slopes)
    assert text.startswith("def get_slopes(n):") and "def get_slopes_power_of_2(n):" in text


@pytest.mark.parametrize("page", SCRIPTS)
def test_a_page_script_shows_the_function_the_app_runs(page):
    assert source(get_slopes) in SCRIPTS[page]().py()
