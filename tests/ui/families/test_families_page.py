"""The Families page through AppTest: every method, its own URL parameters, bad parameters, payload."""

import pytest

from core.positional.family import FAMILIES
from tests.ui.drawn_charts import drawn as sent_charts
from tests.ui.every_tab import every_tab
from ui.families.compare import SCORE, SECTION_TAB, SECTION_TABS

PAGE = "pages/Families.py"
METHODS = ["nope", "learned", "sinusoidal", "shaw", "t5", "alibi", "rope"]  # the registry's order
MAX_CHART_BYTES = 1_000_000


def whole(open_page, **params):
    """The page with each of its sections' tabs open in turn (only the open one is drawn), read as one."""
    return every_tab(open_page, PAGE, SECTION_TAB, SECTION_TABS, **params)


PANELS, SIMILARITIES = "ui.families.compare.logit_panel", "ui.families.compare.similarity_view"  # as KEPT


def charts(at):
    return at.get("vega_lite_chart")


@pytest.mark.parametrize("method", METHODS)
def test_every_method_has_its_close_up(method, open_page):
    at = whole(open_page, method=method, context="64")
    assert not at.exception and not at.error
    assert len(charts(at)) >= 5  # the shared logit and similarity views, plus the close-up
    subheaders = [s.value for s in at.subheader]
    assert any(s.startswith("3. Close-up") for s in subheaders)
    table = at.table[0].value
    # display names, not keys; the sidebar's method marked by ▶ as well as by colour
    expected = [("▶ " if m == method else "") + FAMILIES[m].label for m in METHODS]
    assert list(table.index) == expected


def test_family_parameters_come_from_the_url(open_page):
    at = open_page(PAGE, method="alibi", heads="12", dim="768", clip="4", buckets="16", max_distance="64")
    assert not at.exception and not at.error
    assert at.number_input(key="heads").value == 12
    table = at.table[0].value
    assert table.loc[FAMILIES["t5"].label, "numbers to train"] == "192"  # 16 buckets × 12 heads
    # a^K and a^V: 2 × (2k+1) × head dim
    assert table.loc[FAMILIES["shaw"].label, "numbers to train"] == f"{2 * 9 * 64:,}"


def test_rope_shift_invariance_is_shown_with_numbers(open_page):
    at = whole(open_page, method="rope")
    table = next(d.value for d in at.table if "shift s" in d.value.columns)
    assert list(table["shift s"]) == [0, 1, 10, 100, 1000]
    assert (table["difference from s = 0"].abs() < 1e-9).all()


@pytest.mark.parametrize(
    "params, message",
    [
        ({"heads": "0"}, "Heads H must be between 1 and 128"),
        ({"heads": "5"}, "does not split into 5 heads"),
        ({"dim": "24"}, "head dim must be even"),  # 24 / 8 heads = 3
        ({"buckets": "1"}, "T5 buckets must be between 2 and 1,024"),
        ({"clip": "-1"}, "Shaw clip k must be between 0 and 8,192"),
        ({"clip": "20000000"}, "Shaw clip k must be between 0 and 8,192"),
        ({"max_distance": "5000000"}, "T5 max distance must be between 1 and 65,536"),
        ({"buckets": "512"}, "max_distance must exceed the exact range"),
        ({"buckets": "2", "max_distance": "1"}, "need num_buckets ≥ 4"),
        ({"max_distance": "16"}, "max_distance must exceed the exact range"),
        ({"buckets": "3", "method": "t5"}, "need num_buckets ≥ 4"),
        (
            {"dim": "2", "heads": "1", "layout": "fairseq"},
            "fairseq layout needs an even dimension of at least 4",
        ),
        ({"base": "1"}, "base must be greater than 1"),
        ({"dim": "255", "heads": "1"}, "the embedding dim must be even (it is 255)"),
        ({"dim": "255"}, "does not split into 8 heads"),
        ({"max_distance": "0"}, "T5 max distance must be between 1"),
    ],
)
def test_bad_family_parameters_get_a_message(params, message, open_page, errors):
    at = open_page(PAGE, **params)
    assert not at.exception
    assert message in errors(at)


