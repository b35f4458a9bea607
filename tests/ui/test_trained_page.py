"""The Trained positions page: the quoted figures are the data's."""

import torch

from core.positional.pretrained import load_minilm_positions, similarity_by_distance

PAGE = "pages/Trained_positions.py"


def test_quoted_figures_are_computed_from_the_data(open_page):
    at = open_page(PAGE)
    assert not at.exception and not at.error
    sims = similarity_by_distance(load_minilm_positions()[0])
    shown = {m.label: m.value for m in at.metric}
    for r in (1, 16, 256):
        assert shown[f"Neighbour similarity at distance {r}"] == f"{float(sims[r]):.2f}"
    assert len(at.get("vega_lite_chart")) == 8
    assert any("turning about" in m.value for m in at.markdown)


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
    # issue 26: a new seed computed all three tables' similarity by distance (512 × 512 cosines each)
    from ui.trained_positions.views import _by_distance, own_seed, tables

    names = list(tables(1))
    first, second = ([_by_distance(name, own_seed(name, seed)) for name in names] for seed in (1, 2))
    assert [a is b for a, b in zip(first, second, strict=True)] == [not n.startswith("Random") for n in names]
    for name, a, b in zip(names, first, second, strict=True):  # each is its own table's, bit for bit
        assert torch.equal(a, similarity_by_distance(tables(1)[name]))
        assert torch.equal(b, similarity_by_distance(tables(2)[name]))
        assert torch.equal(a, b) != name.startswith("Random")
