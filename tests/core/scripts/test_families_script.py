"""The Families page's script: runs as shown (script and notebook) and prints chart 1's curves, as the page
draws them; its canonical functions match core's."""

import json
import math

import pytest
import torch
from streamlit import dataframe_util

from core.config import PipelineConfig
from core.embeddings import _row_seed
from core.families import logit_curve
from core.positional.alibi import get_slopes
from core.positional.family import FAMILIES, FamilyConfig
from core.positional.rope import apply_rope
from core.positional.shaw import ROW_SEED, shaw_relative_indices
from core.positional.sinusoidal import sinusoidal_at
from core.positional.t5 import t5_relative_bucket
from core.scripts.families import CANONICAL_HEADING, canonical, families_script
from ui.families.compare import SCORE
from ui.server.cache import kept_rows

PAGE = "pages/Families.py"
TOL = 1e-6  # the page's chart values against the script's printed ones


def chart_curves(at) -> dict[str, tuple[list[int], torch.Tensor]]:
    """Chart 1 as the page draws it: each family's panel (titled "label — injects") and its data."""
    titles = {f"{f.label} — {f.injects}": name for name, f in FAMILIES.items()}
    curves = {}
    for chart in at.get("vega_lite_chart"):
        spec, datasets = json.loads(chart.proto.spec), {d.name: d for d in chart.proto.datasets}
        line = spec.get("layer", [spec])[0]
        title = line.get("title")
        name = titles.get(title["text"]) if isinstance(title, dict) else None
        if name is None:
            continue
        frame = dataframe_util.convert_arrow_bytes_to_pandas_df(datasets[line["data"]["name"]].data.data)
        curves[name] = (frame["distance r"].tolist(), torch.tensor(frame[SCORE].to_numpy()))
    assert list(curves) == list(FAMILIES), "every family has its panel in chart 1"
    return curves


def core_curves(cfg: PipelineConfig, fam: FamilyConfig) -> tuple[list[int], dict[str, torch.Tensor]]:
    """The same curves through the path the page calls (core, with its kept rows)."""
    curves = {name: logit_curve(name, cfg, fam, kept_rows(cfg)) for name in FAMILIES}
    return curves["nope"].distances.tolist(), {name: curve.logits for name, curve in curves.items()}


def printed(result: dict) -> dict[str, torch.Tensor]:
    """The script's JSON curves as tensors [R], NaN past a curve's end (a learned table's last row)."""
    R = len(result["distances"])
    return {
        name: torch.tensor(curve + [math.nan] * (R - len(curve)), dtype=torch.float64)
        for name, curve in result["curves"].items()
    }


def assert_same_curve(got: torch.Tensor, want: torch.Tensor, name: str) -> None:
    assert torch.equal(got.isnan(), want.isnan()), name
    torch.testing.assert_close(got.nan_to_num(), want.nan_to_num(), rtol=0, atol=TOL, msg=name)


def assert_same_drawn(distances: list[int], got: torch.Tensor, drawn: list[int], want: torch.Tensor, name):
    """The script's curve ``got`` at ``distances`` against a panel's: the panel draws the first
    ``len(drawn)`` of them (a learned panel stops at its last row); the script has no value past them."""
    n = len(drawn)
    assert distances[:n] == drawn, name
    assert_same_curve(got[:n], want, name)
    assert got[n:].isnan().all(), name


# (URL parameters, the settings they set): the defaults; a non-default method and context; and the
# other layouts and pairings, the hf init, d = 128, seed 3; a long context drawn every 11th distance.
PAGE_SETTINGS = [
    ({}, PipelineConfig(), FamilyConfig()),
    ({"method": "rope", "context": "32"}, PipelineConfig(method="rope", context_length=32), FamilyConfig()),
    (
        {"layout": "concat", "init": "hf", "pairing": "halves", "dim": "128", "seed": "3"},
        PipelineConfig(output_dim=128, seed=3),
        FamilyConfig(layout="concat", init="hf", pairing="halves"),
    ),
    (
        {
            "method": "t5",
            "context": "1024",
            "extrapolate": "4",
            "heads": "4",
            "layout": "fairseq",
            "clip": "40",
        },
        PipelineConfig(method="t5", context_length=1024),
        FamilyConfig(extrapolate=4, heads=4, layout="fairseq", clip=40),
    ),
]
IDS = ["defaults", "rope-context-32", "concat-hf-halves", "t5-context-1024-fairseq"]