@pytest.mark.parametrize("method", ["learned", "rope", "t5", "shaw", "alibi", "sinusoidal"])
def test_context_8192_stays_small(method, open_page):
    # The largest settings: no [T, T], [used, d/2] or vocab × d tensor may be built, no chart over 1 MB.
    at = open_page(
        PAGE,
        method=method,
        context="8192",
        extrapolate="8",
        dim="16384",
        heads="1",
        clip="8192",
        max_distance="65536",
    )
    assert not at.exception and not at.error
    sizes = [c.proto.ByteSize() for c in charts(at)]
    assert max(sizes) < MAX_CHART_BYTES, sizes
    assert any("every" in c.value for c in at.caption)  # says what was downsampled


def learned_panel(at):
    """Chart 1's learned panel: its spec's line layer and its data."""
    for chart in sent_charts(at):
        line = chart.spec.get("layer", [chart.spec])[0]
        if isinstance(line.get("title"), dict) and line["title"]["text"].startswith("Learned absolute — "):
            return line, chart.rows[line["data"]["name"]]
    raise AssertionError("no learned panel")


@pytest.mark.parametrize("context, fitted", [("4", True), ("100", True), ("512", False)])
def test_the_learned_panel_fits_its_axis_to_its_rows(context, fitted, open_page):
    # at T = 4 its 4 points would sit against an axis running to 260, as its neighbours'
    at = open_page(PAGE, context=context, extrapolate="1")
    assert not at.exception and not at.error
    line, frame = learned_panel(at)
    T = int(context)
    assert frame["distance r"].max() <= T - 1 and frame[SCORE].notna().all()
    if fitted:  # the others run to 256 (twice T5's max distance): this axis ends at T, and says why
        assert frame["distance r"].tolist() == list(range(T))  # every row, drawn (span 256: every distance)
        assert line["encoding"]["x"]["scale"]["domain"] == [0, T]
        assert line["title"]["subtitle"] == f"rows 0…{T - 1} only (no row at r ≥ {T})"
        assert f"Learned absolute's axis ends there: its table has rows 0…{T - 1} only" in " ".join(
            c.value for c in at.caption
        )
    else:  # the span is T itself: every distance has a row, nothing to fit
        assert "scale" not in line["encoding"]["x"] and "subtitle" not in line["title"]


@pytest.mark.parametrize("method", METHODS)
def test_a_new_seed_redraws_only_the_panels_that_read_it(method):
    # ALiBi's and NoPE's curves do not read the seed: a Seed change keeps their panels
    from dataclasses import replace

    from core.config import PipelineConfig
    from core.positional.family import FamilyConfig
    from ui.families.compare import logit_panel, panel_settings

    fam, cfg = FamilyConfig(), PipelineConfig(context_length=64)
    first, second = (
        logit_panel(method, panel_settings(method, replace(cfg, seed=seed)), fam.items()) for seed in (1, 2)
    )
    if FAMILIES[method].curve_reads_seed_and_dim:
        assert first is not second and first[0].to_dict() != second[0].to_dict()
    else:  # kept: its curve is the same for every seed (test_the_curves_kept_across_seeds_and_dims_…)
        assert first is second


