"""The lesson's route: the Start page names the app and lists the steps; every step says where it stands,
asks its question and ends with a link to the next one."""

import pytest

from ui.navigation import BEYOND, CHAPTER, GLOSSARY, ROUTE, START, part_name

STEPS = list(enumerate(ROUTE, 1))


def main_links(at) -> list[str]:
    return [link.proto.label for link in at.main.get("page_link")]


def test_the_start_page_names_the_app_and_lists_the_route(open_page):
    at = open_page(START.path)
    assert not at.exception and not at.error
    assert at.title[0].value == "Positional Embeddings Explorer"
    assert main_links(at) == [f"**{n}. {stop.title}**" for n, stop in STEPS] + ["The Glossary"]
    text = " ".join(m.value for m in at.markdown)
    assert all(stop.question in text for stop in ROUTE)


def test_the_start_page_shows_the_chapter_apart_from_what_goes_beyond_it(open_page):
    at = open_page(START.path)
    text = [m.value for m in at.markdown]
    chapter = next(k for k, m in enumerate(text) if m.startswith("**The chapter (ch. 2.8)**"))
    beyond = next(k for k, m in enumerate(text) if m.startswith("**Beyond the chapter**"))
    assert chapter < beyond
    assert [s.title for s in CHAPTER] == [
        "Why position?",
        "Pipeline",
        "Attention: where position acts",
        "Families side by side",
    ]
    assert [s.title for s in BEYOND] == [
        "Long context: RoPE scaling",
        "Today's models",
        "Watch positions being learned",
        "Real trained positions",
    ]
    questions = {stop.question: k for k, m in enumerate(text) for stop in ROUTE if m == stop.question}
    assert all(questions[s.question] < beyond for s in CHAPTER) and all(
        questions[s.question] > beyond for s in BEYOND
    )
    needs = [c.value for c in at.caption]
    assert all(stop.needs in needs for stop in BEYOND)  # what a student needs before each page beyond


def test_the_start_page_marks_the_steps_the_student_has_opened(open_page):
    at = open_page(ROUTE[1].path)
    at.switch_page(START.path).run()
    links = main_links(at)
    assert links[1] == f"**2. {ROUTE[1].title}** (visited)"
    assert "(visited)" not in links[0] and "(visited)" not in links[2]


@pytest.mark.parametrize("n, stop", STEPS, ids=[s.url for s in ROUTE])
def test_every_step_says_where_it_stands_and_ends_with_the_next(n, stop, open_page):
    at = open_page(stop.path)
    assert not at.exception
    assert (
        at.caption[0].value
        == f"Step {n} of {len(ROUTE)} · {part_name(stop)} · Positional Embeddings Explorer"
    )
    assert (stop.needs in [c.value for c in at.caption]) == bool(stop.needs)
    assert f"**The question:** {stop.question}" in [m.value for m in at.markdown]
    last = main_links(at)[-1]
    if n < len(ROUTE):
        after = ROUTE[n]
        assert last == f"Next: step {n + 1} of {len(ROUTE)}, {after.title}"
        assert at.markdown[-1].value == after.question
    else:
        assert last.startswith("That was the last step. Back to the route")


def test_presenting_a_step_shows_no_question_and_no_next_link(open_page):
    at = open_page(ROUTE[0].path, present="true")
    assert not at.exception
    assert not any(m.value.startswith("**The question:**") for m in at.markdown)
    assert not any(label.startswith("Next:") for label in main_links(at))


def test_the_route_is_every_page_but_the_start_in_the_sidebars_order(open_page):
    at = open_page(START.path)
    labels = [link.proto.label for link in at.sidebar.get("page_link")]
    assert labels == [START.title] + [f"{n}. {stop.title}" for n, stop in STEPS] + [GLOSSARY.title]
    parts = [c.value for c in at.sidebar.caption]
    assert "The chapter (ch. 2.8)" in parts and "Beyond the chapter" in parts
