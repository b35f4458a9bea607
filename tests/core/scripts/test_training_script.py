"""The Training page's script: the same run as the Train button (script and notebook), in the book's style."""

import pytest
import torch

from core.positional.alibi import alibi_attention_bias, get_slopes
from core.positional.rope import apply_rope
from core.positional.sinusoidal import sinusoidal_at
from core.scripts.common import TEXT_FILE, text_lines
from core.scripts.training import FAMILIES_CELL, training_script
from core.text.samples import SAMPLES
from core.text.tokenizer import encode
from core.training.model import SIZES, GPTConfig, TinyGPT, init_weights
from core.training.training import MAX_TRAIN_TOKENS, RECORDS, TrainConfig, TrainResult, batch_size_for, train

PAGE = "pages/Training.py"
TOL = 1e-6  # every loss; steps, vocabulary and parameter counts exactly


def tiny(method: str, context: int = 8, steps: int = 12, seed: int = 4, size: str = "tiny") -> TrainConfig:
    """A run the page's controls can ask for (the batch follows the context, as on the page)."""
    return TrainConfig(method, context, size, steps, batch_size=batch_size_for(context), seed=seed)


def app_run(tcfg: TrainConfig, text: str, vocab_size: int = 50257) -> TrainResult:
    """What the page's queue runs for the Train button."""
    return train(encode(text, vocab_size)[:MAX_TRAIN_TOKENS], tcfg)


def assert_same_run(result: dict, app: TrainResult) -> None:
    """The script's printed run is the app's: the loss curve, the structure score and the final numbers."""
    assert result["steps"] == app.steps
    assert result["vocab_size"] == app.vocab_size
    assert result["num_parameters"] == app.num_parameters
    assert result["unigram_val_loss"] == pytest.approx(app.unigram_val_loss, abs=TOL)
    for key in ("train_loss", "val_loss", "structure"):
        assert len(result[key]) == len(getattr(app, key))
        assert result[key] == pytest.approx(getattr(app, key), abs=TOL), key
    for key in ("val_loss_inside", "val_loss_past_inside", "val_loss_past_outside"):
        want = getattr(app, key)
        assert result[key] == (None if want is None else pytest.approx(want, abs=TOL)), key


SETTINGS = [  # (config, text, the sidebar's vocab)
    (tiny("learned", steps=30, seed=7), SAMPLES["log"], 50257),
    (tiny("rope"), SAMPLES["log"], 50257),
    (tiny("alibi", context=12, steps=20, size="small"), SAMPLES["log"], 1000),  # GPT-2's BPE cut to 1,000
    (tiny("sinusoidal", steps=40, seed=123), SAMPLES["log"], 50257),
    (tiny("nope", steps=16), SAMPLES["lesson"], 50257),  # a short text: written into the script
]
IDS = ["learned", "rope", "alibi-vocab-1000", "sinusoidal", "nope-short-text"]


@pytest.mark.slow  # a fresh Python importing torch and training, each
@pytest.mark.parametrize(("tcfg", "text", "vocab_size"), SETTINGS, ids=IDS)
def test_the_script_repeats_the_pages_run(tcfg, text, vocab_size, tmp_path, run):
    script = training_script(tcfg, text, vocab_size)
    assert list(script.files) == ([] if len(text) <= 2000 else [TEXT_FILE])
    result, stdout = run(script, tmp_path)
    app = app_run(tcfg, text, vocab_size)
    assert_same_run(result, app)
    assert (
        f"guess from token counts (each from its count in the training text): {app.unigram_val_loss:.4f}"
        in stdout
    )
    assert f"step {tcfg.steps:5d}  train loss {app.train_loss[-1]:.4f}" in stdout
    assert (app.val_loss_past_outside is None) == (tcfg.method == "learned")  # a learned table stops at T


