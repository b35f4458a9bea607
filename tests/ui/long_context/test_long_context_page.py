"""The Long context page through AppTest: every preset, edits, bad parameters, presenter mode."""

import pytest

from core.positional.long_context import long_context_view
from core.positional.long_context_presets import PRESETS
from core.positional.rope_scaling import VARIANTS
from tests.core.positional.test_long_context_sentences import problems
from ui.long_context.views import SECTION_TABS

PAGE = "pages/Long_context.py"
SUBHEADERS = [
    "1. Which pairs scaling slows down",
    "2. What position alone adds to a score, out to L' = {:,}",
    "3. The attention factor",
    "4. Measured: a tiny RoPE model past its trained length",
]


def charts(at):
    return at.get("vega_lite_chart")


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def pick(at, preset: str):
    return at.selectbox(key="lc_preset").set_value(preset).run()


def every_tab(open_page, preset: str | None = None) -> list:
    """The page opened at each numbered section's tab (only the open one is drawn), at ``preset``."""
    opened = [open_page(PAGE, section=tab) for tab in SECTION_TABS]
    return opened if preset is None else [pick(at, preset) for at in opened]


def prose(at) -> list[str]:
    """The page's sentences outside the config expander and the code (where config keys are the point)."""
    inside = {m.value for e in at.main.expander for m in (*e.markdown, *e.caption)}
    return [m.value for m in (*at.main.markdown, *at.main.caption) if m.value not in inside]


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_draws_its_numbers(key, open_page):
    tabs = every_tab(open_page, key)
    at = tabs[0]
    assert not any(t.exception or t.error for t in tabs)
    preset, cfg = PRESETS[key], PRESETS[key].config
    view = long_context_view(cfg, "x")
    assert at.title[0].value == "Long context: RoPE scaling in released models"
    assert [t.label for t in at.tabs if t.label in SECTION_TABS] == SECTION_TABS
    # each tab draws its own section and charts, and no other section's
    assert [[s.value for s in t.subheader] for t in tabs] == [
        [SUBHEADERS[0]],
        [SUBHEADERS[1].format(cfg.extended)],
        [SUBHEADERS[2]],
        [SUBHEADERS[3]],
    ]
    assert [len(charts(t)) for t in tabs] == [2, 1, 1, 1]
    assert metrics(at) == {
        "Longest text it reads (L')": f"{cfg.extended:,}",  # the answer's number, first
        "Trained length L": f"{cfg.original:,}",
        "Extended length L'": f"{cfg.extended:,}",
        "Slow-down factor s": f"{cfg.factor:g}",
        "Attention factor": f"{view.attention_factor:.4f}",
    }
    text = " ".join(m.value for m in at.markdown)
    assert text.index("**The question:** A model learns positions from texts of a fixed length") < text.index(
        f"1. **{preset.name}**: trained on"
    )
    assert VARIANTS[cfg.rope_type].idea in text
    assert f"Of the {len(view.regimes)} pairs:" in text
    assert [(x, problems(x)) for t in tabs for x in prose(t) if problems(x)] == []
    codes = [c.value for c in at.code if c.language == "json"]
    assert len(codes) == 2 and f'"{cfg.rope_type}"' in codes[1] and '"rope_parameters"' in codes[1]
    assert any(preset.source in c.value for c in at.caption)
    assert at.number_input(key="lc_head_dim").value == cfg.head_dim


def test_a_bad_factor_is_explained_and_the_preset_becomes_custom(open_page, errors):
    at = open_page(PAGE)
    at = at.number_input(key="lc_factor").set_value(0.5).run()
    assert not at.exception
    assert "The factor s must be at least 1" in errors(at) and "it is 0.5" in errors(at)
    assert at.selectbox(key="lc_preset").value == "custom"
    assert len(charts(at)) == 0
    at = at.number_input(key="lc_factor").set_value(16.0).run()  # back to a working config
    assert not at.error and len(charts(at)) == 2  # section 1's, its tab open
    assert metrics(at)["Slow-down factor s"] == "16"


def test_beta_fast_not_above_beta_slow_is_explained(open_page, errors):
    at = pick(open_page(PAGE), "deepseek-v3")
    at = at.number_input(key="lc_beta_fast").set_value(1.0).run()
    assert not at.exception and "needs beta_fast > beta_slow > 0" in errors(at)


