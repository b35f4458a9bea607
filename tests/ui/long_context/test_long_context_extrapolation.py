"""The Long context page's measured run past the trained length: a chart and sentences from the numbers."""

import json

from core.training.extrapolation import SCALINGS, SHOWN
from ui.long_context.views import SECTION_TABS

PAGE = "pages/Long_context.py"


def test_the_measured_extrapolation_is_drawn_with_its_numbers(open_page):
    at = open_page(PAGE, section=SECTION_TABS[3])  # its tab
    assert not at.exception and not at.error
    heads = [s.value for s in at.subheader]
    assert "4. Measured: a tiny RoPE model past its trained length" in heads
    from ui.long_context.views import measured_run

    e = measured_run()  # the page's run, as shipped
    text = " ".join(m.value for m in at.markdown)
    assert f"there, unscaled, its mean loss is {e.inside('none'):.3f}. From position 32 to 127" in text
    assert f"position interpolation {e.past('PI'):.3f}" in text
    assert (
        "In this one run plain RoPE comes out lowest: without further training, none of the 3 scalings helps"
        in text
    )
    assert "A tiny GPT-style model with RoPE (1 layer, 2 heads of 16 dimensions" in text
    assert "5. Does that make the model read well past L?" in text  # the story's last step
    assert "nats" not in text and "tools/" not in text
    assert len(at.get("vega_lite_chart")) == 1  # its tab draws this one alone
    spec = at.get("vega_lite_chart")[-1].proto.spec
    assert all(f'"{SHOWN[name]}"' in spec for name in SCALINGS) and '"rule"' in spec
    assert '"Loss at each position of the window"' in spec and '"lower is better"' in spec
    layers = json.loads(spec)["layer"]
    assert layers[0]["encoding"]["y"]["title"] == "loss"  # short: a long one squeezed the plot
    assert any(layer["mark"]["type"] == "text" for layer in layers[1]["layer"])  # the rule has a label


def test_the_trained_length_is_labelled_and_plain_rope_is_not_faint():
    from tests.contrast import contrast
    from ui.long_context.views import extrapolation_chart, measured_run

    spec = extrapolation_chart(measured_run()).to_dict()
    assert "trained T = 32" in json.dumps(spec["datasets"])
    encoding = spec["layer"][0]["encoding"]
    plain = encoding["color"]["scale"]["domain"].index(SHOWN["none"])
    widths = encoding["strokeWidth"]["scale"]["range"]
    dashes = encoding["strokeDash"]["scale"]["range"]
    assert contrast(encoding["color"]["scale"]["range"][plain]) >= 3  # a line's contrast on white
    assert widths[plain] >= 2.5 and all(w < widths[plain] for k, w in enumerate(widths) if k != plain)
    assert dashes.count(dashes[plain]) == 1  # and a dash of its own


def test_presenter_mode_shows_it_as_the_last_slide(open_page):
    at = open_page(PAGE, present="true")
    while not at.button(key="next_long_context").disabled:  # Next reveals a prediction, then moves on
        at = at.button(key="next_long_context").click().run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["4. Measured: a tiny RoPE model past its trained length"]
    assert len(at.get("vega_lite_chart")) == 1
