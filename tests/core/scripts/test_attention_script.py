"""The Attention page's script: runs as shown (script and notebook), prints the page's numbers."""

import re

import pyarrow as pa
import pytest
import torch

from core.attention.heads import RandomHead
from core.config import PipelineConfig
from core.positional.alibi import get_slopes
from core.positional.family import FAMILIES, FamilyConfig
from core.positional.rope import apply_rope
from core.positional.shaw import shaw_key_vectors
from core.positional.sinusoidal import sinusoidal_at
from core.positional.t5 import t5_relative_bucket
from core.scripts.attention import FAMILY_HEADING, attention_script
from core.text.tokenizer import token_strings
from ui.tables import token_text

PAGE = "pages/Attention.py"
CAT = (" The cat sat on the mat", " On the mat the cat sat")  # the page's default, read mid-sentence
DOG = (" dog bites the man", " the man bites dog")
CASES = {  # id: (the page's URL, settings, the page's own settings (fam, head 0-based, causal), sentences)
    "defaults": ({}, PipelineConfig(), (FamilyConfig(), 0, True), CAT),
    "alibi-head3": (
        {"method": "alibi", "head": "3"},
        PipelineConfig(method="alibi"),
        (FamilyConfig(), 2, True),
        CAT,
    ),
    "t5-encoder-dog": (
        {"method": "t5", "causal": "false", "buckets": "8", "max_distance": "6", "a": "dog bites the man"}
        | {"b": "the man bites dog"},
        PipelineConfig(method="t5"),
        (FamilyConfig(buckets=8, max_distance=6), 0, False),
        DOG,
    ),
    "shaw-clip2-d64": (
        {"method": "shaw", "clip": "2", "dim": "64", "heads": "4", "seed": "5"},
        PipelineConfig(method="shaw", output_dim=64, seed=5),
        (FamilyConfig(clip=2, heads=4), 0, True),
        CAT,
    ),
    "rope-base500000": (
        {"method": "rope", "base": "500000"},
        PipelineConfig(method="rope"),
        (FamilyConfig(base=500000.0), 0, True),
        CAT,
    ),
    "sinusoidal-concat-vocab1000": (
        {
            "method": "sinusoidal",
            "layout": "concat",
            "vocab": "1000",
            "space": "false",
            "a": "the dog bit the man",
        }
        | {"b": "the man bit the dog"},
        PipelineConfig(method="sinusoidal", vocab_size=1000),
        (FamilyConfig(layout="concat"), 0, True),
        ("the dog bit the man", "the man bit the dog"),
    ),
    "nope": ({"method": "nope"}, PipelineConfig(method="nope"), (FamilyConfig(), 0, True), CAT),
}


def chart_cells(chart) -> dict[tuple[int, int], float]:
    """A heatmap's data as the browser gets it: (i, j) -> v."""
    frame = pa.ipc.open_stream(chart.proto.datasets[0].data.data).read_all().to_pandas()
    return {(int(i), int(j)): float(v) for i, j, v in frame[["i", "j", "v"]].itertuples(index=False)}


def assert_prints_the_page(result: dict, at, cfg: PipelineConfig) -> None:
    """The script's JSON is what the AppTest ``at`` shows: heatmaps to their 4 decimals, the row to 1e-9."""
    assert not at.exception and not at.error
    charts = at.get("vega_lite_chart")  # 1: one row (2); 2: content, position, scores, weights of A; 3: A, B
    for index, key in ((2, "content"), (3, "position"), (5, "weights"), (7, "weights_b")):
        shown = chart_cells(charts[index])
        printed = {(i, j): v for i, j, v in result[key]}
        assert set(shown) == set(printed), key  # the same visible cells
        assert all(abs(printed[c] - shown[c]) <= 5e-5 + 1e-12 for c in shown), key
    # 3: the pairs' terms the page writes are the script's, to their 4 decimals
    terms = {round(p["term"], 4) for p in result["pairs"]}
    section = next(m.value for m in at.markdown if "moved from position" in m.value).replace("\\", "")
    shown = [float(x) for x in re.findall(r"[+-]\d+\.\d{4}", section)]
    assert shown and all(round(x, 4) in terms for x in shown), (shown, terms)
    table = at.table[0].value  # 3: the moved token's row, key token by key token
    assert table["key token"].tolist() == [  # as the table shows a token (quoted, escaped)
        token_text(p) for p in token_strings([r["token_id"] for r in result["row"]], cfg.vocab_size)
    ]
    for column, key in (("weight in A", "weight_a"), ("weight in B", "weight_b")):
        page = [None if v != v else v for v in table[column].tolist()]  # NaN: None
        for shown, printed in zip(page, [r[key] for r in result["row"]], strict=True):
            assert (shown is None) == (printed is None)
            assert shown is None or abs(shown - printed) <= 1e-9


