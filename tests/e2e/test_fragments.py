"""A control that changes one chart reruns that chart alone (``st.fragment``): Trained positions'
"Positions drawn" slider asks the server for its chart's part, not the page's tables above it."""

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.e2e.conftest import ScriptRuns, settled

SAID = "() => [...document.querySelectorAll('.chart-said')].map(e => e.textContent)"
PATH = "Positions 0–{}, along the two directions they differ most in"


def path_said(page, shown: int) -> list[str]:
    return [s for s in page.evaluate(SAID) if s.startswith(PATH.format(shown - 1))]


def test_the_positions_drawn_slider_reruns_its_chart_alone(server, page, wait_for_app):
    finished = ScriptRuns(page)
    page.goto(f"{server}/Trained_positions?trained_section=3.+The+path+through+space")
    wait_for_app(page)
    settled(page)
    assert len(path_said(page, 48)) == 1
    before = len(finished.ends)
    page.get_by_role("slider", name="Positions drawn").focus()
    page.keyboard.press("ArrowRight")  # 48 -> 96
    page.wait_for_function(f"() => ({SAID})().some(s => s.startsWith({PATH.format(95)!r}))")
    settled(page)
    assert len(path_said(page, 96)) == 1
    assert finished.ends[before:] == [ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY]


def quiet(runs: ScriptRuns, page, ms: int = 2000) -> None:
    """Wait until no script run has ended for ``ms`` milliseconds."""
    seen = -1
    while seen != len(runs.ends):
        seen = len(runs.ends)
        page.wait_for_timeout(ms)


def test_scrubbing_a_runs_steps_reruns_its_section_alone(server, page, wait_for_app):
    finished = ScriptRuns(page)
    page.goto(server + "/Training?steps=60&size=tiny&train_context=8&seed=11")
    wait_for_app(page)
    page.get_by_role("button", name="Train", exact=True).click()
    step = page.get_by_role("slider", name="Step")
    step.wait_for(timeout=180_000)
    settled(page)
    quiet(finished, page)  # the run that ends training may finish after the page looks settled
    last = step.get_attribute("aria-valuetext")
    said = f"() => ({SAID})().some(s => s.startsWith('Cosine similarity at step ') && !s.startsWith("
    before = len(finished.ends)
    step.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(said + f"'Cosine similarity at step {last}'))")
    settled(page)
    assert finished.ends[before:] == [ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY]
