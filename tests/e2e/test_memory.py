"""The server's memory with real browsers: texts at the cap at once, and a restart mid-run.

Each test has a server of its own, so the peak it reads (the kernel's high-water mark of the server
process, ``VmHWM``) is that test's alone.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from core.serving.budget import MAX_TEXT_BYTES, SERVER_BYTES
from tests.e2e.conftest import _free_port, start_server

LONG = 180_000  # ms: three texts at the cap tokenized on a shared 2-core machine; not a performance bound
CJK = (  # the most frequent Chinese characters: 3 bytes of UTF-8 each
    "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生"
    "自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与"
    "好看学进种将还分此心前面又定见只主没公从"
)


def peak_rss(pid: int) -> int:
    """The process's peak resident size since it started (bytes)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) * 1024


def largest_allowed_text(k: int) -> str:
    """A CJK text of 3 bytes a character at the byte cap, different for each session (no shared cache)."""
    text = (CJK[k:] + CJK[:k]) * (MAX_TEXT_BYTES // len(CJK))
    return text[: MAX_TEXT_BYTES // 3]


def test_three_sessions_paste_the_largest_allowed_non_ascii_text_at_once(
    fresh_server_process, browser, wait_for_app
):
    server = fresh_server_process
    pages = [browser.new_page(viewport={"width": 1400, "height": 1600}) for _ in range(3)]
    try:
        for k, page in enumerate(pages):
            page.goto(server.url + "/Pipeline")
            wait_for_app(page)
            page.get_by_test_id("stSidebar").get_by_text("Paste", exact=True).click()
            area = page.get_by_test_id("stSidebar").get_by_role("textbox", name="Paste text")
            expect(area).to_be_visible()
            text = largest_allowed_text(k)
            assert len(text.encode()) <= MAX_TEXT_BYTES < len(text.encode()) + 3
            area.fill(text)
        for page in pages:  # all three apply their text at once
            page.get_by_test_id("stSidebar").get_by_role("textbox", name="Paste text").press("Control+Enter")
        for page in pages:  # each gets its page (its tokens counted) or a message that says why not
            answer = page.get_by_text(re.compile(r"pasted text: 55,333 characters → [\d,]+ tokens")).or_(
                page.get_by_text(re.compile("Waiting for memory|memory is full|held the server's memory"))
            )
            expect(answer.first).to_be_visible(timeout=LONG)
            wait_for_app(page, timeout=LONG)
            expect(
                page.get_by_text(re.compile(r"pasted text: 55,333 characters → [\d,]+ tokens"))
            ).to_be_visible()
            assert page.get_by_test_id("stException").count() == 0
    finally:
        for page in pages:
            page.close()
    assert server.proc.poll() is None  # no restart
    assert peak_rss(server.proc.pid) <= SERVER_BYTES


def test_a_server_restarted_mid_run_says_the_run_is_gone_and_train_starts_it_again(page, wait_for_app):
    port = _free_port()
    first = start_server(port)
    try:
        page.goto(first.url + "/Training?steps=2000&size=small&train_context=32&seed=22")
        wait_for_app(page)
        page.get_by_role("button", name="Train", exact=True).click()
        expect(page.get_by_test_id("stProgress")).to_be_visible(timeout=60_000)
        expect(page).to_have_url(re.compile(r"[?&]run=[0-9a-f]+\."))  # the browser keeps the run
    finally:
        first.stop()  # SIGTERM: the run dies with the process
    second = start_server(port)  # a fresh start on the same address: the browser reconnects to it
    try:
        assert second.url == first.url
        lost = page.get_by_text("The server restarted since you pressed Train")
        expect(lost).to_be_visible(timeout=LONG)  # the browser reconnected by itself and reran the page
        expect(page.get_by_test_id("stProgress")).to_have_count(0)  # not a frozen progress bar
        wait_for_app(page)
        page.get_by_role("button", name="Train", exact=True).click()
        expect(page.get_by_test_id("stProgress")).to_be_visible(timeout=60_000)  # trains again
        expect(lost).to_have_count(0)
        assert page.get_by_test_id("stException").count() == 0
    finally:
        second.stop()


def test_a_heavy_view_waits_for_the_memory_a_training_run_holds_says_so_and_then_draws(
    fresh_server_process, browser, wait_for_app, wait_for_charts, shots
):
    """A medium run at T 256 reserves ~93 MB and Families at its limits ~60 MB: together over the
    governor's 125 MB, so the view waits, visibly, until the run is stopped."""
    server = fresh_server_process
    trainer = browser.new_page(viewport={"width": 1400, "height": 1600})
    viewer = browser.new_page(viewport={"width": 1400, "height": 1600})
    try:
        trainer.goto(server.url + "/Training?size=medium&train_context=256&steps=500&seed=24")
        wait_for_app(trainer)
        trainer.get_by_role("button", name="Train", exact=True).click()
        expect(trainer.get_by_test_id("stProgress")).to_be_visible(timeout=LONG)
        viewer.goto(server.url + "/Families?context=8192&dim=16384&extrapolate=1&seed=24")
        waiting = viewer.get_by_text("Waiting for memory: 0 requests ahead, 1 heavy step running")
        expect(waiting).to_be_visible(timeout=LONG)
        viewer.screenshot(path=str(shots / "memory_waiting.png"))
        trainer.get_by_role("button", name="Stop", exact=True).click()
        expect(waiting).to_have_count(0, timeout=LONG)  # the run's memory is free: the view goes on
        wait_for_app(viewer, timeout=LONG)
        expect(
            viewer.get_by_role("heading", name="1. What position alone adds to an attention score")
        ).to_be_visible()
        wait_for_charts(viewer, timeout=LONG)
        assert viewer.get_by_test_id("stException").count() == 0
    finally:
        trainer.close()
        viewer.close()
    assert peak_rss(server.proc.pid) <= SERVER_BYTES
