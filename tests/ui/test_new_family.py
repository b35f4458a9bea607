"""Adding a positional family is a core module and a view module: a test-only family shows on every view.

The fake family below is registered the way a module in ``core/positional/`` registers itself, and its
close-up is a module ``ui.families.<name>`` with a ``view``; nothing else in the app is told about it.
"""

import math
import sys
import types

import pytest
import streamlit as st
import torch

from core.config import FAMILIES
from core.positional.family import Family, Param, all_params
from core.views.color_vision import clashes
from core.views.colors import NEXT_FAMILY_COLOR, NEXT_FAMILY_DASH
from ui.state.url_keys import BOUND_KEYS

TILT = Param("tilt", "Fake tilt", 3, "How steeply the fake family's bias falls.", low=1, high=9)


def fake_logits(x):
    return -x.fam.tilt * x.distances.double() / 8  # [R]: a bias that falls tilt/8 per token


def describe_fake(label, r, y, context_length, fam):
    return f"{label} falls by {float(y[0] - y[1]) / float(r[1] - r[0]):.3f} per token."


FAKE = Family(
    name="fake",
    label="Fake tilt",
    kind="relative",
    injects="logit bias",
    where="the fake family tilts every attention score by its distance",
    source="a test (no paper)",
    extrapolates="the tilt simply continues",
    help="fake: a test-only family.",
    gives="tilts the score of two tokens by their distance",
    color=NEXT_FAMILY_COLOR,  # the palette's colour kept for the next family
    dash=NEXT_FAMILY_DASH,
    logits=fake_logits,
    describe_logits=describe_fake,
    params=(TILT,),
    parameter_count=lambda T, d, fam: fam.tilt * T,
)


@pytest.fixture
def fake_family(monkeypatch):
    view = types.ModuleType("ui.families.fake")
    view.view = lambda cfg, fam: st.markdown(f"The fake close-up, tilt {fam.tilt}.")
    monkeypatch.setitem(FAMILIES, "fake", FAKE)  # what register() does when its module is imported
    monkeypatch.setitem(sys.modules, "ui.families.fake", view)
    yield FAKE
    BOUND_KEYS.discard("tilt")  # the fake family's widget is gone with it


def test_the_registry_gives_its_settings_and_checks_them(fake_family):
    assert all_params()["tilt"] is TILT
    from core.config import FamilyConfig

    assert FamilyConfig(tilt=5).tilt == 5 and FamilyConfig().tilt == 3
    with pytest.raises(ValueError, match="Fake tilt must be between 1 and 9"):
        FamilyConfig(tilt=12).validate(256, 4)


def test_the_families_page_lists_a_new_family_everywhere(fake_family, open_page):
    at = open_page("pages/Families.py", method="fake", tilt="5", context="16")
    assert not at.exception and not at.error
    table = at.table[0].value  # one row per family, by display name
    assert list(table.index)[-1] == "Fake tilt"
    assert table.loc["Fake tilt", "numbers to train"] == f"{5 * 16:,}"  # tilt × T
    assert table.loc["Fake tilt", "kind"] == "relative, learned"
    assert at.number_input(key="tilt").value == 5  # its own setting, bound to the URL
    assert "Fake tilt" in at.selectbox(key="method").options  # the sidebar's method picker shows its label
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
    assert math.isclose(float(fake_logits_at(1, tilt=5)), -5 / 8)


def test_a_new_family_keeps_every_family_apart_for_every_reader(fake_family):
    colors = {f.label: f.color for f in FAMILIES.values()}
    assert "Fake tilt" in colors and clashes(colors) == []
    assert len({f.dash for f in FAMILIES.values()}) == len(FAMILIES)


def fake_logits_at(r, tilt):
    from core.families import position_logits
    from core.positional.family import FamilyConfig

    return position_logits("fake", torch.tensor([r]), FamilyConfig(tilt=tilt), 64, 0)[0]


def test_a_bad_value_of_a_new_setting_gets_a_message(fake_family, open_page, errors):
    at = open_page("pages/Families.py", method="fake", tilt="0")
    assert not at.exception
    assert "Fake tilt must be between 1 and 9 (it is 0)" in errors(at)
