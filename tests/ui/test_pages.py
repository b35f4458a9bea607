"""Every page through Streamlit's AppTest: defaults, URL parameters, widgets and bad input."""

import re

import pytest
from streamlit.testing.v1 import AppTest

from core.order import max_sentence_tokens
from core.presets import PRESETS
from core.serving.budget import REQUEST_BYTES
from core.text.samples import SAMPLES
from tests.ui.conftest import page_metrics
from ui import navigation
from ui.server.cache import token_ids

PAGES = ["pages/Pipeline.py", "pages/Why_position.py"]


def metrics(at: AppTest) -> dict[str, str]:
    """The steps' metrics (below the answer box), by label."""
    return {m.label: m.value for m in page_metrics(at)}


def html(at: AppTest) -> str:
    """The HTML the page draws from its content (not the app's own over-long-link note and its script)."""
    bodies = (str(h.proto.body) for h in at.main.get("html"))
    return " ".join(b for b in bodies if "dropped-url" not in b)


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_with_its_sidebar(page, open_page):
    at = open_page(page)
    assert not at.exception
    assert not at.error
    keys = {w.key for w in at.sidebar.number_input}
    assert keys == {"vocab", "dim", "context", "batch", "stride", "seed"}
    assert at.sidebar.selectbox(key="method").value == "learned"


def test_pipeline_defaults_are_the_books(open_page):
    at = open_page()
    m = metrics(at)
    assert m["`inputs` shape"] == "8 × 4"
    assert m["`token_embeddings` shape"] == "8 × 4 × 256"
    assert m["`pos_embeddings` shape"] == "4 × 256"
    assert m["`input_embeddings` shape"] == "8 × 4 × 256"
    assert "12.87 M" in [x.value for x in at.metric]
    assert len(at.get("vega_lite_chart")) == 5  # 2 vocab trade-off charts + 3 heatmaps


def test_url_parameters_set_the_view(open_page):
    at = open_page(context="16", dim="64", batch="2", stride="3", method="sinusoidal")
    m = metrics(at)
    assert m["`input_embeddings` shape"] == "2 × 16 × 64"
    assert at.sidebar.number_input(key="stride").value == 3
    assert at.sidebar.selectbox(key="method").value == "sinusoidal"
    assert "Sinusoidal" in " ".join(c.value for c in at.caption)


def test_changing_a_control_changes_the_shapes(open_page):
    at = open_page()
    at.sidebar.number_input(key="context").set_value(8).run()
    assert metrics(at)["`token_embeddings` shape"] == "8 × 8 × 256"
    at.sidebar.number_input(key="batch").set_value(3).run()
    assert metrics(at)["`input_embeddings` shape"] == "3 × 8 × 256"


def test_settings_survive_a_page_switch(open_page):
    at = open_page(context="8")
    at.switch_page("pages/Why_position.py").run()
    assert at.sidebar.number_input(key="context").value == 8
    at.switch_page("pages/Pipeline.py").run()
    assert metrics(at)["`inputs` shape"] == "8 × 8"


@pytest.mark.parametrize(
    "params, message",
    [
        ({"stride": "0"}, "Stride must be between 1"),
        ({"context": "0"}, "Context length must be between 1"),
        ({"context": "-3"}, "Context length must be between 1"),
        ({"dim": "255", "method": "sinusoidal"}, "embedding dim must be even"),
        ({"vocab": "256"}, "needs its 256 byte tokens"),
    ],
)
def test_bad_settings_get_a_message_not_a_traceback(params, message, open_page, errors):
    at = open_page(**params)
    assert not at.exception
    assert message in errors(at)


def test_a_small_vocab_is_a_smaller_tokenizer_not_an_error(open_page):
    at = open_page(vocab="1000")
    assert not at.error and not at.exception
    assert "GPT-2's BPE cut to its first 1,000 tokens" in " ".join(c.value for c in at.main.caption)


def paste(at: AppTest, text: str) -> AppTest:
    at.sidebar.radio(key="source").set_value("paste").run()
    at.sidebar.text_area(key="text").input(text).run()
    return at


