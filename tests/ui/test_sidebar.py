"""The shared sidebar in a student's words: its lists show names, not the app's keys, while the URL keeps
the keys (a link still opens its view); a setting's help is written under it, not behind a "?" button."""

from __future__ import annotations

from core.positional.family import FAMILIES
from core.text.samples import SAMPLE_TITLES


def test_the_method_list_shows_each_familys_name_and_the_url_keeps_its_key(open_page):
    at = open_page("pages/Pipeline.py", method="rope")
    assert not at.exception
    method = at.sidebar.selectbox(key="method")
    assert method.value == "rope"  # the link's key chose RoPE
    assert method.options == [f.label for f in FAMILIES.values()]  # what the list shows
    assert "Learned absolute" in method.options and "learned" not in method.options
    assert method.format_func("sinusoidal") == "Sinusoidal"
    method.set_value("alibi").run()
    assert at.query_params["method"] == "alibi"  # the key, not "ALiBi"
    assert any(c.value.startswith("**ALiBi**: lowers the attention score") for c in at.sidebar.caption)
    at.sidebar.selectbox(key="method").set_value("learned").run()  # the default: out of the URL
    assert "method" not in at.query_params


def test_a_link_with_the_method_opens_it_on_every_page_switch(open_page):
    at = open_page("pages/Why_position.py", method="t5")
    at.switch_page("pages/Families.py").run()
    assert not at.exception
    assert at.sidebar.selectbox(key="method").value == "t5" and at.query_params["method"] == "t5"


def test_the_sample_list_shows_titles_and_the_url_keeps_the_samples_name(open_page):
    at = open_page("pages/Pipeline.py", sample="log")
    sample = at.sidebar.selectbox(key="sample")
    assert sample.value == "log" and sample.options == list(SAMPLE_TITLES.values())
    sample.set_value("cat").run()
    assert at.query_params["sample"] == "cat"


def test_no_sidebar_setting_hides_its_help_behind_a_button(open_page):
    # Each "?" was a Tab stop before every page; the words are under the settings instead.
    at = open_page("pages/Pipeline.py")
    widgets = [*at.sidebar.selectbox, *at.sidebar.number_input, *at.sidebar.radio, *at.sidebar.toggle]
    assert widgets and [w.label for w in widgets if w.help] == []
    captions = " ".join(c.value for c in at.sidebar.caption)
    for words in ("how many tokens the tokenizer knows", "the random numbers", "Large type for a projector"):
        assert words in captions