@pytest.mark.slow  # a page run and a fresh Python importing torch, each
@pytest.mark.parametrize("params, cfg, fam", PAGE_SETTINGS, ids=IDS)
def test_the_script_prints_the_pages_curves(params, cfg, fam, open_page, tmp_path, run):
    at = open_page(PAGE, **params)
    assert not at.exception
    page = chart_curves(at)
    result, stdout = run(families_script(cfg, fam), tmp_path)
    assert list(result["curves"]) == list(FAMILIES)
    for name, got in printed(result).items():
        distances, want = page[name]
        assert_same_drawn(result["distances"], got, distances, want, name)
        assert f"{name:>10}: r = 0 -> {got[0].item():+.4f}, r = {distances[-1]} -> " in stdout
    assert result["distances"] == core_curves(cfg, fam)[0]  # and the page drew what core samples
    assert "nan" not in stdout.lower()  # where there is no value, the script says so in words
    T, learned = cfg.context_length, page["learned"][0]
    if result["distances"][-1] >= T:  # the learned panel draws its rows only, and says so
        assert learned == [r for r in result["distances"] if r < T] == result["distances"][: len(learned)]
        assert len(result["curves"]["learned"]) == len(learned)
        assert f"learned: r = 0 -> {result['curves']['learned'][0]:+.4f}, r = {learned[-1]} -> " in stdout
        assert "(no value past it)" in stdout
    else:
        assert learned == result["distances"] and "no value past" not in stdout


@pytest.mark.slow
def test_the_notebook_prints_the_same(open_page, tmp_path, run_nb):
    params, cfg, fam = PAGE_SETTINGS[2]
    page = chart_curves(open_page(PAGE, **params))
    result, stdout = run_nb(families_script(cfg, fam), tmp_path)
    assert "pos_embeddings: torch.Size([4, 128])" in stdout
    for name, got in printed(result).items():
        assert_same_drawn(result["distances"], got, *page[name], name)


@pytest.mark.slow
@pytest.mark.parametrize(
    "cfg, fam",
    [
        (PipelineConfig(output_dim=64, context_length=48, seed=9), FamilyConfig(base=500000.0, buckets=16)),
        (PipelineConfig(output_dim=1024), FamilyConfig(init="openai", max_distance=300, heads=16)),
    ],
    ids=["small-base-500000", "row-seeded-learned"],
)
def test_the_script_follows_core_elsewhere(cfg, fam, tmp_path, run):
    """Settings the URL cannot reach easily (a float base), and a table the app row-seeds (V × d > 2^25):
    there the script draws the plain nn.Embedding, so only its learned values differ."""
    result, stdout = run(families_script(cfg, fam), tmp_path)
    distances, want = core_curves(cfg, fam)
    assert result["distances"] == distances
    got = printed(result)
    row_seeded = cfg.vocab_size * cfg.output_dim > 2**25
    for name in FAMILIES:
        if name == "learned" and row_seeded:
            assert torch.equal(got[name].isnan(), want[name].isnan())
            assert not torch.allclose(got[name].nan_to_num(), want[name].nan_to_num())
        else:
            assert_same_curve(got[name], want[name], name)


def canonical_namespace(code: str | None = None) -> dict:
    """The script's imports cell, then its canonical cell (``code``, by default the script's), executed."""
    script = families_script(PipelineConfig(), FamilyConfig())
    assert [c.code for c in script.cells if c.heading == CANONICAL_HEADING] == [canonical()]
    code = canonical() if code is None else code
    namespace: dict = {}
    exec(script.cells[0].code, namespace)  # imports and settings
    exec(code, namespace)
    return namespace