def test_ten_thousand_pasted_newlines_are_a_text_drawn_as_240_chips(open_page):
    # pasting 10,000 newlines; GPT-2's BPE makes 5,000 "\n\n" tokens of them, not an empty text
    at = paste(open_page(), "\n" * 10_000)
    assert not at.exception and not at.error
    assert "pasted text: 10,000 characters → 5,000 tokens of GPT-2's BPE." in [c.value for c in at.caption]
    pills = at.button_group(key="pick_token")  # one widget, 240 chips at a time, to follow a token
    assert len(pills.proto.options) == 240 and pills.proto.options[0].content.lstrip() == "↵↵ :small[628]"
    assert at.selectbox(key="pick_token_page").options[-1] == "tokens 4,800 to 4,999"
    assert sum(len(h.proto.body) for h in at.main.get("html")) < 100_000  # the page's HTML stays small


def test_pasted_text_is_escaped_and_endoftext_explained(open_page):
    text = "<script>alert('x')</script> <b>bold</b> <|endoftext|> " * 10
    at = paste(open_page(), text)
    assert not at.exception and not at.error
    chips = [o.content.lstrip() for o in at.button_group(key="pick_token").proto.options]
    # GPT-2 splits "<script>" into "<", "script", ">": each piece is escaped on its own.
    assert "\\< :small[27]" in chips and any(c.startswith("\\>") for c in chips)
    assert not any(re.search(r"(?<!\\)[<>]", c) for c in chips) and "<script" not in html(at)  # escaped
    assert "<|endoftext|> :small[50256]" in [c.replace("\\", "") for c in chips]
    assert "special token 50256" in " ".join(i.value for i in at.info)


def test_an_empty_pasted_text_is_explained(open_page, errors):
    at = paste(open_page(), "")
    assert not at.exception
    assert "The text is empty: paste some text, or pick a sample." in errors(at)
    at = paste(at, "   ")  # spaces are a text: GPT-2 has tokens for them (too few for a window here)
    assert not at.exception and "The text is empty" not in errors(at)
    assert "pasted text: 3 characters → 3 tokens of GPT-2's BPE." in [c.value for c in at.caption]
    assert "The text has 3 tokens, but one window of context length 4 needs 5" in warnings(at)


def warnings(at: AppTest) -> str:
    return " ".join(w.value for w in at.warning)


def test_a_short_text_runs_every_step_with_the_batch_it_fills(open_page):
    """6 tokens make 1 window of 4, so steps 2-6 show B = 1 instead of stopping."""
    at = paste(open_page(code=True), "The dog bites the man.")
    assert not at.exception and not at.error and not at.warning
    notes = [i.value for i in at.info]
    assert "Your text makes 1 window of 4 tokens: B = 1 here (Batch B asks for 8)." in notes[0]
    m = metrics(at)
    assert m["`token_ids` shape"] == "6" and m["`inputs` shape"] == "1 × 4"
    assert m["`token_embeddings` shape"] == m["`input_embeddings` shape"] == "1 × 4 × 256"
    assert picture_labels(at)[0] == "Sliding windows: 1 window of 4 tokens"
    captions = " ".join(c.value for c in at.caption)
    assert "no full batch of 8: that needs 33 tokens and the text has 6" in captions
    assert "What the LLM trains on: 1 sequence × 4 positions" in captions
    assert "over the 1 sequences" not in " ".join(x.value for x in at.markdown)
    assert "shuffle=False, drop_last=False" in " ".join(c.value for c in at.code)  # the script follows
    assert len(at.get("vega_lite_chart")) == 5  # 2 vocab trade-off charts + 3 heatmaps
    assert at.sidebar.text_area(key="text").value == "The dog bites the man."
    assert not any(b.key == "use_long_sample" for b in at.button)  # nothing offers to replace it


def test_a_sample_with_fewer_windows_than_the_batch_shows_them_all(open_page):
    at = open_page(batch="100")  # the lesson sample: 278 tokens, 69 windows of 4
    assert not at.exception and not at.error
    assert metrics(at)["`input_embeddings` shape"] == "69 × 4 × 256"
    assert "B = 69 here (Batch B asks for 100)" in at.info[0].value