@pytest.mark.parametrize(
    "text, message",
    [
        ("1, 2, 3", "short_factor has 3 values, but this head rotates 48 pairs"),
        ("1, abc", "“abc” is not a number"),
    ],
)
def test_a_bad_factor_list_is_explained(text, message, open_page, errors):
    at = pick(open_page(PAGE), "phi3-mini-128k")
    at = at.text_area(key="lc_short_factor").set_value(text).run()
    assert not at.exception and message in errors(at)


def test_a_blank_head_dim_is_explained(open_page, errors):
    at = open_page(PAGE)
    at = at.number_input(key="lc_head_dim").set_value(None).run()
    assert not at.exception and "Dimensions per head (head_dim) is blank" in errors(at)


def test_changing_the_type_keeps_the_values_it_shares(open_page):
    at = open_page(PAGE)  # Llama 3.1: factor 8 on 8,192
    at = at.selectbox(key="lc_rope_type").set_value("yarn").run()
    assert not at.exception and not at.error
    assert at.selectbox(key="lc_preset").value == "custom"
    assert metrics(at)["Attention factor"] == "1.2079"  # 0.1 ln 8 + 1
    assert at.number_input(key="lc_beta_fast").value is None  # blank: the paper's 32
    text = " ".join(m.value for m in at.markdown)
    assert "YaRN keeps the pairs up to pair" in text
    assert "1. **A model with your settings**: trained on texts of up to L = 8,192 positions" in text
    assert len(charts(at)) == 2  # section 1's, its tab open
    at = open_page(PAGE, section=SECTION_TABS[1])
    at = at.selectbox(key="lc_rope_type").set_value("yarn").run()
    text = " ".join(m.value for m in at.markdown)
    assert (
        "your config's attention factor is 1.2079, the metric above, so its line starts near 1.4591" in text
    )


