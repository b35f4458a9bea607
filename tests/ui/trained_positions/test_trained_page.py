"""The Trained positions page: the quoted figures are the data's, its answer stands under its question,
every word is defined where it first appears, and where the numbers come from is said in sentences."""

import json

import pytest
import torch

from core.positional.pretrained import load_minilm_positions, similarity_by_distance
from core.views.units import signed
from tests.core.prose import prose_problems
from tests.ui.test_page_sentences import page_text
from tests.ui.visible_text import reading, undefined_words
from ui.trained_positions.views import SECTION_TABS

PAGE = "pages/Trained_positions.py"


def test_quoted_figures_are_computed_from_the_data(open_page):
    at = open_page(PAGE)
    assert not at.exception and not at.error
    sims = similarity_by_distance(load_minilm_positions()[0])
    shown = {m.label: m.value for m in at.metric}
    for r in (1, 16, 256):
        assert shown[f"Neighbour similarity at distance {r}"] == f"{float(sims[r]):.2f}"
    assert shown["Neighbour similarity, trained"] == f"{float(sims[1]):.2f}"  # the answer's number
    assert len(at.get("vega_lite_chart")) == 3  # section 1's tab alone, and in it its open tab: the values
    similarity = open_page(PAGE, tables="Their cosine similarity")  # the other tab, as a link opens it
    titles = [json.loads(c.proto.spec).get("title") for c in similarity.get("vega_lite_chart")]
    assert titles == ["Trained: similarity", "Random: similarity", "Sinusoidal: similarity"]
    curves, path = (open_page(PAGE, trained_section=tab) for tab in SECTION_TABS[1:])  # the other sections
    assert len(curves.get("vega_lite_chart")) == len(path.get("vega_lite_chart")) == 1
    assert any("turning about" in m.value for m in path.markdown)
    assert not any("turning about" in m.value for m in at.markdown)  # a closed tab is not drawn


def test_trained_figures_do_not_depend_on_the_seed(open_page):
    a = open_page(PAGE, seed="1")
    b = open_page(PAGE, seed="2")
    assert not a.exception and not b.exception
    captions_a = [c.value for c in a.caption if ": distance 1:" in c.value]
    captions_b = [c.value for c in b.caption if ": distance 1:" in c.value]
    assert len(captions_a) == 3  # one line of figures per table
    assert captions_a[0] == captions_b[0]  # the trained table does not depend on the seed
    assert captions_a[1] != captions_b[1]  # the random table does


def test_a_new_seed_recomputes_only_the_random_tables_curve():
    # a new seed would otherwise compute all three tables' similarity by distance (512 × 512 cosines each)
    from ui.trained_positions.views import _by_distance, own_seed, tables

    names = list(tables(1))
    first, second = ([_by_distance(name, own_seed(name, seed)) for name in names] for seed in (1, 2))
    assert [a is b for a, b in zip(first, second, strict=True)] == [not n.startswith("Random") for n in names]
    for name, a, b in zip(names, first, second, strict=True):  # each is its own table's, bit for bit
        assert torch.equal(a, similarity_by_distance(tables(1)[name]))
        assert torch.equal(b, similarity_by_distance(tables(2)[name]))
        assert torch.equal(a, b) != name.startswith("Random")


@pytest.mark.parametrize("seed", ["1", "123", "4096"])
def test_the_answer_stands_under_the_question_and_reads_the_seeds_random_table(open_page, seed):
    from ui.trained_positions.views import _by_distance, tables

    at = open_page(PAGE, seed=seed)
    main = reading(at)[0]
    assert main.index("**The question:**") < main.index("**The answer, in short**") < main.index("The lesson")
    random_name = next(name for name in tables(int(seed)) if name.startswith("Random"))
    chance = signed(float(_by_distance(random_name, int(seed))[1]), 3)
    assert f"drawn with seed {seed}, shows none of it: {chance} at distance 1, chance alone." in main
    assert not undefined_words(at), undefined_words(at)
    assert not prose_problems(page_text(at)), prose_problems(page_text(at))


def test_where_the_numbers_come_from_is_sentences_and_the_record_a_download(open_page):
    at = open_page(PAGE)
    (box,) = [e for e in at.expander if e.label == "Where the numbers come from"]
    said = " ".join(m.value for m in box.markdown)
    assert "**Which model.**" in said and "**Which file.**" in said and "**Checked how.**" in said
    assert not box.code and "sha256" not in said and "wheel" not in said  # no raw record on the page
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download the record (JSON)" in labels  # the record itself: package, hashes, licences


def test_the_path_is_said_in_plain_words(open_page):
    text = " ".join(m.value for m in open_page(PAGE, trained_section=SECTION_TABS[2]).markdown)
    assert "shadow" not in text and "wall" not in text
    assert (
        "along the two directions in which the 512 positions differ most, their **principal components** ("
        in text
    )


def test_the_positions_drawn_slider_redraws_its_chart(open_page):
    # (that it reruns its chart alone is the browser's to tell: tests/e2e/test_fragments.py)
    from tests.ui.drawn_charts import drawn

    def titled(at, shown: int) -> list:
        text = f"Positions 0–{shown - 1}, along the two directions they differ most in"
        return [d for d in drawn(at) if (d.said or "").startswith(text)]

    at = open_page(PAGE, trained_section=SECTION_TABS[2])  # the path's section
    assert len(titled(at, 48)) == 1
    at.select_slider(key="pca_span").set_value(96).run()
    assert not at.exception
    path = titled(at, 96)
    assert len(path) == 1 and len(next(iter(path[0].rows.values()))) == 96
