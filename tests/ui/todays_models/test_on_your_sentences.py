"""The Attention page and Why position? say what today's models do with the chosen method on the
student's own sentences (``ui/todays_models/on_sentence.py``), counted at the longer sentence's length,
and link to Today's models; for a family today's models do not use they say nothing of them."""

import pytest

from core.config import PipelineConfig
from core.order import mid_sentence
from core.positional.family import FamilyConfig
from core.positional.on_sentence import on_sentence
from core.text.tokenizer import gpt2_tokenizer
from core.views.glossary import defined_in
from tests.ui.conftest import answer_block
from ui.attention.bridge import TAUGHT
from ui.todays_models.on_sentence import head_shares

PAGES = ["pages/Attention.py", "pages/Why_position.py"]
HEADING = "**In today's models, on your sentences.**"
LONG = "the cat sat on the mat because the mat was warm and the cat was cold"  # 16 tokens
SHORT = "the mat sat on the cat"


def note(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith(HEADING)]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("method", ["rope", "nope"])
def test_the_method_today_s_models_use_is_said_on_the_students_sentences(page, method, open_page):
    at = open_page(page, method=method, a=LONG, b=SHORT)
    assert not at.exception
    (said,) = note(at)
    tokens = len(gpt2_tokenizer().encode(LONG))
    assert tokens == 16
    attention = page == "pages/Attention.py"
    # the Attention page's section 1 defines these; Why position?'s answer, above, those it writes
    known = TAUGHT if attention else defined_in(" ".join(m.value for m in answer_block(at).markdown))
    ids = gpt2_tokenizer().encode(mid_sentence(LONG))  # A, read mid-text (the page's default); head 1 of 8
    shares = head_shares(ids, PipelineConfig(), FamilyConfig(), 0) if attention and method == "rope" else None
    assert said == HEADING + "\n" + "\n".join(
        f"- {line}" for line in on_sentence(method, tokens, known, shares)
    )
    if shares:
        assert "On your sentence A, this page's head has 32 numbers: turning only 8 of them" in said
    links = [link.proto.label for link in at.get("page_link")]
    assert "Today's models, layer by layer" in links


@pytest.mark.parametrize("page", PAGES)
def test_a_family_today_s_models_do_not_use_gets_no_note(page, open_page):
    at = open_page(page, method="alibi")
    assert not at.exception and note(at) == []
    assert "Today's models, layer by layer" not in [link.proto.label for link in at.get("page_link")]


def test_no_note_while_presenting(open_page):
    at = open_page("pages/Attention.py", method="rope", present="true", slide="2")
    assert not at.exception and note(at) == []


def test_a_word_the_answer_defined_is_not_defined_again_in_the_note(open_page):
    at = open_page("pages/Why_position.py", method="nope")  # the answer defines the causal mask
    (said,) = note(at)
    assert "**causal mask** (" in " ".join(m.value for m in answer_block(at).markdown)
    assert "only the causal mask orders your sentences" in said