@pytest.mark.parametrize("method", METHODS)
def test_the_curves_kept_across_seeds_and_dims_are_the_same_at_every_seed_and_dim(method):
    # The panels kept across a Seed or d change (curve_reads_seed_and_dim False) are true to the numbers, and
    # every other family's curve changes with both.
    import torch

    from core.embeddings import TableRows
    from core.families import position_logits
    from core.positional.family import FamilyConfig

    r = torch.arange(0, 300)

    def curve(d: int, seed: int) -> torch.Tensor:
        rows = TableRows(r, torch.randn(len(r), d, generator=torch.Generator().manual_seed(d + seed)))
        return position_logits(
            method, r, FamilyConfig(), d, seed, rows if FAMILIES[method].additive else None, len(r)
        )

    kept = not FAMILIES[method].curve_reads_seed_and_dim
    assert torch.equal(curve(64, 1), curve(64, 2)) == kept, method
    assert torch.equal(curve(64, 5), curve(128, 5)) == kept, method


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("change", [{"output_dim": 64}, {"vocab_size": 50_304}])
def test_a_new_dim_or_vocab_redraws_only_the_panels_that_read_it(method, change, fresh_caches):
    # A new d rebuilds no ALiBi or NoPE panel, a new V only the learned one (drawn after the token
    # table); each kept panel equals the one built for the new settings
    from dataclasses import replace

    from core.config import PipelineConfig
    from core.positional.family import FAMILIES, FamilyConfig
    from ui.families.compare import logit_panel, panel_settings
    from ui.server.cache import counts

    fam, cfg = FamilyConfig(), PipelineConfig(context_length=16)
    new = replace(cfg, **change)
    before = counts(PANELS)
    first, second = (logit_panel(method, panel_settings(method, c), fam.items()) for c in (cfg, new))
    reads = FAMILIES[method].curve_reads_seed_and_dim if "output_dim" in change else FAMILIES[method].seeded
    assert (counts(PANELS) - before).builds == 1 + reads  # the second panel built only if it reads the change
    logit_panel.clear()
    fresh = logit_panel(method, new, fam.items())  # built for the new settings themselves
    assert second[0].to_dict() == fresh[0].to_dict() and second[1] == fresh[1]
    if reads:
        assert first[0].to_dict() != second[0].to_dict()


def test_each_matrices_slide_says_what_to_see_in_its_squares(open_page):
    at = open_page(PAGE, present="true", slide="3.1")
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert (
        "Read each square along its diagonals (there the distance |i − j| is the same): Sinusoidal and "
        "RoPE keep one colour along each, so their similarity depends only on the distance; Learned "
        "absolute is 1 only on the main diagonal." in text
    )  # the three matrices on this slide, as their numbers say
    assert len(at.get("vega_lite_chart")) == 3


@pytest.mark.parametrize("method", ["learned", "sinusoidal", "rope"])
def test_a_new_vocab_redraws_only_the_similarity_of_a_table_drawn_after_the_token_table(method, fresh_caches):
    from dataclasses import replace

    from core.config import PipelineConfig
    from core.positional.family import FAMILIES, FamilyConfig
    from ui.families.compare import similarity_families, similarity_settings, similarity_view
    from ui.server.cache import counts

    assert similarity_families() == ["learned", "sinusoidal", "rope"]
    fam, cfg = FamilyConfig(), PipelineConfig(context_length=16)
    new = replace(cfg, vocab_size=50_304)
    before = counts(SIMILARITIES)
    first, second = (similarity_view(method, similarity_settings(method, c), fam.items()) for c in (cfg, new))
    assert (counts(SIMILARITIES) - before).builds == 1 + FAMILIES[method].seeded
    similarity_view.clear()
    fresh = similarity_view(method, new, fam.items())  # built for the new settings themselves
    assert second[0].to_dict() == fresh[0].to_dict() and second[2] == fresh[2]
    assert second[1].equals(fresh[1])


KEPT_IN_TABS = [  # a kept chart, and the section tab it is drawn in (as KEPT)
    ("ui.families.compare.similarity_charts", SECTION_TABS[1]),
    ("ui.families.close_up.table_heatmap", SECTION_TABS[2]),
]


@pytest.mark.parametrize("method", ["learned", "sinusoidal"])
@pytest.mark.parametrize(("kept", "tab"), KEPT_IN_TABS, ids=["similarity", "close-up"])
def test_a_rerun_that_changes_no_data_draws_kept_charts_and_new_data_new_ones(
    method, kept, tab, open_page, fresh_caches
):
    # The similarity curve and the close-up's table heatmap are kept across a rerun that changes no data
    from ui.server.cache import counts

    at = open_page(PAGE, method=method, families_section=tab)
    sent = [d.sent for d in sent_charts(at)]
    tables = [d.value for d in at.table]

    def drawn(run) -> tuple[int, int]:  # the kept chart's (hits, builds) in ``run``
        was = counts(kept)
        run()
        d = counts(kept) - was
        return d.hits, d.builds

    assert drawn(at.sidebar.number_input(key="batch").set_value(3).run) == (1, 0)  # not read
    assert not at.exception and [d.sent for d in sent_charts(at)] == sent
    assert all(a.equals(b) for a, b in zip([d.value for d in at.table], tables, strict=True))
    # new tables: the chart anew
    assert drawn(at.sidebar.number_input(key="dim").set_value(128).run) == (0, 1)
    assert not at.exception
    assert [d.sent for d in sent_charts(at)] != sent


