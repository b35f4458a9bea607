"""The Why position? page's script: runs as shown (script and notebook) and prints the page's numbers."""

import re

import pytest
import torch

from core.config import PipelineConfig
from core.order import mid_sentence
from core.positional.family import FAMILIES
from core.positional.sinusoidal import sinusoidal_at
from core.scripts.why_position import FAMILIES_HEADING, why_position_script
from tests.ui.conftest import page_metrics

CAT = (" The cat sat on the mat", " On the mat the cat sat")  # the page's default, read mid-sentence
FLOATS = [  # the shared-token table's float columns, and the script's keys for them
    ("cosine, no positions", "cosine_without"),
    ("cosine, with positions", "cosine_with"),
    ("norm, no positions", "norm_without"),
    ("norm in A, with positions", "norm_with_a"),
    ("norm in B, with positions", "norm_with_b"),
]
CASES = {  # id: (the page's URL, the same settings and sentences as the page reads them)
    "defaults": ({}, PipelineConfig(), CAT),
    "sinusoidal-d64-seed5": (
        {"method": "sinusoidal", "dim": "64", "seed": "5"},
        PipelineConfig(method="sinusoidal", output_dim=64, seed=5),
        CAT,
    ),
    "rope": ({"method": "rope"}, PipelineConfig(method="rope"), CAT),
    # the toggle off, a vocabulary cut to 1,000 and a learned table longer than the sentences
    "no-space-vocab1000-T16": (
        {"a": "the dog bit the man", "b": "the man bit the dog", "space": "false", "vocab": "1000"}
        | {"context": "16", "seed": "9"},
        PipelineConfig(vocab_size=1000, context_length=16, seed=9),
        ("the dog bit the man", "the man bit the dog"),
    ),
}


def assert_prints_the_page(result: dict, at, additive: bool = True) -> None:
    """The script's JSON equals what the AppTest ``at`` of the page shows: IDs exactly, floats to 1e-6."""
    assert not at.exception
    ids_a, ids_b = (  # the sentences' chips to pick, each "piece :small[ID]"
        [int(re.search(r":small\[(\d+)\]", o.content).group(1)) for o in at.button_group(key=k).proto.options]
        for k in ("pick_token_a", "pick_token_b")
    )
    chips = [re.findall(r"<sub>(\d+)</sub>", str(h.proto.body)) for h in at.main.get("html")]
    (ids_shuffled,) = [[int(i) for i in c] for c in chips if c][:1]  # the shuffled sentence: a picture
    assert (result["ids_a"], result["ids_b"], result["ids_shuffled"]) == (ids_a, ids_b, ids_shuffled)

    shared = at.table[0].value  # 1. the shared-token table
    assert [s["token_id"] for s in result["shared"]] == shared["ID"].tolist()
    assert [s["position_a"] for s in result["shared"]] == shared["position in A"].tolist()
    assert [s["position_b"] for s in result["shared"]] == shared["position in B"].tolist()
    for column, key in FLOATS:
        assert [s[key] for s in result["shared"]] == pytest.approx(shared[column].tolist(), rel=0, abs=1e-6)

    # The first token that moved: its cosine without positions, and with them for a method that adds them
    # (the others' headline is their term on pairs, which the Attention page's script prints).
    assert result["moved"] is not None
    metrics = page_metrics(at)  # below the answer box
    assert float(metrics[0].value) == pytest.approx(result["moved"]["without"], rel=0, abs=1e-6)
    if additive:
        assert float(metrics[1].value) == pytest.approx(result["moved"]["with"], rel=0, abs=1e-6)

    orders = at.table[1].value.set_index("pair")  # 2. A vs its shuffle, A vs B
    assert list(orders.index) == list(result["orders"])
    for pair, c in result["orders"].items():
        row = orders.loc[pair]
        assert row["same vectors, no positions"] == f"{c['shared_without']} of {c['num_vectors']}"
        assert row["same vectors, with positions"] == f"{c['shared_with']} of {c['num_vectors']}"
        for column, key in [
            ("cosine of the averages, no positions", "mean_cosine_without"),
            ("cosine of the averages, with positions", "mean_cosine_with"),
            ("largest difference of the averages, with positions", "mean_diff_with"),
        ]:
            assert c[key] == pytest.approx(row[column], rel=0, abs=1e-6), (pair, column)


@pytest.mark.slow  # a fresh Python importing torch, and the page, each
@pytest.mark.parametrize("case", CASES)
def test_the_script_prints_the_pages_numbers(case, tmp_path, run, open_page):
    url, cfg, (text_a, text_b) = CASES[case]
    result, stdout = run(why_position_script(cfg, text_a, text_b), tmp_path)
    assert_prints_the_page(result, open_page("pages/Why_position.py", **url), FAMILIES[cfg.method].additive)
    assert "A vs shuffled A: same vectors" in stdout


