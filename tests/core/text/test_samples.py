"""The shipped samples: the long one runs under every preset."""

import pytest

from core.config import PipelineConfig
from core.presets import PRESETS
from core.text.data import first_batch
from core.text.samples import SAMPLES
from core.text.tokenizer import encode

LOG = encode(SAMPLES["log"])


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_long_sample_runs_under_every_preset(name):
    preset, defaults = PRESETS[name], PipelineConfig()
    batch = first_batch(LOG, defaults.batch_size, preset.context_length, defaults.stride)
    assert batch.inputs.shape == (defaults.batch_size, preset.context_length)
    assert max(LOG) < preset.vocab_size  # the preset's token table has a row for every ID


def test_the_short_samples_are_too_short_for_the_big_presets():
    # Why a preset switches to the long sample: the lesson does not fill one GPT-3 window.
    assert len(encode(SAMPLES["lesson"])) < PRESETS["gpt3-175b"].context_length