def test_nopes_constant_zero_gets_an_axis_with_room_either_side(open_page):
    # A constant curve on a "nice" axis got one tick, labelled "0.000000": its axis now runs from -1 to 1.
    at = open_page(PAGE)
    panels = {}
    for chart in sent_charts(at):
        line = chart.spec.get("layer", [{}])[0]
        if isinstance(line.get("title"), dict):
            panels[line["title"]["text"].split(" — ")[0]] = line["encoding"]["y"]
    assert panels["NoPE"]["scale"]["domain"] == [-1.0, 1.0]
    assert "domain" not in panels["ALiBi"]["scale"]  # a curve that changes keeps its own axis
    assert panels["NoPE"]["title"] == "score from position"


def test_the_t5_close_up_and_finding_say_where_the_last_bucket_begins(open_page):
    at = whole(open_page, method="t5")
    assert not at.exception and not at.error
    text = " ".join(m.value for m in [*at.markdown, *at.caption])
    assert "T5 bias is flat from distance 113 on (max distance 128)" in text
    assert "Distances past 128 share the last bucket, and that bucket begins earlier" in text
    assert "The last bucket, for every distance past 128, begins at 113 with a **causal mask** (" in text
    assert "and at 91 without." in text
    assert "the last starting at 113, each about 1.14 times as wide as the one before" in text  # 8^(1/16)
    cell = at.table[0].value.loc["▶ T5 bias", "past the trained length (T = 4)"]
    assert cell == (
        "its distance's bucket; from distance 113 on, the last bucket, which begins before the max "
        "distance 128"
    )
    assert "N(0, 1/d)" not in text and "logit contribution" not in text and "weight-free" not in text


def test_the_learned_close_up_says_a_longer_table_is_another_table(open_page):
    at = whole(open_page, method="learned", context="4", dim="256")
    text = " ".join(m.value for m in at.markdown)
    assert "it has rows 0 … 3 only: a table is only as long as it was built" in text
    assert (
        "`nn.Embedding(8, 256)` say, but that is a different, bigger table, with 1,024 more parameters"
        in text
    )


def test_the_answer_comes_first_and_a_button_shows_another_method(open_page):
    at = open_page(PAGE)
    assert not at.exception and not at.error
    words = [m.value for m in at.markdown]
    question = next(k for k, w in enumerate(words) if w.startswith("**The question:**"))
    assert words[question + 1] == "**The answer, in short**"  # right under the question
    assert (at.metric[0].label, at.metric[0].value) == ("Learned absolute: numbers to train", "1,024")
    assert "**Learned absolute**, has 1,024 numbers to train" in words[question + 2]
    buttons = [b.label for b in at.button if b.key and b.key.startswith("answer_")]
    assert buttons == [FAMILIES[m].label for m in METHODS if m != "learned"]
    at.button(key="answer_rope").click().run()  # no trip to the sidebar
    assert not at.exception
    assert at.selectbox(key="method").value == "rope"
    assert (at.metric[0].label, at.metric[0].value) == ("RoPE: numbers to train", "0")
    assert "▶ RoPE" in at.table[0].value.index  # the families' table marks it


def test_the_answer_follows_the_settings(open_page):
    at = open_page(PAGE, method="t5", buckets="16", heads="4")
    assert (at.metric[0].label, at.metric[0].value) == ("T5 bias: numbers to train", "64")  # 16 × 4
    at = open_page(PAGE, dim="64", context="8")
    assert at.metric[0].value == "512"  # 8 positions × 64 numbers
    assert "its own vector of 64 numbers" in " ".join(m.value for m in at.markdown)


