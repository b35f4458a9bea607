"""Adding a positional family is one module and one line: a test-only family shows on every page, in every
script that takes a family and in every fact box, with nothing in the app told about it.

Each fake family is its own module object that ends with ``FAMILY = Family(...)``, as a module in
``core/positional/`` does; ``register`` adds it as the list in ``core.positional`` would, and monkeypatch
takes it out again. Three of them: a score bias with a setting of its own and a close-up view (the
``tilt``), an input table the tiny GPT can train with (the ``table``), and a record with no optional
field at all (``minimal``), whose colour, scripts, key fact and close-up all come from the defaults.
"""

import contextlib
import io
import math
import sys
import types

import pytest
import streamlit as st
import torch
from torch import nn

from core.attention.facts import hooks_fact, key_fact
from core.attention.heads import RandomHead
from core.attention.maps import family_maps
from core.config import PipelineConfig
from core.embeddings import TableRows, token_embedding_rows
from core.families import position_logits
from core.positional.family import (
    FAMILIES,
    Family,
    FamilyConfig,
    Param,
    additive_logits,
    all_params,
    register,
)
from core.scripts.attention import attention_script
from core.scripts.families import families_script
from core.scripts.pipeline import pipeline_script
from core.scripts.training import training_script
from core.scripts.why_position import why_position_script
from core.text.samples import SAMPLES
from core.text.tokenizer import encode
from core.training.answer import before_run, cannot_train, fixed_sentence
from core.training.model import trainable_methods
from core.training.training import MAX_TRAIN_TOKENS, TrainConfig, batch_size_for, train
from core.views.color_vision import clashes
from core.views.colors import NEXT_FAMILY_COLOR, NEXT_FAMILY_DASH
from tests.core.scripts.conftest import ruff_findings, strict_json, tiktoken_cache
from tests.ui.every_tab import every_tab
from tests.ui.test_page_sentences import page_text
from ui.families.compare import SECTION_TAB as FAMILIES_TAB
from ui.families.compare import SECTION_TABS as FAMILIES_TABS
from ui.state.url_keys import BOUND_KEYS

PAGES = [  # every page: those that read the family, and those that only list it in the sidebar
    "pages/Start.py",
    "pages/Pipeline.py",
    "pages/Why_position.py",
    "pages/Attention.py",
    "pages/Families.py",
    "pages/Long_context.py",
    "pages/Training.py",
    "pages/Todays_models.py",
    "pages/Trained_positions.py",
    "pages/Glossary.py",
]
WORDS = {  # what every fake family says of itself: the fields a record must give
    "kind": "relative",
    "source": "a test (no paper)",
    "extrapolates": "the same as inside",
}


def tilt_module() -> types.ModuleType:
    """A score bias that falls tilt/8 per token of distance, the same in every head: ALiBi with one slope."""
    module = types.ModuleType("fake_tilt")
    module.TILT = Param("tilt", "Fake tilt", 3, "How steeply the fake family's bias falls.", low=1, high=9)

    def logits(x):
        return -x.fam.tilt * x.distances.double() / 8  # [R]

    def describe(label, r, y, context_length, fam):
        return f"{label} falls by {float(y[0] - y[1]) / float(r[1] - r[0]):.3f} per token."

    def bias(num_heads, positions):  # [H, T, T]: −tilt/8 · (i − j), the same in every head
        distance = (positions[:, None] - positions[None, :]).float()  # [T, T]
        return (-FamilyConfig().tilt / 8 * distance).expand(num_heads, -1, -1)

    module.FAMILY = Family(
        name="tilt",
        label="Fake tilt",
        injects="logit bias",
        where="the fake family tilts every attention score by its distance",
        help="tilt: a test-only family.",
        gives="tilts the score of two tokens by their distance",
        logits=logits,
        describe_logits=describe,
        params=(module.TILT,),
        parameter_count=lambda T, d, fam: fam.tilt * T,
        trainable=True,
        attention_bias=bias,
        **WORDS,
    )
    return module


