import json
import math

import pytest
import torch

from core.text.samples import SAMPLES
from core.text.tokenizer import encode
from core.training.training import (
    TrainConfig,
    TrainResult,
    compact_vocab,
    comparison_rows,
    main,
    position_structure,
    train,
    unigram_loss,
)

LOG = encode(SAMPLES["log"])
SHORT = TrainConfig(size="tiny", steps=80, context_length=16, batch_size=16)


def test_short_run_is_deterministic_and_learns():
    a, b = train(LOG, SHORT), train(LOG, SHORT)
    assert a.train_loss == b.train_loss and a.val_loss == b.val_loss
    assert a.val_loss[-1] < a.val_loss[0] - 1.0
    assert a.val_loss_inside < a.unigram_val_loss
    assert a.steps[0] == 0 and a.steps[-1] == 80
    assert len(a.snapshots) == len(a.structure) == len(a.steps)


def test_methods_that_can_run_past_the_trained_length_report_it():
    learned = train(LOG, SHORT)
    rope = train(LOG, TrainConfig(**{**SHORT.__dict__, "method": "rope"}))
    assert learned.val_loss_past_outside is None
    assert math.isfinite(rope.val_loss_past_inside) and math.isfinite(rope.val_loss_past_outside)
    assert rope.snapshots == []


def test_stop_ends_the_run_early():
    result = train(LOG, SHORT, should_stop=lambda: True)
    assert result.stopped and result.steps == [0]


def test_structure_metric():
    assert abs(position_structure(torch.randn(32, 64, generator=torch.Generator().manual_seed(1)))) < 0.15
    # A random walk: each position is the previous one plus a small step, so neighbours are alike.
    walk = torch.randn(32, 64, generator=torch.Generator().manual_seed(2)).cumsum(dim=0)
    assert position_structure(walk) > 0.3
    line = torch.stack([torch.tensor([float(math.cos(t / 10)), float(math.sin(t / 10))]) for t in range(32)])
    assert position_structure(line) > 1.0


def test_compact_vocab_and_unigram():
    ids, vocab = compact_vocab([50256, 7, 7, 3])
    assert vocab == [3, 7, 50256] and ids.tolist() == [2, 1, 1, 0]
    # Uniform training counts over 2 tokens (+1 smoothing): -log(1/2).
    assert unigram_loss(torch.tensor([0, 1]), torch.tensor([0]), 2) == pytest.approx(math.log(2))


@pytest.mark.parametrize(
    "cfg, message",
    [
        (TrainConfig(context_length=2), "between 4 and 256"),
        (TrainConfig(method="t5"), "Training supports"),
        (TrainConfig(size="huge"), "Model size"),
    ],
)
def test_bad_settings(cfg, message):
    with pytest.raises(ValueError, match=message):
        cfg.validate(10_000)


def test_text_too_short():
    with pytest.raises(ValueError, match="needs at least 660"):
        TrainConfig(context_length=32).validate(278)


def test_command_line_prints_json(capsys):
    main(["--method", "alibi", "--size", "tiny", "--steps", "5", "--context", "8"])
    out = json.loads(capsys.readouterr().out)
    assert out["config"]["method"] == "alibi" and out["steps"][-1] == 5
    assert out["val_loss_inside"] > 0 and out["unigram_val_loss"] > 0


def test_evaluation_in_chunks_equals_one_pass_over_every_window(monkeypatch):
    import core.training.training as training
    from core.training.model import GPTConfig, TinyGPT

    torch.manual_seed(0)
    model = TinyGPT(GPTConfig(50, 8, 16, 2, 1, "learned")).eval()
    data = torch.randint(0, 50, (200,))
    x, y = training.windows(data, 8)  # 24 windows
    with torch.no_grad():
        logits = model(x)  # [24, 8, 50], all at once
    expected = torch.nn.functional.cross_entropy(logits.transpose(1, 2), y, reduction="none").mean(0)
    monkeypatch.setattr(training, "LOGIT_ELEMENTS", 5 * 8 * 50)  # five windows per pass: 5 passes
    torch.testing.assert_close(training.per_position_loss(model, data, 8), expected)
    with torch.no_grad():  # a capped evaluation reads the first 10 windows
        first = torch.nn.functional.cross_entropy(logits[:10].transpose(1, 2), y[:10], reduction="none")
    torch.testing.assert_close(training.per_position_loss(model, data, 8, max_tokens=80), first.mean(0))


def test_a_run_over_the_time_or_memory_budget_is_refused_with_what_to_change():
    from core.training.training import batch_size_for, estimated_bytes, estimated_seconds

    assert [batch_size_for(T) for T in (4, 32, 64, 256)] == [256, 32, 16, 4]
    default = TrainConfig()
    assert estimated_seconds(default, 340, 9115) < 60  # the page's default run on the ship's log
    default.validate(9115, 340)
    long_run = TrainConfig(size="medium", context_length=256, batch_size=4, steps=5000)
    with pytest.raises(ValueError, match=r"Lower the steps to at most [0-9,]+, the context") as refused:
        long_run.validate(9115, 340)
    allowed = int(str(refused.value).split("at most ")[2].split(",")[0])
    assert 10 < allowed < 5000
    TrainConfig(size="medium", context_length=256, batch_size=4, steps=allowed).validate(9115, 340)
    wide = TrainConfig(size="small", context_length=32, steps=10)
    assert estimated_bytes(wide, 20_000, 200_000) > estimated_bytes(wide, 340, 200_000)
    with pytest.raises(ValueError, match="MB of memory"):
        wide.validate(200_000, 20_000)


def test_comparison_rows_show_each_methods_losses():
    done = TrainResult(TrainConfig(method="rope"), 10, 100, 4.0)
    done.val_loss_inside, done.val_loss_past_inside, done.val_loss_past_outside = 3.14159, 3.2, 6.0
    learned = TrainResult(TrainConfig(method="learned"), 10, 100, 4.0)
    learned.val_loss_inside = 2.5
    rows = comparison_rows({"learned": learned, "rope": done, "alibi": None}, 8)
    assert rows == [
        {
            "method": "Learned absolute",
            "validation loss, windows of 8": "2.500",
            "windows of 16: positions < 8": "cannot run a window of 16",
            "windows of 16: positions ≥ 8": "cannot run a window of 16",
            "status": "done",
        },
        {
            "method": "RoPE",
            "validation loss, windows of 8": "3.142",
            "windows of 16: positions < 8": "3.200",
            "windows of 16: positions ≥ 8": "6.000",
            "status": "done",
        },
        {
            "method": "ALiBi",
            "validation loss, windows of 8": "—",
            "windows of 16: positions < 8": "—",
            "windows of 16: positions ≥ 8": "—",
            "status": "not trained yet",
        },
    ]
