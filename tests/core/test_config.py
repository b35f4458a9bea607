import pytest

from core.config import PipelineConfig


def test_defaults_are_the_books():
    cfg = PipelineConfig()
    assert (cfg.vocab_size, cfg.output_dim, cfg.context_length, cfg.batch_size, cfg.stride, cfg.seed) == (
        50257,
        256,
        4,
        8,
        4,
        123,
    )
    assert cfg.method == "learned"
    cfg.validate()


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"stride": 0}, "Stride must be between 1"),
        ({"context_length": 0}, "Context length must be between 1"),
        ({"output_dim": 100_000}, "Embedding dim must be between 1 and 16,384"),
        ({"batch_size": -1}, "Batch size"),
        ({"method": "xpos"}, "Unknown positional method"),
        ({"method": "sinusoidal", "output_dim": 255}, "must be even"),
    ],
)
def test_bad_settings(changes, message):
    with pytest.raises(ValueError, match=message):
        PipelineConfig(**changes).validate()
