"""The Long context page's measured run past the trained length: a chart and sentences from the numbers."""

from core.training.extrapolation import SCALINGS, SHOWN

PAGE = "pages/Long_context.py"


def test_the_measured_extrapolation_is_drawn_with_its_numbers(open_page):
    at = open_page(PAGE)
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
    assert len(at.get("vega_lite_chart")) == 5  # four before it, and this one
    spec = at.get("vega_lite_chart")[-1].proto.spec
    assert all(f'"{SHOWN[name]}"' in spec for name in SCALINGS) and '"rule"' in spec
    assert "loss (lower is better)" in spec


def test_presenter_mode_shows_it_as_the_fifth_slide(open_page):
    at = open_page(PAGE, present="true")
    for _ in range(4):
        at = at.button(key="next_long_context").click().run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["4. Measured: a tiny RoPE model past its trained length"]
    assert len(at.get("vega_lite_chart")) == 1