def table_module() -> types.ModuleType:
    """An input table of slow cosines, half as loud as the sinusoid's waves: nothing to train."""
    module = types.ModuleType("fake_table")

    def table(positions, dim):  # [P, d]
        return 0.5 * torch.cos(positions.double()[:, None] / (1 + torch.arange(dim))).float()

    def rows(positions, context_length, dim, seed, fam, state_after=None):
        return TableRows(positions, table(positions, dim))

    class Positions(nn.Module):
        def __init__(self, context_length, dim):
            super().__init__()

        def forward(self, x):
            return x + table(torch.arange(x.shape[1]), x.shape[2])  # [B, T, d] + [T, d]

    module.FAMILY = Family(
        name="table",
        label="Fake table",
        injects="input add",
        where="the fake table adds a vector of slow cosines to each position's input",
        help="table: a test-only family.",
        gives="gives each position a vector of slow cosines",
        logits=additive_logits,
        describe_logits=lambda label, r, y, T, fam: f"{label} is {float(y[0]):+.3f} at r = 0.",
        input_rows=rows,
        trainable=True,
        input_module=Positions,
        **{**WORDS, "kind": "absolute"},
    )
    return module


def minimal_module() -> types.ModuleType:
    """A record with only the fields a family must give: no hook, no setting, no colour, no code."""
    module = types.ModuleType("fake_minimal")
    module.FAMILY = Family(
        name="minimal",
        label="Fake minimal",
        injects="nowhere",
        where="",
        help="minimal: a test-only family.",
        gives="gives a position nothing",
        logits=lambda x: torch.zeros(len(x.distances), dtype=torch.float64),
        describe_logits=lambda label, r, y, T, fam: f"{label} adds nothing.",
        **WORDS,
    )
    return module


MODULES = {"tilt": tilt_module, "table": table_module, "minimal": minimal_module}


def registered(module: types.ModuleType, monkeypatch) -> Family:
    """``module``'s family registered as the list in ``core.positional`` registers a module's, and the
    tilt's close-up (ui/families/tilt.py); monkeypatch takes both out after the test."""
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(FAMILIES, module.FAMILY.name, module.FAMILY)  # undone after the test
    register(module.FAMILY)  # adds it, or finds it there already
    if module.FAMILY.name == "tilt":
        view = types.ModuleType("ui.families.tilt")
        view.view = lambda cfg, fam: st.markdown(f"The fake close-up, tilt {fam.tilt}.")
        monkeypatch.setitem(sys.modules, "ui.families.tilt", view)
    return module.FAMILY


@pytest.fixture(params=list(MODULES))
def fake(request, monkeypatch) -> Family:
    """Each fake family in turn, registered for one test."""
    yield registered(MODULES[request.param](), monkeypatch)
    BOUND_KEYS.discard("tilt")  # the fake family's widget is gone with it


@pytest.fixture
def tilt(monkeypatch) -> Family:
    """The tilt alone, registered for one test."""
    yield registered(tilt_module(), monkeypatch)
    BOUND_KEYS.discard("tilt")


def shown(at) -> str:
    """Every sentence the page shows, and the method the sidebar shows as chosen."""
    method = at.selectbox(key="method")
    return page_text(at) + "\n" + method.options[method.index]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_opens_under_a_new_family_and_names_it(fake, page, open_page):
    at = open_page(page, method=fake.name)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert fake.label in shown(at)
    if page == "pages/Families.py":  # its sections are tabs, each drawn alone
        for tab in every_families_tab(open_page, method=fake.name).runs:
            assert not tab.exception and not tab.error and fake.label in shown(tab)


def every_families_tab(open_page, **params):
    """The Families page with each of its sections' tabs open in turn, read as one page."""
    return every_tab(open_page, "pages/Families.py", FAMILIES_TAB, FAMILIES_TABS, **params)


def test_a_second_family_cannot_take_a_name(fake):
    with pytest.raises(ValueError, match="already registered"):
        register(Family(**{**fake.__dict__, "label": "Another"}))


