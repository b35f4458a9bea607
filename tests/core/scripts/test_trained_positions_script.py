"""The Trained positions page's script: runs as shown (script and notebook) and prints the page's numbers.

The page shows its figures rounded (metrics and captions to 2 decimals, shares to 0.1 %, the turn to 1°);
those must read the same from the script's values, and the full values (the similarity curves and the PCA
path the charts draw, the shares and the turn) must equal the page's and core's to 1e-6.
"""

import io
from dataclasses import replace

import pyarrow as pa
import pytest
import torch

from core.config import MAX_SEED, PipelineConfig
from core.positional.pretrained import (
    QUOTED_DISTANCES,
    load_minilm_positions,
    pca_2d,
    quoted_figures,
    rotation_per_step,
    similarity_by_distance,
)
from core.positional.sinusoidal import sinusoidal_at
from core.scripts.trained_positions import FUNCTIONS_HEADING, TABLE_FILE, trained_positions_script
from core.similarity import fade, fade_sentence
from core.views.units import signed
from tests.ui.every_tab import every_tab
from ui.trained_positions.views import SECTION_TAB, SECTION_TABS, tables

PAGE = "pages/Trained_positions.py"
TOL = 1e-6


def chart_frames(at):
    """The data of every chart on the page, as DataFrames."""
    return [
        pa.ipc.open_stream(io.BytesIO(c.proto.datasets[0].data.data)).read_all().to_pandas()
        for c in at.get("vega_lite_chart")
    ]


def assert_page_shows(at, result: dict, stdout: str, seed: int, span: int) -> None:
    """The script's ``result`` and ``stdout`` against what the AppTest ``at`` shows, and against core."""
    assert not at.exception and not at.error
    named = tables(seed)  # the page's three tables, through core
    sims = result["similarity_by_distance"]
    assert list(sims) == list(named)  # the page's names, in its order
    # figures the page rounds: the metrics, and one caption line per table (the script prints the same line)
    metrics = {m.label: m.value for m in at.metric}
    trained = next(iter(sims.values()))
    for r in QUOTED_DISTANCES:
        assert metrics[f"Neighbour similarity at distance {r}"] == f"{trained[r]:.2f}"
    captions = [c.value for c in at.caption]
    for name, table in named.items():
        line = f"{name}: " + " · ".join(f"distance {r}: {signed(sims[name][r], 3)}" for r in QUOTED_DISTANCES)
        assert line in captions and line in stdout.splitlines()
        for label, value in quoted_figures(table).items():
            assert sims[name][int(label.split()[1])] == pytest.approx(value, abs=TOL)
    # the full curves of the distance chart
    curves = next(f for f in chart_frames(at) if "mean cosine" in f.columns)
    for name, table in named.items():
        shown = curves[curves["table"] == name]
        assert shown["distance"].tolist() == list(range(len(table)))
        script_curve = torch.tensor(sims[name], dtype=torch.float64)  # [T]
        page_curve = torch.tensor(shown["mean cosine"].to_numpy())
        torch.testing.assert_close(script_curve, page_curve, rtol=0, atol=TOL)
        torch.testing.assert_close(script_curve, similarity_by_distance(table), rtol=0, atol=TOL)
    # the PCA: the path drawn, the shares and the turn
    coords, share = pca_2d(named["Trained (all-MiniLM-L6-v2)"])
    path = next(f for f in chart_frames(at) if "direction 1" in f.columns)
    assert path["position"].tolist() == list(range(span))
    script_path = torch.tensor(result["pca_coords"], dtype=torch.float64)  # [T, 2]
    page_path = torch.tensor(path[["direction 1", "direction 2"]].to_numpy())
    torch.testing.assert_close(script_path[:span], page_path, rtol=0, atol=TOL)
    torch.testing.assert_close(script_path, coords, rtol=0, atol=TOL)
    explained = result["explained_variance"]
    torch.testing.assert_close(torch.tensor(explained, dtype=torch.float64), share, rtol=0, atol=TOL)
    assert (
        f"Direction 1 holds {explained[0]:.1%} of the positions' spread around their average, direction 2 "
        f"{explained[1]:.1%}" in " ".join(captions)
    )
    step = result["rotation_per_step"]
    assert step == pytest.approx(rotation_per_step(coords), abs=TOL)
    assert result["period"] == pytest.approx(360 / step, abs=TOL)
    markdown = " ".join(m.value for m in at.markdown)
    # what the page says about the trained curve: read from all of it, not one distance; the script's line
    f = fade(similarity_by_distance(named["Trained (all-MiniLM-L6-v2)"]))
    assert result["fade"] == {
        "low": f.low_at,
        "zero": f.zero_at,
        "peaks": list(f.peaks),
        "as_high": f.as_high_at,
    }
    [said] = [line for line in stdout.splitlines() if line.startswith("the likeness fades")]
    assert said == fade_sentence(torch.tensor(trained, dtype=torch.float64)) and said in markdown
    assert f"turning about {step:.0f}° from one position to the next" in markdown
    assert f"(a period of about {360 / step:.1f} positions)" in markdown
    assert f"turning about {step:.0f}° from one position to the next" in stdout


