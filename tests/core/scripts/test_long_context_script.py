"""The Long context page's script: runs as shown (script and notebook) and prints the page's
numbers; its functions are core's (a drift guard, with mutants that it catches); short and ruff-clean."""

from dataclasses import replace

import pytest
import torch

from core.positional.long_context import banded_score, long_context_view, pair_regimes, unseen_pairs
from core.positional.long_context_config import RopeConfig
from core.positional.long_context_presets import PRESETS
from core.positional.long_context_words import pair_findings
from core.positional.rope_scaling import scaled_inv_freq
from core.scripts.long_context import FUNCTION_HEADING, SCORE_HEADING, long_context_script

PAGE = "pages/Long_context.py"
TOL = 1e-6


def assert_matches_core(result: dict, stdout: str, cfg: RopeConfig, label: str) -> None:
    view = long_context_view(cfg, label)
    assert (result["original"], result["extended"]) == (cfg.original, cfg.extended)
    assert result["factor"] == pytest.approx(cfg.factor, rel=TOL)
    assert result["attention_factor"] == pytest.approx(view.attention_factor, rel=TOL)
    torch.testing.assert_close(torch.tensor(result["inv_freq"]), view.scaled, rtol=TOL, atol=0)
    torch.testing.assert_close(torch.tensor(result["plain_inv_freq"]), view.plain, rtol=TOL, atol=0)
    assert result["regimes"] == view.regimes
    assert (result["unseen_plain"], result["unseen_scaled"]) == (view.unseen_plain, view.unseen_scaled)
    assert result["distances"] == view.distances.tolist()
    for key, name in (("score_plain", "plain RoPE"), ("score", label)):
        torch.testing.assert_close(
            torch.tensor(result[key], dtype=torch.float64), view.scores[name], rtol=0, atol=TOL
        )
    assert pair_findings(view)[0] in stdout.splitlines()  # the page's sentence, word for word


def assert_page_shows(at, result: dict, stdout: str) -> None:
    assert not at.exception and not at.error
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Trained length L"] == f"{result['original']:,}"
    assert metrics["Extended length L'"] == f"{result['extended']:,}"
    assert metrics["Attention factor"] == f"{result['attention_factor']:.4f}"
    first = next(line for line in stdout.splitlines() if line.startswith("Of the "))
    assert first in " ".join(m.value for m in at.markdown)


CASES = ["llama3.1-8b", "deepseek-v3", "phi3-mini-128k", "gemma4-global", "llama2-7b-dynamic", "llama-7b-pi"]


@pytest.mark.slow  # a fresh Python importing torch, each
@pytest.mark.parametrize("key", CASES)
def test_the_script_prints_the_pages_numbers(key, tmp_path, run, open_page):
    cfg, label = PRESETS[key].config, PRESETS[key].label.split(" (")[0]
    result, stdout = run(long_context_script(cfg, label), tmp_path)
    assert_matches_core(result, stdout, cfg, label)
    at = open_page(PAGE).selectbox(key="lc_preset").set_value(key).run()
    assert_page_shows(at, result, stdout)


@pytest.mark.slow
def test_a_custom_config_and_its_notebook(tmp_path, run_nb, open_page):
    at = open_page(PAGE, code=True)
    at = at.selectbox(key="lc_rope_type").set_value("yarn").run()  # Llama 3.1's values, read by YaRN
    at = at.number_input(key="lc_partial_rotary_factor").set_value(0.5).run()
    cfg = RopeConfig(
        "yarn", 128, 500000.0, 131072, (("factor", 8.0), ("original_max_position_embeddings", 8192),
                                         ("partial_rotary_factor", 0.5))
    )  # fmt: skip
    script = next(c.value for c in at.code if c.value.startswith('"""'))
    assert script.rstrip("\n") == long_context_script(cfg, "your config").py().rstrip("\n")  # as shown
    result, stdout = run_nb(long_context_script(cfg, "your config"), tmp_path)
    assert_matches_core(result, stdout, cfg, "your config")
    assert_page_shows(at, result, stdout)


def script_scope(script) -> dict:
    """The script's settings, its function and its measures, executed: its names."""
    cells = {c.heading: c.code for c in script.cells}
    scope: dict = {}
    exec(script.cells[0].code, scope)
    exec(cells[FUNCTION_HEADING], scope)
    exec(cells[SCORE_HEADING], scope)
    return scope


def grid() -> list[RopeConfig]:
    configs = [p.config for p in PRESETS.values()]
    for s in (1.0, 2.5, 13.7):
        for partial in ((), (("partial_rotary_factor", 0.5),)):
            configs += [
                RopeConfig("linear", 64, 1e4, 2048, (("factor", s), *partial)),
                RopeConfig("dynamic", 96, 5e5, 4096, (("factor", s), *partial)),
                RopeConfig("yarn", 128, 1e6, 8192, (("factor", s), ("beta_fast", 16.0), *partial)),
                RopeConfig("llama3", 64, 5e5, 32768, (("factor", s), ("low_freq_factor", 2.0),
                                                      ("high_freq_factor", 8.0), *partial)),
                RopeConfig("proportional", 256, 1e6, 8192, (("factor", s), ("partial_rotary_factor", 0.5))),
            ]  # fmt: skip
    pairs = 16
    lists = (
        ("short_factor", [1.0 + i / 9 for i in range(pairs)]),
        ("long_factor", [1.0 + 3 * i for i in range(pairs)]),
    )
    configs.append(
        RopeConfig("longrope", 32, 1e4, 65536, (*lists, ("original_max_position_embeddings", 2048)))
    )
    return configs