def test_a_new_family_gets_the_colour_kept_for_it_and_keeps_every_family_apart(fake):
    assert (fake.color, fake.dash) == (NEXT_FAMILY_COLOR, NEXT_FAMILY_DASH)
    colors = {f.label: f.color for f in FAMILIES.values()}
    assert fake.label in colors and clashes(colors) == []
    assert len({f.dash for f in FAMILIES.values()}) == len(FAMILIES)


def test_every_fact_box_speaks_of_a_new_family(fake):
    for causal in (True, False):
        for consequence in (True, False):
            fact = key_fact(fake, FamilyConfig(), 0, [1, 3], causal, consequence)
            assert fact == hooks_fact(fake, causal, consequence) and fact.endswith(".")
            assert fake.label in fact or fact.startswith(fake.where[:1].upper() + fake.where[1:])
    said = fixed_sentence(fake.name)
    assert fake.label in said and said.endswith(".")
    config = TrainConfig(method=fake.name, context_length=8, size="tiny", steps=4)
    reply = cannot_train(fake.name, config) if not fake.trainable else before_run(config)
    assert reply.words and all(m in FAMILIES for m in reply.others)


# Every script that takes a family, generated with the fake one and run in this process (a family the app
# does not ship cannot run from an empty folder: its scripts take its record from the app).


def run_here(code: str, monkeypatch) -> tuple[dict, str]:
    """Run a script's text here, offline (tiktoken reads GPT-2's files from a filled cache): its JSON and
    what it printed. It passes the project's ruff first, as the seven families' scripts do."""
    assert ruff_findings(code) == ""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", tiktoken_cache())
    out = io.StringIO()
    # A script sets torch's grad mode and seeds torch's generator: both as they were once it ends.
    with contextlib.redirect_stdout(out), torch.random.fork_rng(), torch.enable_grad():
        exec(code, {"__name__": "__main__"})
    printed = out.getvalue()
    return strict_json(printed.strip().splitlines()[-1]), printed


def test_the_pipeline_and_why_position_scripts_run_with_a_new_family(fake, monkeypatch):
    cfg = PipelineConfig(method=fake.name, output_dim=16, seed=3)
    result, _ = run_here(pipeline_script(cfg, SAMPLES["lesson"]).py(), monkeypatch)
    assert result["shape"] == [cfg.batch_size, cfg.context_length, 16]
    result, printed = run_here(why_position_script(cfg, " the cat sat", " sat the cat").py(), monkeypatch)
    assert result["moved"] is not None and "pos_embeddings: torch.Size([3, 16])" in printed
    if not fake.additive:  # nothing added at the input: the same vector wherever it stands
        assert result["moved"]["with"] == pytest.approx(result["moved"]["without"])


def test_the_attention_script_prints_the_apps_position_part_for_a_new_family(fake, monkeypatch):
    cfg, fam = PipelineConfig(method=fake.name, output_dim=32, seed=5), FamilyConfig(heads=4)
    text = " the cat sat on the mat"
    result, _ = run_here(
        attention_script(cfg, fam, 1, True, text, " on the mat the cat sat").py(), monkeypatch
    )
    ids = torch.tensor(encode(text, cfg.vocab_size))
    tokens = token_embedding_rows(ids, cfg.vocab_size, 32, 5).lookup(ids)  # [T, d]
    head = RandomHead(32, 4, 1, 5)
    tables = (
        {fake.name: tokens + fake.input_rows(torch.arange(len(ids)), 4, 32, 5, fam).rows}
        if fake.additive
        else {}
    )
    (app,) = family_maps(
        head.project, tokens, tables, head=1, fam=fam, dim=32, seed=5, names=(fake.name,)
    ).values()
    for i, j, value in result["position"]:
        assert value == pytest.approx(float(app.position[i, j]), abs=1e-4), (i, j)