def test_a_single_token_gets_its_chip_and_why_no_window_follows(open_page):
    at = paste(open_page(), "dog")
    assert not at.exception and not at.error
    assert "The text is a single token." in warnings(at) and "needs 2 tokens" in warnings(at)
    assert list(metrics(at)) == ["`token_ids` shape", "Parameters", "Memory"]  # step 1 only
    assert "pasted text: 3 characters → 1 token of GPT-2's BPE." in [c.value for c in at.caption]
    assert "dog" in html(at)
    assert not at.main.button  # no context length fits one token, and the text is never replaced
    assert at.sidebar.text_area(key="text").value == "dog"


def test_gpt3_setting_never_allocates_the_table(open_page):
    at = open_page(dim="12288", context="2048", sample="log")
    assert not at.exception and not at.error
    assert metrics(at)["`input_embeddings` shape"] == "8 × 2,048 × 12,288"
    info = " ".join(i.value for i in at.info)
    assert "never builds it" in info
    assert "the token table alone (without the position table) would take 2,470,232,064 bytes" in info
    assert any("Downsampled for drawing" in c.value for c in at.caption)


def test_why_position_cat_example(open_page):
    at = open_page("pages/Why_position.py")
    assert not at.exception and not at.error
    values = [m.value for m in page_metrics(at)]
    assert values[0] == "1.000000"
    assert float(values[1]) < 0.99
    assert "nn.Embedding(6, 256)" in " ".join(i.value for i in at.info)
    # The table it builds has a row a model trained at context 4 never had: the note says who uses it.
    assert "a token standing there (below) uses a row such a model never had" in " ".join(
        i.value for i in at.info
    )


def test_why_position_own_pair_and_bad_input(open_page, errors):
    at = open_page("pages/Why_position.py", a=" dog bites man", b=" man bites dog")
    table = at.table[1].value
    shuffled = table[table["pair"] == "A vs B"].iloc[0]
    assert shuffled["same vectors, no positions"] == "3 of 3"  # an exact token-level permutation
    at.text_input(key="a").input("").run()
    assert "Type a sentence in both boxes" in errors(at)
    assert not at.exception


def test_preset_from_the_url_sets_the_settings_and_shows_its_tables(open_page):
    at = open_page(preset="gpt2-small", sample="log")
    assert not at.exception and not at.error
    assert at.sidebar.number_input(key="dim").value == 768
    assert at.sidebar.number_input(key="context").value == 1024
    assert metrics(at)["`token_embeddings` shape"] == "8 × 1,024 × 768"
    table = next(t.value for t in at.table if "bytes in bf16" in t.value.columns)  # the preset's panel
    rows = ["token table", "position table", "embedding tables (the two above)", "whole model"]
    assert list(table[""]) == rows
    assert list(table["parameters"]) == ["38,597,376", "786,432", "39,383,808", "124,439,808"]
    assert table["bytes in float32"][2] == "157,535,232 (157.5 MB)"
    assert not at.warning  # GPT-2's own vocabulary


def test_other_vocabularies_are_flagged_and_editing_makes_it_custom(open_page):
    at = open_page(preset="llama2-7b", sample="log")
    assert "come from GPT-2's BPE cut to its first 32,000 tokens" in " ".join(w.value for w in at.warning)
    assert at.sidebar.selectbox(key="method").value == "rope"
    at.sidebar.number_input(key="dim").set_value(512).run()
    assert at.sidebar.selectbox(key="preset").value == "custom"
    assert at.sidebar.number_input(key="dim").value == 512


def copied_link(at: AppTest) -> str:
    """The link the sidebar's Copy link button puts on the clipboard."""
    import html as html_module

    body = next(h.proto.body for h in at.sidebar.get("html") if "data-link" in h.proto.body)
    return html_module.unescape(body.split('data-link="', 1)[1].split('"', 1)[0])


def test_copy_link_carries_every_setting_even_after_a_page_switch(open_page):
    from urllib.parse import parse_qs, urlsplit

    at = open_page(context="8", dim="64", method="sinusoidal")
    at.switch_page("pages/Why_position.py").run()
    at.text_input(key="a").input("a dog bites").run()
    query = parse_qs(urlsplit(copied_link(at)).query)
    assert query["context"] == ["8"] and query["dim"] == ["64"] and query["method"] == ["sinusoidal"]
    assert query["a"] == ["a dog bites"] and query["sample"] == ["lesson"]
    assert "every setting and the sample" in " ".join(c.value for c in at.sidebar.caption)


