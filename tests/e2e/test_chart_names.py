"""End-to-end: every chart is named by what it shows, in Chromium's own accessibility tree, followed by the
sentence of its numbers a screen reader reads (and the screen does not draw), and a heatmap is one
sentence to a screen reader, not a node per cell."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

VEGA_DEFAULT = "Vega visualization"  # Vega's name for a chart without a description
HANDFUL = 6  # nodes with a role a heatmap may show inside its root (its title, at most)
TRAIN_WAIT = 180_000  # ms: a run of a few seconds, on a loaded machine; not a performance bound


def chart_names(page) -> list[dict]:
    """Each chart's root as Chromium's accessibility tree has it (its role and accessible name), how many
    of its descendants with a graphics role are not hidden from that tree, and how many of those have a
    role but no name (axe's svg-img-alt)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("Accessibility.enable")
    found = []
    count = page.get_by_test_id("stVegaLiteChart").count()
    for k in range(count):
        expression = f"document.querySelectorAll('[data-testid=stVegaLiteChart]')[{k}]"
        handle = cdp.send("Runtime.evaluate", {"expression": expression})["result"]["objectId"]
        node = cdp.send("Accessibility.getPartialAXTree", {"objectId": handle, "fetchRelatives": False})
        root = node["nodes"][0]
        exposed, unnamed = page.evaluate(
            f"""() => {{
                const shown = [...{expression}.querySelectorAll('[role^=graphics-]')]
                    .filter(e => !e.closest('[aria-hidden=true]'));
                const symbols = shown.filter(e => e.getAttribute('role') === 'graphics-symbol');
                return [shown.length, symbols.filter(e => !e.getAttribute('aria-label')).length];
            }}"""
        )
        drawn = page.evaluate(f"() => {expression}.querySelector('canvas') ? 'canvas' : 'svg'")
        # What it shows: the sentence right after it (ui/charts.py), read by a screen reader, not drawn.
        box = f"{expression}.closest('[data-testid=stElementContainer]')"
        said_at = f"{box}.nextElementSibling?.querySelector('.chart-said')"
        said, box = page.evaluate(
            f"() => {{ const p = {said_at}; if (!p) return ['', 0];"
            " const r = p.closest('[data-testid=stElementContainer]').getBoundingClientRect();"
            " return [p.textContent, r.width * r.height]; }"
        )
        heard = False
        if said:
            handle = cdp.send("Runtime.evaluate", {"expression": said_at})["result"]["objectId"]
            node = cdp.send("Accessibility.getPartialAXTree", {"objectId": handle, "fetchRelatives": False})
            heard = not node["nodes"][0].get("ignored", False)
        found.append(
            {
                "role": root["role"]["value"],
                "name": root.get("name", {}).get("value", ""),
                "exposed": exposed,
                "unnamed": unnamed,
                "drawn": drawn,
                "said": said,
                "said_area": box,
                "said_heard": heard,
            }
        )
    cdp.detach()
    return found


def assert_named(charts: list[dict], count: int) -> None:
    assert len(charts) == count, charts
    names = [c["name"] for c in charts]
    assert all(c["role"] == "graphics-document" for c in charts), charts
    assert all(len(name) > 30 and name != VEGA_DEFAULT for name in names), names
    assert len(set(names)) == len(names), names  # two charts on a page never share a name
    assert all(c["unnamed"] == 0 for c in charts), charts  # a rule's marks had a role and no name
    assert all(len(c["said"]) > 30 and c["said_heard"] and c["said_area"] <= 1 for c in charts), charts


CLOSE_UP = "/Families?families_section=3.+Close-up+of+your+method&method="  # the close-up's tab
ROPE_TURNS = CLOSE_UP + "rope&close_up=How+far+each+pair+turns"
CURVES = ("/Long_context", ROPE_TURNS, "/Families?method=alibi")  # pages whose charts are curves and points


@pytest.mark.parametrize(
    ("path", "count"),
    [
        ("/Pipeline", 5),
        ("/Families?method=alibi", 7),  # its first section's tab: a panel per family
        (CLOSE_UP + "alibi", 2),  # the slopes and a bias matrix
        ("/Attention", 11),  # every family's maps: the open tab's (none and absolute)
        ("/Attention?maps=Relative", 12),
        (ROPE_TURNS, 1),  # the close-up's open tab
        ("/Long_context", 2),  # its first section's tab
        ("/Trained_positions", 3),  # the first section's open tab: three heatmaps
        ("/Trained_positions?tables=Their+cosine+similarity", 3),
    ],
)
def test_every_chart_has_a_name_of_its_own_and_a_heatmap_is_one_sentence(
    server, page, path, count, wait_for_app, wait_for_settled
):
    page.goto(server + path)
    wait_for_app(page)
    wait_for_settled(page)
    charts = chart_names(page)
    assert_named(charts, count)
    heatmaps = [c for c in charts if "heatmap" in c["said"] or "query i down" in c["said"]]
    assert heatmaps or path in CURVES
    assert all(c["exposed"] <= HANDFUL for c in heatmaps), heatmaps  # was a node per cell (348 on Pipeline)
    if path.startswith("/Trained_positions"):  # drawn on a canvas, a heatmap is named all the same
        assert sum(c["drawn"] == "canvas" for c in heatmaps) == 3, charts
    assert page.get_by_test_id("stException").count() == 0


def test_the_training_pages_charts_are_named_after_a_run(server, page, wait_for_app, wait_for_settled):
    page.goto(server + "/Training?steps=30&size=tiny&train_context=8&seed=33")
    wait_for_app(page)
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_text("Validation loss", exact=True)).to_be_visible(timeout=TRAIN_WAIT)
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(4, timeout=60_000)
    wait_for_settled(page)
    charts = chart_names(page)
    assert_named(charts, 4)  # loss, the learned table's similarity, its structure, loss per position
    said = [c["said"] for c in charts]
    assert said[0].startswith("Loss: loss against step")
    assert any(s.startswith("Cosine similarity at step 30") for s in said), said
    assert all(c["exposed"] <= HANDFUL for c in charts if "heatmap" in c["said"])
