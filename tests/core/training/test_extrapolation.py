"""Extrapolation, measured: a RoPE TinyGPT evaluated past T with none, PI, NTK and YaRN."""

import pytest
import torch

from core.positional.rope import apply_rope
from core.text.samples import SAMPLES
from core.text.tokenizer import encode
from core.training.extrapolation import (
    SCALINGS,
    Extrapolation,
    extrapolation,
    findings,
    measure,
    plain_inv_freq,
    rotate_with,
    rotating_with,
    run_intro,
    scaled_loss_by_position,
    scaling_frequencies,
    verdict,
)
from core.training.model import GPTConfig, TinyGPT, init_weights
from core.training.training import TrainConfig, per_position_loss


def model(method: str = "rope", T: int = 8) -> TinyGPT:
    m = TinyGPT(GPTConfig(50, T, 16, 2, 1, method))
    init_weights(m, torch.Generator().manual_seed(0))
    return m.eval()


def data(n: int = 400) -> torch.Tensor:
    return torch.randint(0, 50, (n,), generator=torch.Generator().manual_seed(1))


def test_the_hook_with_plain_frequencies_is_the_models_own_rotation():
    x = torch.randn(2, 3, 10, 8, generator=torch.Generator().manual_seed(2))
    positions = torch.arange(10)
    assert torch.equal(rotate_with(plain_inv_freq(model()))(x, positions, 10000.0), apply_rope(x, positions))


def test_none_is_the_plain_models_evaluation():
    m, d = model(), data()
    assert torch.equal(scaled_loss_by_position(m, d, 32, "default"), per_position_loss(m, d, 32))


def test_pi_at_factor_s_is_the_positions_divided_by_s():
    m, s = model(), 4
    inv_freq, factor = scaling_frequencies("linear", 8, 10000.0, 8, s * 8)
    assert factor == 1.0
    torch.testing.assert_close(inv_freq, plain_inv_freq(m) / s)
    x, positions = torch.randn(1, 2, 32, 8), torch.arange(32)
    scaled = rotate_with(inv_freq)(x, positions, 10000.0)
    divided = rotate_with(plain_inv_freq(m))(x, positions / s, 10000.0)
    torch.testing.assert_close(scaled, divided)


def test_at_the_trained_length_every_scaling_is_plain_rope():
    m, d = model(), data()
    e = extrapolation(m, d, times=1, shifts=1)  # factor 1
    plain = per_position_loss(m, d, 8).tolist()
    for name in SCALINGS:
        assert e.losses[name] == pytest.approx(plain, abs=1e-6), name


def test_each_position_is_the_mean_over_shifted_windows():
    m, d = model(), data()
    e = extrapolation(m, d, times=2, shifts=4)  # offsets 0, 4, 8, 12
    shifted = [per_position_loss(m, d[o:], 16) for o in (0, 4, 8, 12)]
    assert e.losses["none"] == pytest.approx(torch.stack(shifted).mean(dim=0).tolist(), abs=1e-6)


def test_past_the_trained_length_the_scalings_differ():
    e = extrapolation(model(), data(), times=4)
    assert {name: len(v) for name, v in e.losses.items()} == dict.fromkeys(SCALINGS, 32)
    assert e.losses["PI"] != e.losses["none"] and e.losses["NTK"] != e.losses["YaRN"]


def test_the_hook_is_restored_and_a_model_without_rope_is_refused():
    m = model()
    own = m.blocks[0].attn.family
    with rotating_with(m, rotate_with(plain_inv_freq(m))):
        assert m.blocks[0].attn.family is not own
    assert m.blocks[0].attn.family is own
    with pytest.raises(ValueError, match="not RoPE"), rotating_with(model("learned"), lambda *a: a[0]):
        pass


