"""core.training.position_loss: each method's loss at every position, to 2 × the trained length (issue 23)."""

import pytest

from core.positional import FAMILIES
from core.text.samples import SAMPLES
from core.text.tokenizer import encode
from core.training.position_loss import extrapolation_sentences, position_loss_chart, position_loss_frame
from core.training.training import TrainConfig, TrainResult, train


def result(method: str, losses: list[float]) -> TrainResult:
    r = TrainResult(TrainConfig(method=method, context_length=2), 10, 100, 3.0)
    r.loss_by_position = losses
    return r


def test_a_run_keeps_its_loss_at_every_position_to_twice_t_and_a_learned_table_to_t():
    ids = encode(SAMPLES["log"], 50257)
    for method, length in (("rope", 16), ("learned", 8)):
        r = train(ids, TrainConfig(method=method, context_length=8, size="tiny", steps=3, batch_size=4))
        assert len(r.loss_by_position) == length
        if method == "rope":  # windows of 2T: the table's means, before and past T
            assert sum(r.loss_by_position[:8]) / 8 == pytest.approx(r.val_loss_past_inside, rel=1e-6)
            assert sum(r.loss_by_position[8:]) / 8 == pytest.approx(r.val_loss_past_outside, rel=1e-6)
        else:  # windows of T
            assert sum(r.loss_by_position) / 8 == pytest.approx(r.val_loss_inside, rel=1e-6)


def test_the_frame_has_one_row_per_method_and_position():
    frame = position_loss_frame(
        {
            "learned": result("learned", [3.0, 2.0]),
            "rope": None,
            "alibi": result("alibi", [3.0, 2.0, 2.5, 2.6]),
        },
        2,
    )
    learned = "Learned absolute (windows of 2)"  # its label, and the windows it is read in: of T, not 2T
    assert frame.values.tolist() == [
        [learned, 0, 3.0], [learned, 1, 2.0],
        ["ALiBi", 0, 3.0], ["ALiBi", 1, 2.0], ["ALiBi", 2, 2.5], ["ALiBi", 3, 2.6],
    ]  # fmt: skip


def test_the_chart_draws_each_method_in_its_colour_and_dash_with_the_trained_length_marked():
    frame = position_loss_frame(
        {"learned": result("learned", [3.0, 2.0]), "alibi": result("alibi", [3, 2, 1, 1])}, 2
    )
    spec = position_loss_chart(frame, 2).to_dict(validate=True)
    learned, alibi = FAMILIES["learned"], FAMILIES["alibi"]
    methods = ["Learned absolute (windows of 2)", "ALiBi"]
    color = spec["layer"][0]["encoding"]["color"]["scale"]
    assert color == {"domain": methods, "range": [learned.color, alibi.color]}
    dash = spec["layer"][0]["encoding"]["strokeDash"]["scale"]
    assert dash == {"domain": methods, "range": [list(learned.dash), list(alibi.dash)]}
    assert spec["layer"][0]["encoding"]["y"]["title"] == "loss"
    assert spec["datasets"][spec["layer"][1]["data"]["name"]] == [{"position": 1.5}]  # between T − 1 and T


def test_the_sentences_read_the_numbers():
    results = {"learned": result("learned", [3.0, 2.0]), "alibi": result("alibi", [3.0, 2.0, 2.5, 3.5])}
    assert extrapolation_sentences(results, 2) == [
        "Learned absolute stops at position 1: its table has no row for 2, so it cannot run a window of 4 "
        "at all; its line is its loss in windows of 2, its own length (mean 2.500).",
        "ALiBi: mean 2.500 at positions 0 … 1, 3.000 past them: it rises.",
    ]