def test_copy_link_carries_a_short_pasted_text_and_says_when_it_cannot(open_page):
    from urllib.parse import parse_qs, urlsplit

    at = paste(open_page(), "a <b>short</b> text & more")
    query = parse_qs(urlsplit(copied_link(at)).query)
    assert query["text"] == ["a <b>short</b> text & more"] and "sample" not in query
    at.sidebar.text_area(key="text").input("long text " * 200).run()
    query = parse_qs(urlsplit(copied_link(at)).query)
    assert "text" not in query and "sample" not in query
    assert "longer than 1,000 characters" in " ".join(c.value for c in at.sidebar.caption)


def test_a_link_with_text_opens_with_that_text_pasted(open_page):
    at = open_page(text="hello from a link", context="2", batch="1")
    assert at.sidebar.radio(key="source").value == "paste"
    assert at.sidebar.text_area(key="text").value == "hello from a link"
    assert "pasted text: 17 characters" in " ".join(c.value for c in at.caption)
    too_long = open_page(text="x" * 1001)
    assert "a link carries at most 1,000" in " ".join(w.value for w in too_long.warning)
    assert too_long.sidebar.radio(key="source").value == "sample"


def picture_labels(at: AppTest) -> list[str]:
    return [image.proto.imgs[0].alt for image in at.get("image")]


def test_pipeline_draws_windows_lookups_and_broadcasting_as_labelled_images(open_page):
    at = open_page(batch="3", stride="6")
    labels = picture_labels(at)
    assert labels[0] == "Sliding windows: 3 windows of 4 tokens, one starting every 6 tokens"
    assert labels[1] == "Lookup: token_embeddings[0] takes 4 rows of token_embedding_layer"
    assert labels[2] == "Lookup: pos_embeddings takes 4 rows of pos_embedding_layer"
    assert labels[3].startswith("Broadcasting: token_embeddings 3 × 4 × 256 + pos_embeddings 4 × 256")
    assert all(image.proto.imgs[0].url.startswith("data:image/svg+xml") for image in at.get("image"))
    captions = " ".join(c.value for c in at.caption)
    assert "2 tokens between two windows (grey) are never an input" in captions


def test_batch_memory_is_that_of_inputs_and_downloads_are_labelled_by_format(open_page):
    at = open_page()
    memory = [m for m in at.metric if m.label == "Memory"][1]
    assert memory.value == "256 B"  # 8 × 4 int64: inputs only
    assert "targets take as much again" in memory.proto.help
    assert [b.label for b in at.get("download_button")][-4:] == ["CSV", ".npy", "CSV", ".npy"]


def test_nope_has_no_position_lookup_picture(open_page):
    at = open_page(method="nope")
    labels = picture_labels(at)
    assert len(labels) == 3 and not any("pos_embedding_layer" in label for label in labels)


@pytest.mark.parametrize(
    "page, title",
    [
        ("pages/Pipeline.py", "From text to input embeddings"),
        ("pages/Why_position.py", "Why position?"),
        ("pages/Families.py", "Positional-encoding families, side by side"),
        ("pages/Training.py", "Watch positions being learned"),
        ("pages/Trained_positions.py", "What trained positions look like"),
    ],
)
def test_a_page_that_is_the_first_run_draws_the_whole_app(page, title, open_page):
    """A fresh server's first run executes the page file itself (the legacy pages/ path)."""
    at = open_page(page, first_request=True, context="8", dim="32")
    assert not at.exception
    assert at.title[0].value == title
    assert {w.key for w in at.sidebar.number_input} == {"vocab", "dim", "context", "batch", "stride", "seed"}
    assert at.sidebar.number_input(key="context").value == 8
    assert len([p for p in at.sidebar.get("page_link")]) == len(navigation.PAGES)  # one link per page
    at.sidebar.number_input(key="context").set_value(16).run()  # the next run starts at the entry point
    assert not at.exception and at.title[0].value == title
    assert at.sidebar.number_input(key="context").value == 16


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_from_the_default_url_renders_its_shapes(preset, open_page, errors):
    at = open_page(preset=preset)
    assert not at.exception
    p = PRESETS[preset]
    if at.error:  # a vocabulary smaller than GPT-2's: the sample's IDs need the one-click fix
        assert p.vocab_size < 50257 and "vocab size" in errors(at)
        at.button(key="fix_vocab").click().run()
        assert not at.error
    sample = "log" if p.context_length + 1 > 278 else "lesson"
    assert at.sidebar.selectbox(key="sample").value == sample
    tokens = len(token_ids(SAMPLES[sample], p.vocab_size))
    stride, batch = p.data_settings(tokens, 8)  # stride = context; the batch the windows allow
    assert at.sidebar.number_input(key="stride").value == stride == p.context_length
    assert metrics(at)["`input_embeddings` shape"] == f"{batch} × {p.context_length:,} × {p.dim:,}"