def test_the_values_survive_a_page_switch(open_page):
    at = pick(open_page(PAGE), "qwen2.5-7b")
    at = at.number_input(key="lc_factor").set_value(2.0).run()
    at.query_params["lc_factor"] = (
        "2.0"  # a browser writes a bound widget's value to the URL; AppTest does not
    )
    at.switch_page("pages/Families.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.selectbox(key="lc_preset").value == "custom"
    assert at.number_input(key="lc_factor").value == 2.0
    assert metrics(at)["Extended length L'"] == "65,536"


def test_presenter_mode_shows_one_section_and_asks_before_the_pairs(open_page):
    at = open_page(PAGE, present="true")
    assert not at.exception
    assert [s.value for s in at.subheader] == []  # section 1: the question and the story
    text = " ".join(m.value for m in at.markdown)
    assert "**The question:**" in text and "4. Scaling can slow pairs down" in text
    assert "keeps 29 pairs" not in text and "29 pairs" not in text  # the next slide asks how many
    assert "5. " not in text  # the measured answer has its own section
    assert "The lecture says" not in text  # the lecture's claim: the next slide, so each fits the screen
    at = at.button(key="next_long_context").click().run()
    lecture = " ".join(m.value for m in at.markdown)
    assert [
        s.value for s in at.subheader
    ] == [] and "What the lecture's “generalize to unseen lengths”" in lecture
    assert "That holds in one sense" in lecture and "It stops where training stopped" in lecture
    at = at.button(key="next_long_context").click().run()
    assert [s.value for s in at.subheader] == [SUBHEADERS[0]]
    assert len(charts(at)) == 0  # the answer waits for a guess
    at.text_input(key="predict_lc_kept").set_value("29").run()
    at = at.button(key="reveal_lc_kept").click().run()
    assert "You predicted 29; the answer is 29 pairs — right!" in [s.value for s in at.success]  # a count
    assert len(charts(at)) == 1
    for _ in range(2):
        at = at.button(key="prev_long_context").click().run()
    told = " ".join(m.value for m in at.markdown)  # back on the story, the count is told
    assert "this config keeps 29 pairs as trained" in told


def test_the_page_is_in_the_navigation(open_page):
    at = open_page(PAGE)
    from ui.navigation import PAGES

    assert ("pages/Long_context.py", "Long context: RoPE scaling") in [(p, t) for p, t, *_ in PAGES]
    assert not at.exception


def test_a_link_reopens_its_config(open_page):
    params = {"lc_preset": "custom", "lc_rope_type": "yarn", "lc_head_dim": "64", "lc_rope_theta": "10000.0"}
    params |= {"lc_max_position_embeddings": "16384", "lc_original_max_position_embeddings": "4096"}
    at = open_page(PAGE, **params)
    assert not at.exception and not at.error and not at.warning
    assert at.selectbox(key="lc_preset").value == "custom"
    assert at.selectbox(key="lc_rope_type").value == "yarn"
    assert at.number_input(key="lc_head_dim").value == 64
    assert at.number_input(key="lc_factor").value is None  # left out of the link: blank, not Llama's 8
    assert metrics(at)["Slow-down factor s"] == "4"  # 16,384 / 4,096
    assert metrics(at)["Extended length L'"] == "16,384"


def test_a_link_with_a_preset_name_opens_that_preset(open_page):
    at = open_page(PAGE, lc_preset="phi3-mini-128k")
    assert not at.exception and not at.error
    assert at.selectbox(key="lc_rope_type").value == "longrope"
    assert at.number_input(key="lc_head_dim").value == PRESETS["phi3-mini-128k"].config.head_dim
    assert at.text_area(key="lc_short_factor").value  # the preset's lists, by its name


def test_a_bad_link_value_is_explained_and_the_default_used(open_page):
    at = open_page(PAGE, lc_head_dim="abc", lc_rope_type="nope")
    assert not at.exception
    text = " ".join(w.value for w in at.warning)
    assert "URL parameter **lc\\_head\\_dim** = “abc” is not a whole number: using the default, 128." in text
    assert "URL parameter **lc\\_rope\\_type** = “nope” is not one of" in text
    assert at.selectbox(key="lc_rope_type").value == "llama3"


def test_a_rerun_that_changes_no_config_draws_kept_charts_and_a_new_config_new_ones(open_page, fresh_caches):
    from ui.server.cache import counts

    at = open_page(PAGE)
    specs = [c.proto.spec for c in charts(at)]
    # the view and the charts kept with it, and the measured run's chart (as ui.server.cache.KEPT names them)
    kept = [f"ui.long_context.views.{name}" for name in ("view_of", "pairs_section", "score_section")]
    kept += ["ui.long_context.views.attention_section", "ui.long_context.views.extrapolation_section"]

    def built(run) -> list[int]:  # what ``run`` built of each
        before = [counts(name) for name in kept]
        run()
        return [(counts(name) - was).builds for name, was in zip(kept, before, strict=True)]

    assert built(at.sidebar.number_input(key="batch").set_value(3).run) == [0, 0, 0, 0, 0]  # not read
    assert not at.exception and [c.proto.spec for c in charts(at)] == specs
    preset = next(k for k in PRESETS if k != at.selectbox(key="lc_preset").value)
    assert built(lambda: pick(at, preset)) == [1, 1, 0, 0, 0]  # the closed tabs' charts are not built
    assert not at.exception
    assert [c.proto.spec for c in charts(at)] != specs
    measured = open_page(PAGE, section=SECTION_TABS[3])
    assert built(lambda: pick(measured, preset)) == [0, 0, 0, 0, 0]  # the same for every config


@pytest.mark.parametrize(
    "params",
    [
        {"lc_preset": "llama2-7b"},  # s = 1
        {"lc_preset": "gemma4-global", "present": "true"},
        {
            "lc_preset": "custom",
            "lc_rope_type": "linear",
            "lc_head_dim": "2",
            "lc_max_position_embeddings": "4",
            "lc_factor": "4",
        },
        {"lc_preset": "custom", "lc_rope_type": "yarn", "lc_partial_rotary_factor": "0.5"},
        {"lc_preset": "custom", "lc_rope_type": "yarn", "lc_attention_factor": "0.5"},
    ],
)
def test_the_pages_sentences_read_for_other_configs(params, open_page):
    at = open_page(PAGE, **params)
    assert not at.exception and not at.error
    assert prose(at) and [(x, problems(x)) for x in prose(at) if problems(x)] == []


def test_a_blank_value_the_method_needs_is_named_by_its_label(open_page, errors):
    at = open_page(PAGE, lc_preset="custom", lc_rope_type="linear")  # no factor in the link
    assert not at.exception
    assert "Slow-down factor s (factor) is blank: position interpolation needs a value." in errors(at)