def script_for(case: str):
    _, cfg, (fam, head, causal), texts = CASES[case]
    return attention_script(cfg, fam, head, causal, *texts)


@pytest.mark.slow  # a fresh Python importing torch, and the page, each
@pytest.mark.parametrize("case", CASES)
def test_the_script_prints_the_pages_numbers(case, tmp_path, run, open_page):
    url, cfg, *_ = CASES[case]
    result, stdout = run(script_for(case), tmp_path)
    assert_prints_the_page(result, open_page(PAGE, **url), cfg)
    assert "A, weights:" in stdout and "moved token -> key ' the'" in stdout


@pytest.mark.slow
def test_the_notebook_prints_the_same(tmp_path, run_nb, open_page):
    url, cfg, *_ = CASES["alibi-head3"]
    result, stdout = run_nb(script_for("alibi-head3"), tmp_path)
    assert "slope m: 0.125" in stdout  # head 3 of 8: 2^(-8·3/8)
    assert_prints_the_page(result, open_page(PAGE, **url), cfg)


# Drift guard: the script's functions, exec'd from its cells, against core's.


def script_namespace(cfg: PipelineConfig, fam: FamilyConfig, head: int = 0) -> dict:
    """What the settings, family and head cells define (the family cell's own code, and W_q, W_k)."""
    script = attention_script(cfg, fam, head, True, *CAT)
    cells = {c.heading.split(":")[0]: c.code for c in script.cells}
    ns: dict = {"num_positions": 6}
    exec(script.cells[0].code, ns)  # imports and settings
    exec(cells.get(FAMILY_HEADING, ""), ns)
    exec(cells["One head"], ns)
    return ns


