"""The Long context page's measured extrapolation (issue 24): a chart and sentences from the numbers."""

from core.training.extrapolation import SCALINGS

PAGE = "pages/Long_context.py"


def test_the_measured_extrapolation_is_drawn_with_its_numbers(open_page):
    at = open_page(PAGE)
    assert not at.exception and not at.error
    heads = [s.value for s in at.subheader]
    assert "4. Extrapolation, measured: a tiny RoPE model past its trained length" in heads
    from ui.long_context_views import measured_run

    e = measured_run()  # the page's run, as shipped
    text = " ".join(m.value for m in at.markdown)
    assert f"plain RoPE (none) has loss {e.inside('none'):.3f} before position 32" in text
    assert f"PI: {e.past('PI'):.3f} past 32" in text
    assert len(at.get("vega_lite_chart")) == 5  # four before it, and this one
    spec = at.get("vega_lite_chart")[-1].proto.spec
    assert all(f'"{name}"' in spec for name in SCALINGS) and '"rule"' in spec


def test_presenter_mode_shows_it_as_the_fifth_slide(open_page):
    at = open_page(PAGE, present="true")
    for _ in range(4):
        at = at.button(key="next_long_context").click().run()
    assert not at.exception
    assert [s.value for s in at.subheader] == [
        "4. Extrapolation, measured: a tiny RoPE model past its trained length"
    ]
    assert len(at.get("vega_lite_chart")) == 1