def drift(script_of) -> list[str]:
    """Where the scripts' functions and core's disagree on the grid (empty when nowhere)."""
    found = []
    for cfg in grid():
        f = script_scope(script_of(cfg))
        inv, factor = f["scaled_inv_freq"]()
        core_inv, core_factor = cfg.inv_freq()
        plain = cfg.plain_inv_freq()
        if not (torch.equal(inv, core_inv) and factor == pytest.approx(core_factor, rel=1e-12)):
            found.append(f"scaled_inv_freq {cfg.rope_type} {cfg.params[:2]}")
            continue
        if cfg.seq_len is not None:  # dynamic and longrope also at other lengths: L and just past it
            for seq_len in (cfg.original, cfg.original + 1):
                at_len = scaled_inv_freq(
                    cfg.rope_type,
                    cfg.head_dim,
                    cfg.base,
                    cfg.max_position_embeddings,
                    seq_len,
                    **cfg.parameters(),
                )[0]
                if not torch.equal(f["scaled_inv_freq"](seq_len)[0], at_len):
                    found.append(f"scaled_inv_freq {cfg.rope_type} at {seq_len}")
        if not torch.equal(f["plain_inv_freq"](f["dim"]), plain):
            found.append(f"plain_inv_freq {cfg.rope_type}")
        regimes = [f["regime"](p, s) for p, s in zip(plain.tolist(), inv.tolist(), strict=True)]
        if regimes != pair_regimes(plain, inv, cfg.factor):
            found.append(f"regime {cfg.rope_type}")
        if f["unseen"](inv, plain) != unseen_pairs(inv, plain, cfg.original, cfg.extended):
            found.append(f"unseen {cfg.rope_type}")
        d = f["distances"]
        if not torch.equal(d, long_context_view(cfg, "x").distances):
            found.append(f"distances {cfg.rope_type}")
        if not torch.allclose(f["banded_score"](inv, factor, d), banded_score(inv, cfg.head_dim, factor, d)):
            found.append(f"banded_score {cfg.rope_type}")
    return found


def test_the_scripts_functions_are_cores():
    assert drift(lambda cfg: long_context_script(cfg, "x")) == []


MUTANTS = [
    ("yarn", "low, high = math.floor(low), math.ceil(high)", "low, high = round(low), round(high)"),
    ("yarn", "attention_factor = get_mscale(factor)  #", "attention_factor = 1.0  #"),
    ("llama3", "L / low, inv_freq / factor, inv_freq", "L / low, inv_freq / 2 / factor, inv_freq"),
    ("dynamic", "(factor * seq_len / max_position_embeddings) - (factor - 1)", "factor"),
    ("longrope", '"long_factor" if seq_len > L', '"long_factor" if seq_len >= 2 * L'),
    ("proportional", "/ head_dim  # [n]", "/ (2 * rope_angles)  # [n]"),
    ("linear", "plain_inv_freq(dim) / factor", "plain_inv_freq(dim) / (factor + 1)"),
    ("linear", "sums / (b - a)[:, None]", "sums / b[:, None]"),
    ("linear", "abs(ratio - factor) <= 1e-4 * factor", "abs(ratio - factor) <= 1e-9"),
]  # fmt: skip


@pytest.mark.parametrize(
    "rope_type, old, new", MUTANTS, ids=[f"{t}-{k}" for k, (t, *_) in enumerate(MUTANTS)]
)
def test_a_change_to_one_side_fails_the_drift_guard(rope_type, old, new):
    def mutated(cfg):
        script = long_context_script(cfg, "x")
        if cfg.rope_type != rope_type:
            return script
        return replace(script, cells=[replace(c, code=c.code.replace(old, new)) for c in script.cells])

    example = next(c for c in grid() if c.rope_type == rope_type)
    assert old in long_context_script(example, "x").py()
    assert drift(mutated) != []


@pytest.mark.parametrize("cfg", grid()[:9] + grid()[-1:], ids=lambda c: c.rope_type)
def test_the_script_is_short_and_passes_ruff(cfg, ruff):
    script = long_context_script(cfg, "A model's (long) name")
    assert script.lines <= 150
    assert ruff(script.py()) == ""


def test_the_page_shows_the_whole_script_and_offers_it(open_page):
    at = open_page(PAGE, code=True).selectbox(key="lc_preset").set_value("qwen2.5-7b").run()
    assert not at.exception
    script = long_context_script(PRESETS["qwen2.5-7b"].config, "Qwen2.5 7B with YaRN")
    assert script.py().strip() in [c.value.strip() for c in at.code]
    labels = {b.label for b in at.get("download_button")}
    assert {"long_context.py", "long_context.ipynb"} <= labels