def test_no_answer_box_when_presenting(open_page):
    at = open_page(PAGE, present="true")
    assert not at.exception
    assert not at.metric and "**The answer, in short**" not in [m.value for m in at.markdown]


def test_the_table_marks_the_sidebars_method_and_says_what_generalize_means_under_it(open_page):
    at = open_page(PAGE, method="sinusoidal")
    table = at.table[0].value
    assert list(table["kind"]) == [
        "none", "absolute, learned", "absolute, fixed", "relative, learned", "relative, learned",
        "relative, fixed", "relative, fixed",
    ]  # fmt: skip
    assert [label for label in table.index if label.startswith("▶ ")] == ["▶ Sinusoidal"]  # not colour alone
    past = table["past the trained length (T = 4)"]
    assert (
        past["▶ Sinusoidal"]
        == "a vector by the same formula, but one training never saw (it saw positions 0 … 3)"
    )
    assert past["Learned absolute"] == "nothing: the table has no row 4 (rows 0 … 3 only)"
    assert "IndexError" not in " ".join(past) and "pairs" not in past["RoPE"]  # words taught later
    words = [m.value for m in at.markdown]
    assert any(w.startswith("**Past the trained length.** The lecture says relative methods") for w in words)


def test_the_t5_table_and_finding_name_the_same_distance(open_page):
    at = open_page(PAGE, method="t5", buckets="16", max_distance="64")
    from core.positional.family import FamilyConfig
    from core.positional.t5 import last_distinct_distance

    start = last_distinct_distance(FamilyConfig(buckets=16, max_distance=64))
    cell = at.table[0].value.loc["▶ T5 bias", "past the trained length (T = 4)"]
    assert f"from distance {start} on, the last bucket, which begins before the max distance 64" in cell
    text = " ".join(m.value for m in at.markdown)
    assert f"T5 bias is flat from distance {start} on (max distance 64)" in text


def test_the_sinusoids_similarity_finding_joins_the_attention_pages(open_page):
    at = whole(open_page, method="sinusoidal")
    text = " ".join(m.value for m in at.markdown)
    assert "Sinusoidal: the similarity depends only on the distance |i − j|" in text
    assert "On the Attention page, Sinusoidal's part of a score depends on where each token stands" in text


def test_every_setting_label_is_defined_above_the_settings(open_page):
    from core.views.glossary import define

    at = open_page(PAGE)
    settings = next(e for e in at.expander if e.label == "Family settings")
    assert not settings.proto.expanded  # folded: the page's content comes first
    words = " ".join(m.value for m in at.main.markdown)  # above the folded settings, read with the page
    for word in (define("head", "Heads"), define("clip", "clip k"), define("bucket", "buckets")):
        assert word in words and not any(word in m.value for m in settings.markdown)


# Odd settings (one head, clip 0, few buckets, d 2 and 4, context 1) under every method, and presets.
ODD = [
    {"context": "1", "heads": "1", "clip": "0", "buckets": "4", "max_distance": "3", "dim": "8"},
    {"context": "2", "heads": "2", "clip": "1", "buckets": "5", "max_distance": "3", "dim": "4"},
    {"context": "1", "heads": "1", "clip": "0", "dim": "2", "extrapolate": "1"},
]
PAGE_CASES = [{"method": m, **odd} for m in METHODS for odd in ODD] + [
    {"preset": p} for p in ("gpt2-small", "llama3-8b", "bloom-176b", "t5-base")
]


@pytest.mark.parametrize(
    "params", PAGE_CASES, ids=["&".join(f"{k}={v}" for k, v in p.items()) for p in PAGE_CASES]
)
def test_every_sentence_and_table_cell_reads(params, open_page):
    from tests.core.prose import prose_problems
    from tests.ui.test_page_sentences import page_text

    at = open_page(PAGE, **params)
    assert not at.exception and not at.error
    cells = [str(v) for t in at.table for v in t.value.to_numpy().ravel()]
    text = "\n".join([page_text(at), *cells, *(b.label for b in at.button)])
    assert not prose_problems(text), prose_problems(text)
