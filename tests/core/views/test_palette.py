"""The family palette: every two families look different to a reader with normal vision, a deuteranope
and a protanope, and every family colour stands out from the white page.

The colour science (``core.views.color_vision``) is checked first against published values, so that a
passing palette check means what it says.
"""

import pytest

from core.positional.family import FAMILIES
from core.views.color_vision import VISIONS, ciede2000, clashes, contrast, difference, simulate_hex
from core.views.colors import (
    FAMILY_COLORS,
    FAMILY_DASHES,
    NEXT_FAMILY_COLOR,
    NEXT_FAMILY_DASH,
    SERIES_COLORS,
    SERIES_DASHES,
)

NEW_FAMILY = (
    "A new family takes its colour and dash from core.views.colors (NEXT_FAMILY_COLOR and NEXT_FAMILY_DASH "
    "are kept for it); a colour of its own must keep >= 12 ΔE00 from every other family's for normal "
    "vision, deuteranopia and protanopia and >= 3:1 on white (tools/search_palette.py finds one)."
)


# Sharma, Wu & Dalal (2005), Table 1: pairs of CIELAB colours and their ΔE00, chosen to exercise the
# formula's corner cases (hue angles either side of 0/360°, neutral colours, the blue region's rotation).
SHARMA_2005 = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, -0.001, 2.49), (50.0, 0.0011, -2.49), 4.7461),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize("lab1, lab2, expected", SHARMA_2005)
def test_ciede2000_gives_sharmas_published_differences_both_ways(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_the_simulation_confuses_what_a_red_green_colour_blind_reader_confuses():
    # Tableau's red and green, far apart for normal vision, are one colour for a deuteranope
    assert difference("#e15759", "#59a14f") > 30
    assert difference("#e15759", "#59a14f", "deuteranopia") < 2
    # blue against yellow survives both kinds of red-green blindness; white and greys stay as they are
    assert min(difference("#0072b2", "#f0e442", v) for v in VISIONS) > 40
    assert simulate_hex("#ffffff", "protanopia") == "#ffffff"
    assert simulate_hex("#808080", "deuteranopia") == "#808080"


def test_contrast_is_wcags():
    assert contrast("#000000") == pytest.approx(21.0)
    assert contrast("#ffffff") == pytest.approx(1.0)
    assert contrast("#767676") == pytest.approx(4.54, abs=0.01)  # the lightest grey with 4.5:1 on white
    assert contrast("#777777") < 4.5


def test_every_two_families_look_different_to_every_reader_and_stand_out_on_white():
    colors = {f.label: f.color for f in FAMILIES.values()} | {"the next family": NEXT_FAMILY_COLOR}
    assert clashes(colors) == [], NEW_FAMILY


def test_the_check_names_a_clash():
    found = clashes({"ALiBi": "#e15759", "RoPE": "#59a14f", "pale": "#f0e442"})
    assert any(s.startswith("ALiBi and RoPE are 0.7 ΔE00 apart for a deuteranope") for s in found)
    assert "pale has 1.32:1 on white (< 3:1)" in found


def test_every_family_takes_its_colour_and_dash_from_the_palette():
    for name, family in FAMILIES.items():
        assert (family.color, family.dash) == (FAMILY_COLORS[name], FAMILY_DASHES[name]), NEW_FAMILY
    dashes = [f.dash for f in FAMILIES.values()] + [NEXT_FAMILY_DASH]
    assert len(set(dashes)) == len(dashes)  # where families share a chart, no two lines look alike


def test_other_lines_are_drawn_in_the_palettes_colours_each_with_its_own_dash():
    assert set(SERIES_COLORS) == set(FAMILY_COLORS.values()) | {NEXT_FAMILY_COLOR}
    assert len(set(SERIES_DASHES)) == len(SERIES_DASHES) == len(SERIES_COLORS)