@pytest.mark.slow  # the page's default run: 300 steps of the small model
def test_the_default_script_runs_the_pages_default_run(tmp_path, run):
    tcfg = TrainConfig(batch_size=batch_size_for(TrainConfig().context_length))  # the page's defaults
    result, _ = run(training_script(tcfg, SAMPLES["log"]), tmp_path)
    assert_same_run(result, app_run(tcfg, SAMPLES["log"]))
    assert result["steps"] == list(range(0, 301, 300 // RECORDS))
    assert result["val_loss_inside"] < result["unigram_val_loss"]
    assert result["structure"][-1] > result["structure"][0]  # learned: neighbouring rows became alike


@pytest.mark.slow
def test_the_notebook_prints_the_same(tmp_path, run_nb):
    tcfg, text = tiny("learned", steps=12, seed=3), SAMPLES["log"]
    result, stdout = run_nb(training_script(tcfg, text), tmp_path)
    assert_same_run(result, app_run(tcfg, text))
    assert "step    12  train loss" in stdout


@pytest.mark.slow  # a real run through the page's queue, then the script
def test_the_script_prints_what_the_page_shows(open_page, job_watch, tmp_path, run):
    at = open_page(PAGE, method="rope", steps="12", size="tiny", train_context="8", seed="4")
    at.button(key="train").click().run()
    job_watch.until_finished()
    at.run()
    (job,) = job_watch.jobs
    result, _ = run(training_script(job.config, SAMPLES["log"]), tmp_path)
    assert job.config == tiny("rope")
    assert_same_run(result, job.result)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Validation loss"] == f"{result['val_loss_inside']:.3f}"
    assert metrics["Guess from token counts"] == f"{result['unigram_val_loss']:.3f}"
    assert metrics["Parameters"] == f"{result['num_parameters']:,}"


def test_the_page_shows_the_whole_script_and_offers_it_with_its_text(open_page):
    at = open_page(
        PAGE, method="alibi", steps="40", size="tiny", train_context="16", seed="9", vocab="2000", code=True
    )
    assert not at.exception
    script = training_script(tiny("alibi", context=16, steps=40, seed=9), SAMPLES["log"], 2000)
    assert script.py().strip() in [c.value.strip() for c in at.code]  # what you see is what you download
    labels = {b.label for b in at.get("download_button")}
    assert {"training.py", "training.ipynb", TEXT_FILE} <= labels


@pytest.mark.parametrize(
    "tcfg", [TrainConfig(), tiny("rope"), tiny("sinusoidal", 256, 5000, size="medium"), tiny("nope")], ids=str
)
def test_the_script_is_short_and_passes_ruff(tcfg, ruff):
    for text in (SAMPLES["log"], SAMPLES["lesson"]):
        script = training_script(tcfg, text)
        assert script.lines - text_lines(text).count("\n") <= 260  # an embedded text (≤ 2 kB) comes on top
        assert ruff(script.py()) == ""


def _cells(script, *headings: str, **given) -> dict:
    """Run the script's settings cell and the named cells in a namespace holding ``given``; return it."""
    namespace = dict(given)
    exec(script.cells[0].code, namespace)  # imports and settings
    for cell in script.cells:
        if cell.heading in headings:
            exec(cell.code, namespace)
    return namespace


def test_the_scripts_positional_families_are_cores():
    ns = _cells(training_script(TrainConfig(), SAMPLES["lesson"]), FAMILIES_CELL)
    for T in (1, 8, 100, 513):
        for d in (2, 32, 64, 128):
            p = torch.arange(T)
            assert torch.equal(ns["sinusoidal"](p, d), sinusoidal_at(p, d)), (T, d)
    g = torch.Generator().manual_seed(0)
    for shape in ((1, 1, 5, 2), (2, 4, 32, 16), (3, 2, 64, 64)):
        x = torch.randn(shape, generator=g)
        for positions in (torch.arange(shape[2]), torch.arange(shape[2]) + 1000):
            assert torch.equal(ns["apply_rotary"](x, positions), apply_rope(x, positions, 10000.0)), shape
    for n in range(1, 65):
        assert ns["get_slopes"](n) == get_slopes(n), n
    for heads in (1, 2, 3, 4, 6, 8, 12):
        for T in (1, 8, 64):
            assert torch.equal(ns["alibi_bias"](heads, T), alibi_attention_bias(heads, torch.arange(T)))


@pytest.mark.parametrize("method", ["learned", "sinusoidal", "rope", "alibi", "nope"])
def test_the_scripts_model_is_cores_tiny_gpt(method):
    """The script's model cell makes core's TinyGPT: the same initial weights and the same logits."""
    V, T, seed = 37, 8, 5
    script = training_script(tiny(method, context=T, seed=seed, size="small"), SAMPLES["lesson"])
    heading = next(c.heading for c in script.cells if "tiny GPT" in c.heading)
    ours = _cells(script, FAMILIES_CELL, heading, vocab=list(range(V)))["model"]
    core = TinyGPT(GPTConfig(V, T, *SIZES["small"], method))
    init_weights(core, torch.Generator().manual_seed(seed))
    pairs = list(zip(ours.parameters(), core.parameters(), strict=True))  # the same order: clipping sums so
    assert all(a.shape == b.shape and torch.equal(a, b) for a, b in pairs)
    idx = torch.randint(0, V, (3, 2 * T), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        assert torch.equal(ours(idx[:, :T]), core(idx[:, :T]))
        if method != "learned":  # past the trained length too
            assert torch.equal(ours(idx), core(idx))