def opened(open_page, seed: int | None, span: int | None):
    """The page at ``seed`` (the default when None), every section's tab, with ``span`` positions drawn
    (48 when None)."""
    settings = {} if seed is None else {"seed": str(seed)}
    page = every_tab(open_page, PAGE, SECTION_TAB, SECTION_TABS, **settings)  # only the open tab is drawn
    if span is not None:  # on the path's tab
        page.runs[-1] = page.runs[-1].select_slider(key="pca_span").set_value(span).run()
    return page


SETTINGS = [(None, None), (5, 192), (MAX_SEED, 512)]


@pytest.mark.slow  # a fresh Python importing torch, each
@pytest.mark.parametrize("seed, span", SETTINGS, ids=["defaults", "seed-5", "max-seed"])
def test_the_script_prints_the_pages_values(seed, span, tmp_path, run, open_page):
    cfg_seed = PipelineConfig().seed if seed is None else seed
    result, stdout = run(trained_positions_script(cfg_seed), tmp_path)
    assert "trained: torch.Size([512, 384])" in stdout
    assert_page_shows(opened(open_page, seed, span), result, stdout, cfg_seed, span or 48)


@pytest.mark.slow
def test_the_notebook_prints_the_same(tmp_path, run_nb, open_page):
    script = trained_positions_script(7)
    assert list(script.files) == [TABLE_FILE]
    result, stdout = run_nb(script, tmp_path)
    assert_page_shows(opened(open_page, 7, 96), result, stdout, 7, 96)


def script_functions(script=None) -> dict:
    """The script's imports cell and canonical-functions cell, executed: its names."""
    script = script or trained_positions_script(PipelineConfig().seed)
    cells = {c.heading: c.code for c in script.cells}
    scope: dict = {}
    exec(script.cells[0].code, scope)  # the imports (and the settings)
    exec(cells[FUNCTIONS_HEADING], scope)
    return scope


def drift(f: dict) -> list[str]:
    """Where the script's functions ``f`` and core's disagree, on a grid of tables (empty when none)."""
    found = []
    for T, d in [(4, 2), (16, 16), (64, 32), (512, 384)]:
        if not torch.equal(f["sinusoidal"](torch.arange(T), d), sinusoidal_at(torch.arange(T), d)):
            found.append(f"sinusoidal({T}, {d})")
    grid = [
        torch.randn(T, d, generator=torch.Generator().manual_seed(s))
        for s, (T, d) in enumerate([(3, 2), (8, 4), (33, 7), (100, 16), (40, 80), (512, 384)])
    ]
    grid += [sinusoidal_at(torch.arange(128), 64), load_minilm_positions()[0]]
    for table in grid:
        T, d = table.shape
        sims = f["similarity_by_distance"](table)
        if sims.shape != (T,) or not torch.allclose(sims, similarity_by_distance(table), rtol=0, atol=1e-12):
            found.append(f"similarity_by_distance [{T}, {d}]")
        coords, share = f["pca_2d"](table)
        core_coords, core_share = pca_2d(table)
        if not (
            torch.allclose(coords, core_coords, rtol=0, atol=1e-10)
            and torch.allclose(share, core_share, rtol=0, atol=1e-12)
        ):
            found.append(f"pca_2d [{T}, {d}]")
        if abs(f["rotation_per_step"](core_coords) - rotation_per_step(core_coords)) > 1e-9:
            found.append(f"rotation_per_step [{T}, {d}]")
    return found


def test_the_scripts_functions_are_cores():
    assert drift(script_functions()) == []


@pytest.mark.parametrize(
    "old, new",
    [
        ("base ** (-2 * i / d)", "base ** (-(2 * i + 1) / d)"),  # the odd exponents
        ("sim.diagonal(r).mean()", "sim.diagonal(r).sum() / len(table)"),  # divided by T, not T − r
        ("torch.where(coords[0] < 0, -1.0, 1.0)", "1.0"),  # no sign convention
        ("s[:2] ** 2 / (s**2).sum()", "s[:2] / s.sum()"),  # singular values, not variances
        ("step.abs().median()", "step.abs().mean()"),
    ],
)
def test_a_change_to_one_side_fails_the_drift_guard(old, new):
    script = trained_positions_script(PipelineConfig().seed)
    [cell] = [c for c in script.cells if c.heading == FUNCTIONS_HEADING]
    assert old in cell.code
    changed = replace(script, cells=[replace(c, code=c.code.replace(old, new)) for c in script.cells])
    assert drift(script_functions(changed)) != []


@pytest.mark.parametrize("seed", [0, 123, 5, MAX_SEED])
def test_the_script_is_short_and_passes_ruff(seed, ruff):
    script = trained_positions_script(seed)
    assert script.lines <= 150
    assert ruff(script.py()) == ""
    assert TABLE_FILE in script.py().split('"""')[1]  # the docstring names the data file
    assert script.files[TABLE_FILE][:6] == b"\x93NUMPY"


def test_the_page_shows_the_whole_script_and_offers_it_with_its_table(open_page):
    at = open_page(PAGE, seed="5", code=True)
    assert not at.exception
    script = trained_positions_script(5)
    assert script.py().strip() in [c.value.strip() for c in at.code]  # what you see is what you download
    labels = [b.label for b in at.get("download_button")]
    assert {"trained_positions.py", "trained_positions.ipynb", TABLE_FILE} <= set(labels)