def test_a_pasted_text_too_short_for_the_context_gets_a_fix_that_keeps_it(open_page):
    text = "a short text of a few words"  # 7 tokens
    at = paste(open_page(), text)
    at.sidebar.number_input(key="context").set_value(64).run()
    assert not at.error and "one window of context length 64 needs 65" in warnings(at)
    assert "`token_ids` shape" in metrics(at)  # the tokens are still shown
    assert not any(b.key == "use_long_sample" for b in at.button)
    at.button(key="fit_context").click().run()
    assert not at.error and not at.warning
    assert at.sidebar.number_input(key="context").value == 6
    assert metrics(at)["`input_embeddings` shape"] == "1 × 6 × 256"
    assert at.sidebar.text_area(key="text").value == text


def test_fitting_the_context_to_a_short_text_leaves_the_preset(open_page):
    at = paste(open_page(preset="gpt2-small"), "The dog bites the man.")  # context 1,024, 6 tokens
    assert "context length of at most 5" in warnings(at)
    at.button(key="fit_context").click().run()
    assert at.sidebar.selectbox(key="preset").value == "custom"  # the settings are no longer GPT-2's
    assert metrics(at)["`input_embeddings` shape"] == "1 × 5 × 768"


def test_presenting_a_short_text_asks_for_its_own_shape(open_page):
    at = open_page(present="true", text="The dog bites the man.")
    at.session_state["slide_pipeline"] = 3
    at.run()
    assert "B = 1 here" in at.info[0].value  # said on every slide, above the step
    at.text_input(key="predict_3").input("1 x 4 x 256").run()
    at.button(key="reveal_3").click().run()
    assert at.success[0].value == "Right: 1 × 4 × 256."


def test_a_sample_too_short_for_the_context_offers_the_long_sample(open_page):
    at = open_page(context="300")  # the lesson sample has 278 tokens
    assert "one window of context length 300 needs 301" in warnings(at)
    at.button(key="use_long_sample").click().run()
    assert not at.warning and metrics(at)["`input_embeddings` shape"] == "8 × 300 × 256"


def test_the_preset_list_shows_model_names_and_the_url_keeps_the_name(open_page):
    # the list showed raw keys (gpt2-small, llama3-8b)
    at = open_page()
    box = at.sidebar.selectbox(key="preset")
    assert box.options == ["Custom settings", *(p.label for p in PRESETS.values())]
    assert "LLaMA-3 8B" in box.options and "llama3-8b" not in box.options
    at = box.select("llama3-8b").run()
    assert not at.exception
    assert at.sidebar.selectbox(key="preset").value == "llama3-8b"
    assert at.query_params["preset"] == "llama3-8b"  # the key, not the label
    at.sidebar.number_input(key="stride").set_value(100).run()  # a preset's value edited by hand
    assert at.sidebar.selectbox(key="preset").value == "custom" and "preset" not in at.query_params


def test_a_preset_sets_its_stride_and_the_batch_its_windows_allow(open_page):
    # llama3-8b kept stride 4 at context 8192: 8 windows, each 4 tokens after the last
    at = open_page(preset="llama3-8b", sample="log")
    assert not at.exception and not at.error
    assert at.sidebar.number_input(key="stride").value == 8192
    assert at.sidebar.number_input(key="batch").value == 1  # 9,090 tokens make one window of 8,192
    note = next(i.value for i in at.info if "sets the stride" in i.value)
    assert "LLaMA-3 8B sets the stride to its context, 8,192" in note
    assert "make 1 such window, so the batch is now 1 (it was 8)" in note
    assert metrics(at)["`input_embeddings` shape"] == "1 × 8,192 × 4,096"
    book = open_page(preset="book")
    assert book.sidebar.number_input(key="stride").value == 4 and not book.info  # the book's, unchanged


