"""A training run that a server restart ended is named on the page, not silently gone.

Community Cloud restarts an app that goes over its memory (or is redeployed), and a restart ends every
run and forgets the finished ones: the training queue lives in the server process. The browser
reconnects to the new process by itself and reruns the page, which would then show "Press Train" as if
nothing had happened. So pressing Train writes ``run=<process>.<run>`` into the address bar, which the
browser keeps; a page that finds a run of another process there says that the server restarted and
the run is gone, and Train starts it again (and writes the new process's run). Stop removes it.
"""

from __future__ import annotations

import secrets

import streamlit as st

RUN_KEY = "run"  # URL parameter: the run this browser started last, with the process that ran it
PROCESS = secrets.token_hex(4)  # this server process: new at every start


def remember_run(job_key: str) -> None:
    """The session started run ``job_key`` on this process: keep it in the address bar."""
    st.query_params[RUN_KEY] = f"{PROCESS}.{job_key}"


def forget_run() -> None:
    """The session stopped its run: nothing to remember."""
    if RUN_KEY in st.query_params:
        del st.query_params[RUN_KEY]


def lost_run_message() -> str | None:
    """What to say when the address bar names a run of another server process (None otherwise)."""
    process = st.query_params.get(RUN_KEY, "").partition(".")[0]
    if not process or process == PROCESS:
        return None
    return (
        "The server restarted since you pressed **Train**: a restart ends the runs in progress and forgets "
        "the finished ones, so your run is gone. Your settings are still here: press **Train** to train it "
        "again."
    )
