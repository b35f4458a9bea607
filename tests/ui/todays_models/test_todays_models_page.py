"""The Today's models page through AppTest: its answer under its question, its four sections with their
pictures, the numbers the core computes, and presenting: a prediction before the answer it asks for."""

import html

from core.positional.todays_views import answer_words, nope_layers, vl_tokens
from tests.core.prose import prose_problems
from tests.ui.conftest import answer_block
from tests.ui.test_page_sentences import page_text
from ui.todays_models.views import SECTION_TABS

PAGE = "pages/Todays_models.py"


def strips(at) -> list[str]:
    """The strips' accessible names (each one an HTML block: a cell per layer, pair or part of a head)."""
    bodies = [h.proto.body for h in at.get("html") if 'class="strip"' in h.proto.body]
    return [html.unescape(body.split('aria-label="')[1].split('"')[0]) for body in bodies]


def every_tab(open_page) -> list:
    """The page opened at each section's tab (only the open one is drawn)."""
    return [open_page(PAGE, today_section=tab) for tab in SECTION_TABS]


def test_the_page_answers_its_question_then_shows_four_sections(open_page):
    tabs = every_tab(open_page)
    at = tabs[0]
    assert not any(t.exception or t.error for t in tabs)
    assert at.title[0].value == "Today's models: position layer by layer"
    box = answer_block(at)
    assert box is not None and [m.value for m in box.get("metric")] == ["12 of 48"]
    assert answer_words()[0].split(" (")[0] in page_text(at)
    assert [t.label for t in at.tabs] == SECTION_TABS
    # each tab draws its own section, and no other
    assert [[s.value for s in t.subheader] for t in tabs] == [
        ["1. Layers without position: Llama 4 Scout"],
        ["2. A base per layer type: Gemma 3, Gemma 2, Gemma 4, gpt-oss"],
        ["3. Positions in three dimensions: Qwen2.5-VL"],
        ["4. Part of each head turned: GPT-NeoX, Phi, GLM, DeepSeek-V3"],
    ]
    # two masks and the temperature; the wavelengths and the window's scores; none; the kept scores
    assert [len(t.get("vega_lite_chart")) for t in tabs] == [3, 2, 0, 1]
    names = [strips(t) for t in tabs]
    assert names[0] == ["Llama 4 Scout's 48 layers: R = rotates (RoPE) · N = no position (NoPE)"]
    assert names[1] == [
        "Gemma 3 27B's 62 layers: S = sliding window, base 10,000 · F = full, base 1,000,000",
        "Gemma 4's 30 layers: S = sliding window, base 10,000 · F = full, base 1,000,000",
        "gpt-oss-20b's 24 layers: W = a window · A = the whole text",
    ]
    assert [len(n) for n in names] == [1, 3, 2, 4]  # the models' layers, two models' pairs, four heads
    assert not [prose_problems(page_text(t)) for t in tabs if prose_problems(page_text(t))]


def test_the_strip_of_llama4_marks_every_fourth_layer(open_page):
    at = open_page(PAGE)
    layers = next(h.proto.body for h in at.get("html") if "48 layers" in h.proto.body)
    letters = [cell.split("</small>")[1][0] for cell in layers.split('class="strip-cell"')[1:]]
    assert [k + 1 for k, letter in enumerate(letters) if letter == "N"] == nope_layers()


def test_gemma4s_strip_and_sentences_are_its_layers_and_pairs(open_page):
    from core.positional.todays_views import gemma4_full_pairs, gemma4_layers

    at = open_page(PAGE, today_section=SECTION_TABS[1])
    layers = next(h.proto.body for h in at.get("html") if "Gemma 4&#x27;s 30 layers" in h.proto.body)
    letters = [cell.split("</small>")[1][0] for cell in layers.split('class="strip-cell"')[1:]]
    assert [k + 1 for k, letter in enumerate(letters) if letter == "F"] == [6, 12, 18, 24, 30]
    assert letters == ["F" if p.sees == "full" else "S" for p in gemma4_layers()]
    pairs, text = gemma4_full_pairs(), page_text(at)
    assert "25 of its 30 layers slide a window of 512 tokens with base 10,000 and heads of 256" in text
    assert "only the first 64 of a head's 256 pairs turn" in text
    assert f"turns once every {pairs.slowest:.0f} positions. The other 192 pairs never turn" in text


def test_the_image_tokens_table_is_cores(open_page):
    at = open_page(PAGE, today_section=SECTION_TABS[2])
    shown = next(t.value for t in at.table if "token" in t.value.columns)
    tokens = vl_tokens(["Describe", "this", "photo:"], ["It", "shows", "a", "cat."])
    assert shown[["token", "t", "h", "w"]].astype(str).values.tolist() == tokens.astype(str).values.tolist()


def test_presenting_asks_before_it_shows(open_page):
    at = open_page(PAGE, present="true")
    assert not at.exception
    assert [t.label for t in at.text_input] == [
        "How many of Llama 4 Scout's 48 layers have no position at all?"
    ]
    assert not strips(at)  # the answer waits for Reveal
    at.text_input[0].set_value("12").run()
    at.button(key="reveal_today_1").click().run()
    assert "You predicted 12; the answer is 12 layers — right!" in [s.value for s in at.success]
    assert strips(at) == ["Llama 4 Scout's 48 layers: R = rotates (RoPE) · N = no position (NoPE)"]


def test_presenting_the_image_asks_for_a_tokens_t_h_w_and_reads_a_guess(open_page):
    at = open_page(PAGE, present="true", slide="3")
    question = at.text_input[0]
    assert question.label.endswith("Which (t, h, w) does its bottom-right token get?")
    assert "0 to 2 on all three; the image is 2 × 3 tokens" in question.label
    assert not [t for t in at.table if "token" in t.value.columns]  # the table waits for Reveal
    question.set_value("3 4").run()
    assert "Could not read “3 4” as 3 whole numbers" in at.warning[0].value
    at.text_input[0].set_value("(3, 4, 6)").run()
    assert not at.warning
    at.button(key="reveal_today_3").click().run()
    assert "You predicted (3, 4, 6); the answer is (3, 4, 5)." in [w.value for w in at.warning]
    assert [t for t in at.table if "(t, h, w)" in t.value.columns]  # the image's tokens, a row a line


def test_every_word_is_defined_once_in_each_tab(open_page):
    from core.views.glossary import GLOSSARY

    for at in every_tab(open_page):
        text = page_text(at)
        twice = [name for name, term in GLOSSARY.items() if text.count(f"({term.gloss})") > 1]
        assert twice == []