@pytest.mark.slow
def test_the_notebook_prints_the_same(tmp_path, run_nb, open_page):
    url, cfg, (text_a, text_b) = CASES["sinusoidal-d64-seed5"]
    result, stdout = run_nb(why_position_script(cfg, text_a, text_b), tmp_path)
    assert "' cat' moved from 1 to 4" in stdout
    assert_prints_the_page(result, open_page("pages/Why_position.py", **url))


def test_the_cases_read_the_sentences_as_the_page_does():
    assert CAT == tuple(mid_sentence(t) for t in ("The cat sat on the mat", "On the mat the cat sat"))


# Drift guard: the script's formulas, exec'd from its cells, against core's.


def script_functions(method: str) -> dict:
    """The names the script's settings cell and its families cell define (for ``method``)."""
    script = why_position_script(PipelineConfig(method=method, output_dim=64), *CAT)
    cells = {c.heading: c.code for c in script.cells}
    namespace: dict = {}
    exec(script.cells[0].code, namespace)  # imports and settings
    exec(cells[FAMILIES_HEADING], namespace)
    return namespace


def drift(ns: dict) -> list[str]:
    """Where the script's ``sinusoidal`` (if ``ns`` defines it) differs from core's."""
    found = []
    if "sinusoidal" in ns:
        for num_positions in (1, 7, 64, 1000):
            for dim in (2, 6, 64, 256):
                p = torch.arange(num_positions)
                if not torch.equal(ns["sinusoidal"](p, dim), sinusoidal_at(p, dim)):
                    found.append(f"sinusoidal({num_positions}, {dim})")
    return found


@pytest.mark.parametrize("method", ["sinusoidal"])
def test_the_scripts_formulas_are_cores(method):
    ns = script_functions(method)
    assert method in ns
    assert drift(ns) == []


@pytest.mark.parametrize(
    "method, old, new",
    [
        (
            "sinusoidal",
            "(angles.sin(), angles.cos()), dim=-1).flatten",
            "(angles.cos(), angles.sin()), dim=-1).flatten",
        ),
        ("sinusoidal", "base=10000.0", "base=1000.0"),
    ],
)
def test_the_drift_guard_catches_a_changed_formula(method, old, new):
    script = why_position_script(PipelineConfig(method=method, output_dim=64), *CAT)
    code = next(c.code for c in script.cells if c.heading == FAMILIES_HEADING)
    assert old in code
    ns: dict = {}
    exec(script.cells[0].code, ns)
    exec(code.replace(old, new), ns)
    assert drift(ns)


def test_only_the_methods_with_a_formula_have_a_families_cell():
    for method in FAMILIES:
        headings = [c.heading for c in why_position_script(PipelineConfig(method=method), *CAT).cells]
        assert (FAMILIES_HEADING in headings) == (method == "sinusoidal"), method


LONG = 'Don\'t "quote" me: ' + "the cat sat on the mat " * 12  # 300 characters, both quotes
SETTINGS = {
    **{case: cfg for case, (_, cfg, _) in CASES.items()},
    **{m: PipelineConfig(method=m) for m in FAMILIES},
    "rope-odd-d": PipelineConfig(method="rope", output_dim=65),
    "d1024": PipelineConfig(output_dim=1024),  # 51 M values: the app row-seeds the token table
    "d12288": PipelineConfig(output_dim=12288),  # 2.5 GB: the script stops
}


@pytest.mark.parametrize("cfg", SETTINGS.values(), ids=SETTINGS)
@pytest.mark.parametrize("texts", [CAT, (LONG[:300], LONG[::-1][:300])], ids=["cat", "long"])
def test_the_script_is_short_and_passes_ruff(cfg, texts, ruff):
    script = why_position_script(cfg, *texts)
    assert script.lines <= 150
    assert ruff(script.py()) == ""


def test_a_row_seeded_table_is_said_and_a_table_of_gigabytes_stops():
    code = why_position_script(PipelineConfig(output_dim=1024), *CAT).py()
    assert "The app never allocates this 50,257 × 1,024 table (0.21 GB of float32)" in code
    assert "SystemExit" not in code
    assert "(the app's, row-seeded, has other values)" in code
    code = why_position_script(PipelineConfig(output_dim=12288), *CAT).py()
    assert (
        'raise SystemExit(f"nn.Embedding({vocab_size}, {output_dim}) needs 2.5 GB: lower the sizes.")' in code
    )


def test_the_page_shows_the_whole_script_and_offers_it_as_a_notebook(open_page):
    at = open_page("pages/Why_position.py", method="sinusoidal", dim="64", seed="5", code=True)
    assert not at.exception
    script = why_position_script(PipelineConfig(method="sinusoidal", output_dim=64, seed=5), *CAT)
    assert script.py().strip() in [c.value.strip() for c in at.code]  # what you see is what you download
    labels = [b.label for b in at.get("download_button")]
    assert {"why_position.py", "why_position.ipynb"} <= set(labels)