def test_a_preset_that_needs_a_longer_text_says_it_switched_to_the_long_sample(open_page):
    at = open_page(preset="gpt3-175b")
    note = next(i.value for i in at.info if "long sample" in i.value)
    assert "one window of context 2,048 needs 2,049 tokens and the lesson sample has 278" in note
    at.sidebar.selectbox(key="method").set_value("rope").run()  # said once, not on every rerun
    assert not any("long sample" in i.value for i in at.info)


def test_why_position_dog_bites_man_compares_words_that_moved(open_page):
    at = open_page("pages/Why_position.py", a="dog bites man", b="man bites dog")
    assert not at.exception and not at.error
    first, second = page_metrics(at)[:2]
    assert "' dog'" in first.label and first.value == "1.000000"
    assert "positions 0 and 2" in second.label and float(second.value) < 0.99
    bullets = " ".join(m.value for m in at.markdown)
    assert "almost none" not in bullets and "exactly the same 3 vectors" in bullets
    assert "B is an exact reordering of A's tokens." in [c.value.replace("\\", "") for c in at.caption]


def test_why_position_says_what_rope_changes_and_what_it_does_not(open_page):
    at = open_page("pages/Why_position.py", a="dog bites man", b="man bites dog", method="rope")
    term = page_metrics(at)[1]
    assert term.label.replace("\\", "") == "RoPE term, ' dog' → ' bites' in B"
    assert "the two swapped places" in term.delta  # ' bites' looks back at ' dog' in A, not in B
    bullets = " ".join(m.value for m in at.markdown)
    assert (
        "RoPE turns the vectors that attention compares" in bullets
        and "all 3 vectors are unchanged" in bullets
    )


def test_why_position_without_the_leading_space_finds_no_moved_token(open_page):
    at = open_page("pages/Why_position.py", a="dog bites man", b="man bites dog", space="false")
    assert "stands at the same position in both" in at.warning[0].value  # only ' bites' is shared


def test_why_position_caps_sentences_at_the_memory_budget(open_page, errors):
    at = open_page("pages/Why_position.py", a="\U00013000" * 300, b="\U00013000" * 300, dim="16384")
    assert f"at most {max_sentence_tokens(16384)} tokens at d = 16,384" in errors(at)
    assert max_sentence_tokens(16384) * 16384 * 8 * 16 <= REQUEST_BYTES < 1200 * 16384 * 8
    assert not at.exception


def test_the_copy_button_holds_user_text_only_escaped(open_page):
    at = paste(open_page(), 'a "quoted" <b>tag</b> text' + " word" * 10)
    body = next(h.proto.body for h in at.sidebar.get("html") if "data-link" in h.proto.body)
    link_attribute = body.split('data-link="', 1)[1].split('"', 1)[0]
    assert "<" not in link_attribute and "&quot;" not in link_attribute  # URL-encoded, then HTML-escaped
    assert "%22quoted%22" in link_attribute


def test_the_pages_are_built_once_per_process_and_each_run_navigates_copies(open_page, monkeypatch):
    import streamlit as st
    from streamlit.util import calc_hash

    navigated, real = [], st.navigation
    monkeypatch.setattr(st, "navigation", lambda pages, **kw: navigated.append(pages) or real(pages, **kw))
    at = open_page()
    built = navigation._built
    at.sidebar.number_input(key="context").set_value(16).run()
    assert not at.exception and navigation._built is built  # not built again
    assert len(navigated) == 2
    for pages in navigated:  # a run's own copies, never the kept pages (st.navigation marks one of them)
        assert not {id(p) for p in pages} & {id(p) for p in built}
        assert [(p.title, p.url_path) for p in pages] == [(p.title, p.url_path) for p in built]
    links = at.sidebar.get("page_link")
    numbered = {stop: f"{k}. {stop.title}" for k, stop in enumerate(navigation.ROUTE, 1)}
    assert [(link.proto.label, link.proto.page_script_hash) for link in links] == [
        (numbered.get(stop, stop.title), calc_hash(stop.url)) for stop in navigation.PAGES
    ]
