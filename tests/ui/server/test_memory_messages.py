"""The server's memory on the pages: texts bounded by what they cost, a refused step that
says why and keeps everything, a restart named on the Training page, downloads that keep no batch."""

from __future__ import annotations

import threading
from functools import partial

import pytest
import torch

from core.serving.budget import MAX_TEXT_BYTES, MAX_TEXT_CHARS
from core.serving.memory_governor import governor
from core.text.data import first_batch
from ui.pipeline.views import first_inputs
from ui.training.run_link import PROCESS


def paste(at, text: str):
    at.sidebar.radio(key="source").set_value("paste").run()
    at.sidebar.text_area(key="text").input(text).run()
    return at


def test_the_text_box_takes_the_budgets_characters(open_page):
    at = open_page()
    at.sidebar.radio(key="source").set_value("paste").run()
    box = at.sidebar.text_area(key="text")
    assert box.max_chars == MAX_TEXT_CHARS == 78_000
    assert f"{MAX_TEXT_BYTES:,} bytes of UTF-8" in " ".join(c.value for c in at.sidebar.caption)  # on screen


def test_a_pasted_text_over_the_byte_cap_is_refused_with_its_cost_and_kept(open_page, errors):
    text = "的" * 60_000  # 60,000 characters fit the box; 180,000 bytes do not fit the server
    at = paste(open_page(), text)
    assert not at.exception
    assert "The pasted text has 60,000 characters, 180,000 bytes of UTF-8: 180,000 tokens at V = 257" in (
        errors(at)
    )
    assert f"at most {MAX_TEXT_BYTES:,} bytes" in errors(at)
    assert at.sidebar.text_area(key="text").value == text  # nothing the student pasted is lost
    at = paste(at, "的" * (MAX_TEXT_BYTES // 3))  # at the cap: the page
    assert not at.error and "pasted text: 55,333 characters" in " ".join(c.value for c in at.caption)


@pytest.fixture
def memory_taken():
    """Another thread holds nearly all of the governor's budget; waits give up after 0.3 s."""
    gov = governor()
    held, wait = [], gov.max_wait
    thread = threading.Thread(target=lambda: held.append(gov.acquire(gov.budget - 10**6, "another step")))
    thread.start()
    thread.join(5)
    gov.max_wait = 0.3
    yield gov
    gov.max_wait = wait
    gov.release(held[0])


def test_a_heavy_view_that_cannot_get_memory_says_why_and_keeps_every_setting(
    open_page, errors, memory_taken
):
    refused = memory_taken.counts.refused
    at = open_page("pages/Families.py", context="8192", dim="16384")
    assert not at.exception
    assert "held the server's memory for 0 s, so drawing these views" in errors(at)
    assert "Nothing you typed is lost" in errors(at)
    assert at.button(key="memory_try_again").label == "Try again"
    assert at.sidebar.number_input(key="dim").value == 16384  # the settings are as they were
    assert memory_taken.counts.refused == refused + 1


def test_a_run_from_another_server_process_is_named_as_lost_after_a_restart(open_page):
    at = open_page("pages/Training.py", run="0badc0de.0123456789abcdef01234567")
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "The server restarted since you pressed **Train**" in warnings
    assert "press **Train** to train it again" in warnings
    at = open_page("pages/Training.py", run=f"{PROCESS}.0123456789abcdef01234567")  # this process: no
    assert "The server restarted" not in " ".join(w.value for w in at.warning)


def test_the_batch_download_keeps_the_tokens_it_is_cut_from_not_the_batch():
    ids = list(range(1000, 1000 + 9000))
    B, T, stride = 128, 64, 1
    batch = first_batch(ids, B, T, stride)
    span = torch.tensor(ids[: (B - 1) * stride + T + 1], dtype=torch.int32)
    button = partial(first_inputs, span, B, T, stride)
    assert torch.equal(button(), batch.inputs)
    assert span.nbytes * 40 < batch.inputs.nbytes  # what a session keeps until its next run
