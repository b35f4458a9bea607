"""A server stops promptly while a run trains: its teardown used to hang on the queue."""

import subprocess

import pytest
from playwright.sync_api import expect

STOP_BOUND = 5.0  # seconds from SIGTERM to exit that a class can wait (a functional bound)


def test_a_server_stops_within_5_s_of_sigterm_while_a_run_trains(fresh_server_process, page, wait_for_app):
    server = fresh_server_process
    # A run far longer than the test (a small model, 2,000 steps): it is still training at SIGTERM.
    page.goto(server.url + "/Training?steps=2000&size=small&train_context=32&seed=12")
    wait_for_app(page)
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_test_id("stProgress")).to_be_visible(timeout=60_000)  # running, not queued
    assert page.get_by_text("Validation loss", exact=True).count() == 0  # and not finished
    server.proc.terminate()
    try:
        server.proc.wait(timeout=STOP_BOUND)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the server still runs {STOP_BOUND:.0f} s after SIGTERM")  # the fixture then kills it