def drift(ns: dict, cfg: PipelineConfig, fam: FamilyConfig, head: int = 0) -> list[str]:
    """Where the script's functions (those ``ns`` defines) differ from core's."""
    found = []
    g = torch.Generator().manual_seed(0)
    if "sinusoidal" in ns:
        for layout in ("interleaved", "concat", "fairseq"):
            for d in (4, 64):
                p = torch.arange(50)
                if not torch.equal(ns["sinusoidal"](p, d, 500.0, layout), sinusoidal_at(p, d, 500.0, layout)):
                    found.append(f"sinusoidal({layout}, d={d})")
    if "apply_rotary" in ns:
        for dh in (2, 8, 64):
            x = torch.randn(7, dh, generator=g, dtype=torch.float64)
            p = torch.tensor([0, 1, 2, 5, 30, 100, 4000])
            for base in (10000.0, 500000.0):
                if not torch.allclose(
                    ns["apply_rotary"](x, p, base), apply_rope(x, p, base), rtol=0, atol=1e-12
                ):
                    found.append(f"rope(dh={dh}, base={base})")
    if "get_slopes" in ns:
        found += [f"get_slopes({n})" for n in (1, 2, 6, 8, 12, 128) if ns["get_slopes"](n) != get_slopes(n)]
    if "_relative_position_bucket" in ns:
        offsets = torch.arange(-300, 300)
        for bidirectional in (True, False):
            for buckets, distance in ((32, 128), (8, 6), (64, 1000)):
                ours = t5_relative_bucket(offsets, bidirectional, buckets, distance)
                if not torch.equal(
                    ns["_relative_position_bucket"](offsets, bidirectional, buckets, distance), ours
                ):
                    found.append(f"bucket({bidirectional}, {buckets}, {distance})")
    if "rel_k" in ns:
        core = shaw_key_vectors(cfg.output_dim // fam.heads, cfg.seed, torch.arange(2 * fam.clip + 1))
        if not torch.equal(ns["rel_k"], core):
            found.append("rel_k")
    core_head = RandomHead(cfg.output_dim, fam.heads, head, cfg.seed)
    x = torch.randn(3, cfg.output_dim, generator=g)
    for which, name in (("q", "W_q"), ("k", "W_k")):
        core = core_head.project(x)[which == "k"]
        if not torch.allclose(x.double() @ ns[name], core, rtol=0, atol=1e-9):
            found.append(name)
    return found


GUARDED = {  # id: settings whose family cell and head cell the guard runs
    "sinusoidal": (PipelineConfig(method="sinusoidal", output_dim=64), FamilyConfig(), 1),
    "rope": (PipelineConfig(method="rope"), FamilyConfig(heads=4), 3),
    "alibi": (PipelineConfig(method="alibi"), FamilyConfig(), 0),
    "t5": (PipelineConfig(method="t5"), FamilyConfig(), 0),
    "shaw": (PipelineConfig(method="shaw", output_dim=64, seed=9), FamilyConfig(clip=5, heads=2), 1),
    "blocks": (PipelineConfig(method="nope", output_dim=8192), FamilyConfig(heads=4), 2),  # W in blocks
}


@pytest.mark.parametrize("case", GUARDED)
def test_the_scripts_functions_are_cores(case):
    cfg, fam, head = GUARDED[case]
    ns = script_namespace(cfg, fam, head)
    assert drift(ns, cfg, fam, head) == []


@pytest.mark.parametrize(
    "case, old, new",
    [
        (
            "sinusoidal",
            "torch.stack((angles.sin(), angles.cos())",
            "torch.stack((angles.cos(), angles.sin())",
        ),
        ("rope", "x1 * cos - x2 * sin", "x1 * cos + x2 * sin"),
        ("alibi", "start = 2 ** (-(2 ** -(math.log2(n) - 3)))", "start = 2 ** (-(2 ** -(math.log2(n) - 2)))"),
        ("t5", "max_exact = num_buckets // 2", "max_exact = num_buckets // 4"),
        ("shaw", "row * 0xBF58476D1CE4E5B9", "row * 0xBF58476D1CE4E5B7"),
        ("alibi", "output_dim**-0.5", "output_dim**-0.25"),
        ("blocks", "1000 * (b + 1)", "1000 * b"),
    ],
)
def test_the_drift_guard_catches_a_changed_formula(case, old, new):
    cfg, fam, head = GUARDED[case]
    script = attention_script(cfg, fam, head, True, *CAT)
    code = "\n".join(c.code for c in script.cells)
    assert old in code
    ns: dict = {"num_positions": 6}
    for cell in script.cells:
        if cell.heading == script.cells[0].heading or cell.heading.startswith((FAMILY_HEADING, "One head")):
            exec(cell.code.replace(old, new), ns)
    assert drift(ns, cfg, fam, head)


LONG = 'Don\'t "quote" me: ' + "the cat sat on the mat " * 12  # 300 characters, both quotes
SETTINGS = {
    **{m: (PipelineConfig(method=m), FamilyConfig()) for m in FAMILIES},
    "learned-d1024": (PipelineConfig(output_dim=1024), FamilyConfig()),  # row-seeded token table
    "nope-d16384-h1": (PipelineConfig(method="nope", output_dim=16384), FamilyConfig(heads=1)),  # W of 1 GB
    "t5-odd": (
        PipelineConfig(method="t5", output_dim=768),
        FamilyConfig(heads=12, buckets=33, max_distance=99),
    ),
}


@pytest.mark.parametrize("case", SETTINGS)
@pytest.mark.parametrize("texts", [CAT, (LONG[:300], LONG[::-1][:300])], ids=["cat", "long"])
def test_the_script_is_short_and_passes_ruff(case, texts, ruff):
    cfg, fam = SETTINGS[case]
    script = attention_script(cfg, fam, 0, True, *texts)
    assert script.lines <= 160  # the T5 formula, two 300-character sentences, the row and the pairs
    assert ruff(script.py()) == ""


def test_a_w_of_gigabytes_stops_and_a_row_seeded_table_is_said():
    code = attention_script(
        PipelineConfig(method="nope", output_dim=16384), FamilyConfig(heads=1), 0, True, *CAT
    )
    assert 'raise SystemExit("W_q of 16,384 × 16,384 needs 1.1 GB: raise the heads.")' in code.py()
    code = attention_script(PipelineConfig(output_dim=1024), FamilyConfig(), 0, True, *CAT).py()
    assert "(the app's, row-seeded, has other values)" in code
    assert "SystemExit" not in code


def test_the_page_offers_the_script_and_its_notebook(open_page):
    at = open_page(PAGE, method="t5", code=True)
    labels = {b.label for b in at.get("download_button")}
    assert {"attention.py", "attention.ipynb"} <= labels
    script = attention_script(PipelineConfig(method="t5"), FamilyConfig(), 0, True, *CAT)
    assert script.py().strip() in [c.value.strip() for c in at.code]
