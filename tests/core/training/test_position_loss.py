"""core.training.position_loss: each method's loss at every position, to 2 × the trained length, and the
words that join the comparison table, the chart's title and legend and the caption on a learned table."""

import pytest

from core.positional.family import FAMILIES
from core.text.samples import SAMPLES
from core.text.tokenizer import encode
from core.training.position_loss import (
    extrapolation_sentences,
    line_label,
    past_length_caption,
    position_loss_chart,
    position_loss_frame,
)
from core.training.training import TrainConfig, TrainResult, comparison_rows, train
from tests.core.prose import prose_problems


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
    results = {
        "learned": result("learned", [3.0, 2.0]),
        "alibi": result("alibi", [3.0, 2.0, 2.5, 3.5]),
        "rope": result("rope", [3.0, 2.0, 2.0, 2.0]),
        "nope": result("nope", [3.0, 2.0, 2.5, 2.504]),
    }
    assert extrapolation_sentences(results, 2) == [
        "Learned absolute stops at position 1: its table has no row for 2, so it cannot run a window of 4 "
        "at all; its line is its loss in windows of 2, its own length (mean 2.500).",
        "ALiBi: mean 2.500 at positions 0 … 1, 3.000 past them: it rises.",
        "RoPE: mean 2.500 at positions 0 … 1, 2.000 past them: it falls.",
        "NoPE: mean 2.500 at positions 0 … 1, 2.502 past them: it stays about the same.",
    ]


def chart_title(results: dict, T: int) -> str:
    spec = position_loss_chart(position_loss_frame(results, T), T).to_dict(validate=True)
    return spec["layer"][0]["title"]


def test_the_title_names_the_windows_each_line_is_read_in():
    learned, alibi = result("learned", [3.0, 2.0]), result("alibi", [3.0, 2.0, 2.5, 2.6])
    assert chart_title({"learned": learned}, 2) == (
        "Validation loss at each position of Learned absolute, in windows of 2: a window of 4 cannot run"
    )
    assert chart_title({"learned": learned, "alibi": alibi}, 2) == (
        "Validation loss at each position, in windows of 4 (twice the trained length); Learned absolute in "
        "windows of 2"
    )
    assert chart_title({"alibi": alibi}, 2) == (
        "Validation loss at each position, in windows of 4 (twice the trained length)"
    )


@pytest.mark.parametrize("T", [4, 32, 256])
@pytest.mark.parametrize("chart", [True, False, None])
def test_the_caption_joins_the_cells_the_legend_and_the_chart(T, chart):
    """The learned table's two cells, its legend entry, its line and the caption say one thing: it cannot
    run a window of 2T, so its cells hold the reason and its line is read in windows of T."""
    text = past_length_caption(T, chart)
    assert not prose_problems(text), prose_problems(text)
    learned = result("learned", [2.0] * T)
    learned.config = TrainConfig(method="learned", context_length=T)
    (row,) = comparison_rows({"learned": learned}, T)
    cells = {row[f"windows of {2 * T}: positions < {T}"], row[f"windows of {2 * T}: positions ≥ {T}"]}
    assert cells == {f"cannot run a window of {2 * T}"}  # both cells, one reason
    assert f"both of its cells for windows of {2 * T} say “cannot run a window of {2 * T}”" in text
    assert line_label("learned", T) == f"Learned absolute (windows of {T})"  # the legend
    said = f"is its loss in windows of {T}, its own length, ending at position {T - 1}"
    assert (said in text) == (chart is not None)  # presenting, no chart is drawn: the caption names none
    assert ("on the chart below" in text) == bool(chart)
    assert "empty" not in text  # the cells are not empty: they say why
    assert "rises in spite of that" in text  # a later position sees more tokens: the causal mask's part