def test_the_families_script_draws_a_new_familys_curve_as_the_app(fake, monkeypatch):
    cfg, fam = PipelineConfig(output_dim=32), FamilyConfig()
    result, printed = run_here(families_script(cfg, fam).py(), monkeypatch)
    assert list(result["curves"]) == list(FAMILIES) and f"{fake.name:>10}: r = 0 -> " in printed
    distances = torch.tensor(result["distances"])
    rows = fake.input_rows(distances, cfg.context_length, 32, cfg.seed, fam) if fake.additive else None
    want = position_logits(fake.name, distances, fam, 32, cfg.seed, rows, cfg.context_length)
    assert result["curves"][fake.name] == pytest.approx(want.tolist(), abs=1e-9)


def test_the_training_script_repeats_the_apps_run_with_a_new_family(fake, monkeypatch):
    tcfg = TrainConfig(fake.name, 8, "tiny", 6, batch_size=batch_size_for(8), seed=2)
    script = training_script(tcfg, SAMPLES["lesson"])  # a short text: written into the script
    if fake.name not in trainable_methods():
        assert ruff_findings(script.py()) == "" and f'method == "{fake.name}"' not in script.py()
        return
    result, _ = run_here(script.py(), monkeypatch)
    app = train(encode(SAMPLES["lesson"], 50257)[:MAX_TRAIN_TOKENS], tcfg)
    assert result["num_parameters"] == app.num_parameters
    assert result["train_loss"] == pytest.approx(app.train_loss, abs=1e-6)
    assert result["val_loss_past_outside"] == pytest.approx(app.val_loss_past_outside, abs=1e-6)


# The tilt's own setting and close-up, from its record alone.


def test_the_registry_gives_its_settings_and_checks_them(tilt):
    assert all_params()["tilt"] is tilt.params[0]
    assert FamilyConfig(tilt=5).tilt == 5 and FamilyConfig().tilt == 3
    with pytest.raises(ValueError, match="Fake tilt must be between 1 and 9"):
        FamilyConfig(tilt=12).validate(256, 4)


def test_the_families_page_lists_a_new_family_everywhere(tilt, open_page):
    at = every_families_tab(open_page, method="tilt", tilt="5", context="16")
    assert not at.exception and not at.error
    table = at.runs[0].table[0].value  # one row per family, by display name
    assert list(table.index)[-1] == "▶ Fake tilt"  # the sidebar's method, marked
    assert table.loc["▶ Fake tilt", "numbers to train"] == f"{5 * 16:,}"  # tilt × T
    assert table.loc["▶ Fake tilt", "kind"] == "relative, learned"
    assert at.runs[0].number_input(key="tilt").value == 5  # its own setting, bound to the URL
    assert "Fake tilt" in at.runs[0].selectbox(key="method").options  # the sidebar's picker shows its label
    text = " ".join(m.value for m in at.markdown)
    # the answer, from its record: its kind among the relative ones, its numbers to train, what it gives
    relative = text.split("Relative methods give a position no vector")[1].split(". ")[0]
    assert relative.endswith(
        "**RoPE** (rotary position embedding: it turns the vectors attention "
        "compares by an angle that grows with the position) and Fake tilt"
    )
    assert "The sidebar's method, **Fake tilt**, has 80 numbers to train: it tilts the score" in text
    # chart 1's finding, computed from its logits: tilt 5 → 5/8 per token
    assert f"Fake tilt falls by {5 / 8:.3f} per token." in text
    assert "The fake close-up, tilt 5." in text
    assert any(s.value.startswith("3. Close-up: Fake tilt") for s in at.subheader)
    logit = position_logits("tilt", torch.tensor([1]), FamilyConfig(tilt=5), 64, 0)[0]
    assert math.isclose(float(logit), -5 / 8)


def test_a_bad_value_of_a_new_setting_gets_a_message(tilt, open_page, errors):
    at = open_page("pages/Families.py", method="tilt", tilt="0")
    assert not at.exception
    assert "Fake tilt must be between 1 and 9 (it is 0)" in errors(at)


def test_a_family_with_no_close_up_of_its_own_shows_its_records_words(fake, open_page):
    if fake.name == "tilt":
        return  # it has one (the fixture's)
    at = every_families_tab(open_page, method=fake.name)
    text = " ".join(m.value for m in at.markdown)
    assert f"**{fake.label}** {fake.gives} ({fake.source})." in text
