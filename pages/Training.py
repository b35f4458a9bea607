"""Watch positions being learned: a tiny GPT trained live, shared fairly between sessions."""

import dataclasses
from contextlib import nullcontext

import streamlit as st

from core.positional.family import FAMILIES
from core.scripts.training import training_script
from core.text.data import TextTooShort
from core.training.answer import before_run, cannot_train, intro
from core.training.model import learning_methods, trainable_methods
from core.training.train_queue import settings_key, text_key
from core.training.training import MAX_TRAIN_TOKENS, TrainConfig
from core.views.units import listing, plural
from ui.answer import answer_slot
from ui.app import checked_settings
from ui.code_view import show_script
from ui.navigation import page_title
from ui.presenter import presenting
from ui.server import cache
from ui.slides import Slides
from ui.training.run_link import forget_run, lost_run_message, remember_run
from ui.training.views import (
    compare_view,
    page_reply,
    progress_view,
    results_view,
    run_caption,
    session_id,
    settings_label,
    shown_run,
    stopped_message,
    tell,
    train_settings,
    training_queue,
    training_text,
)

cfg, choice = checked_settings()
page_title("Watch positions being learned")
slot = answer_slot()
top = st.container()  # the introduction, written with the answer: it defines what the answer has not
with st.sidebar if presenting() else nullcontext():  # presenting, the settings wait in the sidebar
    choice = training_text(choice)
    tcfg = train_settings(cfg.method, cfg.seed, stacked=presenting())
if cfg.method not in trainable_methods():  # e.g. the T5 preset: a way forward, not an error
    tell(slot, top, cannot_train(cfg.method, tcfg))
    names = listing([FAMILIES[m].label for m in trainable_methods()])
    st.info(
        f"This page trains {names} positions, not **{FAMILIES[cfg.method].label}**: pick one of them as "
        "the sidebar's **Positional method**, or:"
    )
    st.button(
        "Train with learned positions",
        key="use_learned",
        on_click=lambda: st.session_state.update(method=learning_methods()[0]),
    )
    st.stop()
try:
    if choice.error:
        raise ValueError(choice.error)
    ids = cache.token_ids(choice.text, cfg.vocab_size)
    if len(ids) > MAX_TRAIN_TOKENS:
        st.caption(
            f"The text has {len(ids):,} tokens; training reads its first {MAX_TRAIN_TOKENS:,} "
            "(the shared server's memory bound)."
        )
        ids = ids[:MAX_TRAIN_TOKENS]
    tcfg.validate(len(ids), len(set(ids)))
except ValueError as exc:
    tell(slot, top, before_run(tcfg, "blocked"))
    st.error(str(exc))
    if isinstance(exc, TextTooShort):
        st.button(
            "Train on the ship's log",
            key="use_log",
            on_click=lambda: st.session_state.update(corpus="log"),
        )
    st.stop()

if not presenting():
    show_script(
        lambda: training_script(tcfg, choice.text, cfg.vocab_size),
        "the same run as the Train button (same seed, same curves); it prints the loss curve, the final "
        "losses and, last, one JSON line with them.",
    )
slides = Slides(  # presenting, a finished run's numbers, curves and table come one slide each
    "training",
    [
        ("Train one model", ["", "the loss", "the table taking shape"]),
        ("Every method on this text", ["", "past the trained length"]),
    ],
)
queue, me, text = training_queue(), session_id(), text_key(ids)
plan = st.session_state.setdefault("train_plan", [])  # Train every method: the runs still to ask for
own = queue.own_job(me)  # a session has one run at a time
if plan and (own is None or own.finished):
    own = queue.submit(ids, plan.pop(0), me)
job = shown_run(own, queue.get(settings_key(text, tcfg)))
reply = page_reply(job, text, tcfg)
tell(slot, top, reply)
said = set() if slot is None else {FAMILIES[k].label for k in (*reply.others, cfg.method)}  # defined above


def start(configs: list[TrainConfig]) -> None:
    plan[:] = configs[1:]
    remember_run(queue.submit(ids, configs[0], me).key)  # a restart can then say the run is gone


def stop() -> None:
    plan.clear()
    queue.stop(me)
    forget_run()


@st.fragment(run_every=0.5 if job is not None and not job.finished else None)
def live() -> None:
    """Redraws itself while the run trains; a full rerun shows the results when it ends."""
    queue.touch(me)  # someone is watching: the run is not abandoned
    if job.finished:
        st.rerun(scope="app")
    progress_view(queue, job)


if slides.shows(1) and not slides.at(0):
    if job is not None and job.status == "done":
        results_view(job.result, slides.part)
    else:
        st.info("No finished run to show yet: press **Train** in the first section.")
elif slides.shows(1):
    if slides.on and job is None:
        st.markdown(intro())
    b1, b2, b3 = st.columns([1, 1, 3])
    b1.button("Train", type="primary", key="train", on_click=start, args=([tcfg],))
    b2.button("Stop", key="stop", disabled=own is None or own.finished, on_click=stop)
    every_method = [dataclasses.replace(tcfg, method=m) for m in trainable_methods()]
    b3.button("Train every method (compare)", key="train_all", on_click=start, args=(every_method,))
    if job is None and (lost := lost_run_message()):
        st.warning(lost, icon=":material/restart_alt:")
    elif job is None:
        st.info(
            f"Press **Train**: {plural(tcfg.steps, 'step')} of a {tcfg.size} model with "
            f"{FAMILIES[tcfg.method].label} positions, context {tcfg.context_length}. A finished run is kept "
            "for everyone who asks for the same settings."
        )
    elif not job.finished:
        if job.config != tcfg:
            c = job.config
            st.caption(
                f"Your run ({settings_label(c, ('method', 'size', 'context_length', 'steps'))}) is still "
                "training with its own settings: Stop stops it."
            )
        if plan:
            names = ", ".join(FAMILIES[c.method].label for c in plan)
            st.caption(
                f"Then one more: {names}."
                if len(plan) == 1
                else f"Then {len(plan)} more, one after another: {names}."
            )
        live()
    else:
        st.markdown(run_caption(job, text, tcfg))
        if job.status == "failed":
            st.error(f"The run failed: {job.error}")
        elif job.status == "stopped":
            st.warning(stopped_message(job))
        else:
            results_view(job.result, slides.part)

if slides.shows(2):
    st.subheader("Every method on this text")
    compare_view(queue, job.text if job else text, job.config if job else tcfg, text, said, slides.part)