def drift(ns: dict) -> list[str]:
    """Where the script's canonical functions differ from core's, on a grid of settings (empty: nowhere)."""
    found = []
    positions = torch.cat([torch.arange(70), torch.arange(70, 65_537, 997)])  # [P]
    for d in (4, 6, 64, 256):
        for base in (10000.0, 500000.0, 2.5):
            for layout in ("interleaved", "concat", "fairseq"):
                if not torch.equal(
                    ns["sinusoidal"](positions, d, base, layout), sinusoidal_at(positions, d, base, layout)
                ):
                    found.append(f"sinusoidal d={d} base={base} {layout}")
            x = torch.randn(
                len(positions), d, dtype=torch.float64, generator=torch.Generator().manual_seed(d)
            )
            for interleaved in (True, False):
                if not torch.equal(
                    ns["apply_rotary"](x, positions, base, interleaved),
                    apply_rope(x, positions, base, interleaved),
                ):
                    found.append(f"rope d={d} base={base} interleaved={interleaved}")
    found += [f"get_slopes({n})" for n in range(1, 130) if ns["get_slopes"](n) != get_slopes(n)]
    offsets = torch.arange(-70_000, 70_001)  # key − query
    for num_buckets in (4, 5, 8, 32, 33, 64, 1024):
        for max_distance in (3, 8, 128, 1000, 65_536):
            for bidirectional in (True, False):
                try:
                    want = t5_relative_bucket(offsets, bidirectional, num_buckets, max_distance)
                except ValueError:  # settings the page refuses
                    continue
                got = ns["_relative_position_bucket"](offsets, bidirectional, num_buckets, max_distance)
                if not torch.equal(got, want):
                    found.append(f"_relative_position_bucket {num_buckets} {max_distance} {bidirectional}")
    for clip in (0, 1, 16, 8192):
        sample = torch.cat([torch.zeros(1, dtype=torch.long), positions[1:]])
        if not torch.equal(
            ns["relative_positions"](sample, clip), shaw_relative_indices(65_537, clip, sample)
        ):
            found.append(f"relative_positions clip={clip}")
    return found


def test_the_canonical_functions_match_core():
    assert drift(canonical_namespace()) == []


@pytest.mark.parametrize(
    "old, new",
    [
        ("base ** (-2 * i / d)", "base ** (-i / d)"),  # the paper's exponent halved
        ('if layout == "interleaved"', 'if layout == "concat"'),  # layouts swapped
        ("math.log2(n) - 3", "math.log2(n) - 2"),  # ALiBi's start slope
        ("(relative_position > 0)", "(relative_position >= 0)"),  # offset 0 among the keys after the query
        ("relative_position.float()", "relative_position.double()"),  # the float32 log HF takes
        ("x1 * cos - x2 * sin", "x1 * cos + x2 * sin"),  # wrong turn
        ("torch.cat((-x2, x1)", "torch.cat((x2, x1)"),  # rotate_half's sign
        ("distance.clamp(-clip, clip) + clip", "distance.clamp(-clip, clip)"),
    ],
)
def test_a_slip_in_a_canonical_function_is_caught(old, new):
    assert old in canonical()
    assert drift(canonical_namespace(canonical().replace(old, new)))


def test_the_row_seed_is_the_apps():
    ns: dict = {}
    exec(ROW_SEED, ns)
    pairs = [(s, r) for s in (0, 1, 123, 2**31 - 1, 123 * 1_000_003 + 1) for r in (0, 1, 2, 16, 16_384)]
    assert [ns["row_seed"](s, r) for s, r in pairs] == [_row_seed(s, r) for s, r in pairs]


SHAPES = [
    (PipelineConfig(), FamilyConfig()),
    (PipelineConfig(output_dim=128, seed=3), FamilyConfig(layout="concat", init="hf", pairing="halves")),
    (PipelineConfig(output_dim=1024), FamilyConfig()),  # the app row-seeds: a comment says so
    (PipelineConfig(output_dim=16_384, context_length=8192), FamilyConfig(clip=8192)),  # over 1 GB
]


@pytest.mark.parametrize("cfg, fam", SHAPES, ids=["defaults", "concat", "row-seeded", "over-1-GB"])
def test_the_script_is_short_and_passes_ruff(cfg, fam, ruff):
    script = families_script(cfg, fam)
    assert script.lines <= 160  # seven families, RoPE with both pairings (rotate_half as HF writes it)
    assert ruff(script.py()) == ""


def test_a_table_the_app_never_draws_is_named():
    code = families_script(PipelineConfig(output_dim=1024), FamilyConfig()).py()
    assert "# The app never draws this 50,257 × 1,024 table (0.21 GB): its learned rows differ" in code
    assert "token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)" in code
    big = families_script(PipelineConfig(output_dim=16_384), FamilyConfig()).py()
    assert "token_embedding_layer" not in big and "Not drawn here either (over 1 GB)" in big


def test_the_page_shows_the_whole_script_and_offers_it_as_a_notebook(open_page):
    at = open_page(PAGE, method="alibi", dim="64", seed="5", clip="8", code=True)
    assert not at.exception
    script = families_script(PipelineConfig(method="alibi", output_dim=64, seed=5), FamilyConfig(clip=8))
    assert script.py().strip() in [c.value.strip() for c in at.code]  # what you see is what you download
    labels = [b.label for b in at.get("download_button")]
    assert {"families.py", "families.ipynb"} <= set(labels)