def test_findings_are_the_numbers():
    losses = {"none": [1.0, 1.0, 3.0, 3.0], "PI": [2.0, 2.0, 2.0, 2.0]}
    losses |= {"NTK": [1.0, 1.0, 1.5, 1.5], "YaRN": [1.0, 1.0, 4.0, 4.0]}
    e = Extrapolation(2, 4, losses)
    text = " ".join(findings(e))
    assert "there, unscaled, its mean loss is 1.000. From position 2 to 3 it rises to 3.000." in text
    assert (
        "Past position 2, from lowest up: dynamic NTK 1.500, position interpolation 2.000, plain RoPE "
        in text
    )
    assert "In this one run dynamic NTK comes out lowest, 1.500 below plain RoPE." in text
    assert (
        "position interpolation also raises the loss before position 2 (position interpolation: 2.000 "
        in text
    )
    assert "dynamic NTK comes out lowest past its trained length, even without further training" in verdict(e)


def test_when_plain_rope_is_lowest_the_findings_say_scaling_alone_did_not_help():
    losses = {"none": [1.0, 1.0, 2.0, 2.0], "PI": [1.5, 1.5, 3.0, 3.0]}
    losses |= {"NTK": [1.2, 1.2, 2.5, 2.5], "YaRN": [1.0, 1.0, 2.2, 2.2]}
    e = Extrapolation(2, 4, losses)
    text = " ".join(findings(e))
    assert (
        "In this one run plain RoPE comes out lowest: without further training, none of the 3 scalings helps"
        in text
    )
    assert "position interpolation and dynamic NTK also raise the loss before position 2" in text
    assert "Scaling alone is not enough: released models train further on long texts" in verdict(e)
    assert "Lowest past" not in text and "nats" not in text


def test_the_run_is_introduced_from_its_config():
    e = Extrapolation(32, 128, {"none": [1.0] * 128}, steps=200)
    intro = run_intro(e)
    assert "(1 layer, 2 heads of 16 dimensions, so 8 pairs each) was trained here for 200 steps" in intro
    assert "Within 32 positions 6 of its 8 pairs never finish a turn." in intro  # 2π / 10000^(−2i/16) > 32
    assert "“Week 1, day 1: the wind was a light breeze from the west, …”" in intro
    assert "the last 10% of the log" in intro and "windows of 128 = 4·T tokens" in intro
    assert "(lower is better)" in intro and "tools/" not in intro and "the tests" not in intro


def test_measure_trains_rope_and_evaluates_past_t():
    ids = encode(SAMPLES["log"])
    e = measure(ids, TrainConfig(method="rope", context_length=8, size="tiny", steps=3), times=2)
    assert e.trained == 8 and e.length == 16 and e.run.config.steps == 3
    assert all(len(v) == 16 for v in e.losses.values())
    with pytest.raises(ValueError, match="RoPE"):
        measure(ids, TrainConfig(method="learned"))


def test_the_shipped_run_is_the_one_measure_trains(tmp_path):
    # The Long context page reads data/extrapolation_measured.json instead of training on a fresh server:
    # trained again here, every loss is the shipped one (bit-identical on this machine; 1e-6 allows a
    # CPU whose float32 sums round otherwise).
    from core.training.extrapolation import RUN, measured, write_measured

    shipped = measured()
    fresh = measure(encode(SAMPLES["log"]))
    assert (shipped.trained, shipped.length, shipped.steps) == (
        RUN.context_length,
        4 * RUN.context_length,
        RUN.steps,
    )
    assert (fresh.trained, fresh.length, fresh.steps) == (shipped.trained, shipped.length, shipped.steps)
    assert list(shipped.losses) == list(SCALINGS)
    for name in SCALINGS:
        assert fresh.losses[name] == pytest.approx(shipped.losses[name], abs=1e-6, rel=0), name
    assert findings(fresh) == findings(shipped)  # the sentences the page writes from them
    write_measured(fresh, tmp_path / "again.json")  # and what the tool writes reads back the same
    again = measured(tmp_path / "again.json")
    assert (
        again.losses == fresh.losses
        and again.steps == fresh.steps
        and again.seconds == round(fresh.seconds, 2)
    )
