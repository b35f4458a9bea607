"""The Training page's pieces: the shared queue, the controls, live progress and the results."""

from __future__ import annotations

import dataclasses
import threading
import uuid

import pandas as pd
import streamlit as st
import torch
from streamlit.delta_generator import DeltaGenerator

from core.positional.family import FAMILIES
from core.similarity import cosine_matrix
from core.text.samples import SAMPLE_TITLES, SAMPLES
from core.training.answer import Reply, after_run, before_run, intro, not_these_settings, taught
from core.training.model import SIZES, trainable_methods
from core.training.position_loss import past_length_caption
from core.training.train_queue import Job, TrainingQueue, settings_key
from core.training.training import (
    TrainConfig,
    TrainResult,
    batch_size_for,
    comparison_rows,
    similarity_picture,
)
from core.views.charts import (
    grid_frame,
    heatmap,
    line_chart,
    loss_chart,
    loss_frame,
    similarity_heatmap,
    structure_chart,
)
from core.views.describe import grid_description
from core.views.glossary import GLOSSARY, named
from core.views.units import listing, plural
from ui.answer import Answer, show_answer
from ui.charts import draw
from ui.presenter import presenting, slide_height
from ui.server import cache
from ui.server.memory import waiting_message
from ui.settings import bound_number
from ui.state.url_keys import register_url_keys, url_bound
from ui.tables import table
from ui.text_source import TextChoice
from ui.training.position_loss_view import position_loss_view

DEFAULTS = TrainConfig()
TOKEN_COUNT_GUESS = "Guess from token counts"  # each next token from its count alone, no earlier token
register_url_keys("corpus", "train_context", "size", "steps")
WORKERS = 1  # runs training at once on the server's two cores; the rest queue
SLIDE_CHART = 440  # px: the loss curves' height on a presenter's slide (1280 × 720)
SNAPSHOT_HEATMAP = 400  # px: the table's similarity heatmap on a presenter's slide, beside slider and curve
KEEP = 16  # finished runs kept for everyone (each ≤ 26 snapshots of ≤ 256 × 128 floats: ≤ 3.4 MB)


_QUEUE: list[TrainingQueue] = []
_QUEUE_LOCK = threading.Lock()


def training_queue() -> TrainingQueue:
    """The one queue of the server process, shared by every session (its state, not a cache:
    ``ui.server.cache.clear`` leaves it)."""
    with _QUEUE_LOCK:
        if not _QUEUE:
            _QUEUE.append(TrainingQueue(workers=WORKERS, keep=KEEP))
        return _QUEUE[0]


def session_id() -> str:
    """A random ID for this browser session (who is waiting for which run)."""
    return st.session_state.setdefault("_session_id", uuid.uuid4().hex)


CORPORA = {  # options show their own names: a bound radio writes what it shows into the URL
    "log": "The ship's log: a sample built for training (~9,100 tokens)",
    "sidebar": "The text chosen in the sidebar",
}


def training_text(choice: TextChoice) -> TextChoice:
    """The text to train on (URL key ``corpus``): the long sample by default, or the sidebar's text."""
    corpus = st.radio(
        "Train on", list(CORPORA), captions=list(CORPORA.values()), horizontal=True, **url_bound("corpus")
    )
    if corpus == "log":
        return TextChoice(SAMPLES["log"], f"sample: {SAMPLE_TITLES['log']}")
    return choice


def train_settings(method: str, seed: int, stacked: bool = False) -> TrainConfig:
    """Context, model size and steps (URL keys train_context, size, steps), side by side or ``stacked``
    (in the sidebar)."""
    c1, c2, c3 = [st.container()] * 3 if stacked else st.columns(3)
    with c1:
        context = bound_number(
            "Trained context T",
            "train_context",
            DEFAULTS.context_length,
            "The lesson's context length for this model: how many tokens it reads at once while it trains "
            "(4 to 256). A learned table gets one row per position, so T rows.",
        )
    with c2:
        sizes = list(SIZES)
        size = st.selectbox(
            "Model size",
            sizes,
            index=sizes.index(DEFAULTS.size),
            **url_bound("size"),
            help="How big the tiny GPT is: "
            + "; ".join(
                f"{k}, vectors of {d} numbers and {plural(n, 'block')}" for k, (d, _, n) in SIZES.items()
            )
            + ". A bigger model learns more and trains slower.",
        )
    with c3:
        steps = bound_number(
            "Steps",
            "steps",
            DEFAULTS.steps,
            "How many times training changes the model's numbers, each time after reading a batch of "
            "windows of the text (1 to 5,000).",
        )
    batch = batch_size_for(context) if context >= 1 else 1
    return TrainConfig(method, context, size, steps, batch_size=batch, seed=seed)


LABELS = {  # a run's settings as the page names them: a method by its family's label, steps agreeing
    "method": lambda method: f"{FAMILIES[method].label} positions",
    "size": lambda size: f"{size} model",
    "context_length": lambda context: f"context {context}",
    "steps": lambda steps: plural(steps, "step"),
    "seed": lambda seed: f"seed {seed}",
}


def settings_label(cfg: TrainConfig, names: tuple[str, ...] = tuple(LABELS)) -> str:
    """``cfg`` in words, e.g. "Learned absolute positions, tiny model, context 8, 300 steps, seed 11"."""
    return ", ".join(LABELS[name](getattr(cfg, name)) for name in names)


def shown_run(own: Job | None, current: Job | None) -> Job | None:
    """The run the page shows, given the session's own run and the run of the settings above (if any).

    Its own run while that is queued or training. Once it has finished: the settings' finished run if
    they have one, else its own, which stays (labelled with its own settings) until it trains again,
    whatever the settings now say. With no run of its own: the settings' run, anyone's.
    """
    if own is None or (own.finished and current is not None and current.status == "done"):
        return current
    return own


def run_caption(job: Job, text: str, cfg: TrainConfig) -> str:
    """The finished run's own settings and, if they differ, what the page's (``text``, ``cfg``) say now."""
    changed = [LABELS[n](getattr(cfg, n)) for n in LABELS if getattr(cfg, n) != getattr(job.config, n)]
    if job.text != text:
        changed.append("another text")
    caption = f"**This run:** {settings_label(job.config)}."
    if changed:
        caption += f" The settings above differ ({', '.join(changed)}): press **Train** to train them."
    return caption


def page_reply(job: Job | None, text: str, cfg: TrainConfig) -> Reply:
    """The page's answer: from the run on screen once it is done, else for the settings ``cfg`` (``text``:
    their text's ``text_key``) with what to do next."""
    if job is None or job.status != "done":
        state = "ready" if job is None else {"queued": "training", "running": "training"}.get(job.status)
        return before_run(cfg, state or job.status)
    reply = after_run(job.result)
    if job.config != cfg or job.text != text:
        reply = dataclasses.replace(reply, words=f"{reply.words} {not_these_settings()}")
    return reply


def tell(slot: DeltaGenerator | None, top: DeltaGenerator, reply: Reply) -> None:
    """The answer in its ``slot``, and under it, in ``top``, the introduction, which defines the words
    the answer has not (not when presenting: the slides show their own)."""
    show_answer(slot, Answer(reply.label, reply.number, reply.words, reply.others))
    if not presenting():
        top.markdown(intro(taught(reply.words)))


def stopped_message(job: Job) -> str:
    """What a stopped run got to: a step, or never started (it was stopped while queued)."""
    if job.started is None:
        return "Stopped while it was queued: it never started. Press **Train** to queue it again."
    return f"Stopped at step {job.step} of {job.config.steps:,}. Press **Train** to start again."


def progress_view(queue: TrainingQueue, job: Job) -> None:
    """Status, progress bar and the live loss curve of a queued or running job."""
    if job.status == "queued":
        st.info(
            f"Queued: {plural(queue.position(job), 'run')} ahead, about {queue.wait_seconds(job):,.0f} s of "
            "training before yours starts (one run trains at a time on this shared server). This page "
            "updates by itself."
        )
        return
    if (wait := job.memory_wait) is not None:  # it waits for the server's memory: say so, not a frozen bar
        st.info(waiting_message(*wait, "this training run"), icon=":material/hourglass_top:")
        return
    st.progress(job.step / job.config.steps, text=f"Training: step {job.step} of {job.config.steps}")
    if job.result is not None and job.result.steps:
        draw(
            loss_chart(losses(job.result), draw=cache.drawing(line_chart)),
            width="stretch",
            height=slide_height(400),
        )


def losses(result: TrainResult) -> pd.DataFrame:
    """The result's loss curves and the guess from token counts as a ``core.views.charts.loss_frame``."""
    return loss_frame(
        result.steps, result.train_loss, result.val_loss, result.unigram_val_loss, result.config.steps
    )


def results_view(result: TrainResult, part: int | None = None) -> None:
    """Final numbers, the loss curves and, for learned positions, the table taking shape.

    ``part`` (presenting): 0 the numbers, 1 the loss curves, 2 the table; None all three.
    """
    if part == 1:
        draw(
            loss_chart(losses(result), draw=cache.drawing(line_chart)),
            width="stretch",
            height=SLIDE_CHART,
        )
        return
    if part == 2:
        if result.snapshots:
            snapshot_view(result)
        else:
            st.info(
                f"{FAMILIES[result.config.method].label} positions have no table to watch: pick **Learned "
                "absolute** (`learned`) as the sidebar's Positional method and train again."
            )
        return
    c = st.columns(4)
    c[0].metric(
        "Validation loss",
        f"{result.val_loss_inside:.3f}",
        delta=f"{result.val_loss_inside - result.unigram_val_loss:+.3f} vs the token-count guess",
        delta_color="inverse",
        help="How wrong the trained model's guesses are on the last 10% of the text, which it never trained "
        "on, read in windows of the trained length. Lower is better.",
    )
    c[1].metric(
        TOKEN_COUNT_GUESS,
        f"{result.unigram_val_loss:.3f}",
        help="The loss of a guess that ignores every earlier token: each next token guessed only from how "
        "often it occurs in the training text. A model that learned anything from the tokens before scores "
        "lower.",
    )
    c[2].metric(
        "Parameters",
        f"{result.num_parameters:,}",
        help=f"Every number training changes. Its token table has one row for each of the "
        f"{plural(result.vocab_size, 'token')} the text uses, not GPT-2's 50,257.",
    )
    c[3].metric("Trained in", f"{result.seconds:.1f} s")
    if part is not None:
        return
    draw(loss_chart(losses(result), draw=cache.drawing(line_chart)), width="stretch")
    if result.snapshots:
        snapshot_view(result)


@st.fragment  # scrubbing its slider redraws this section alone, not the page's run and tables
def snapshot_view(result: TrainResult) -> None:
    """Scrub through the learned table's snapshots: its similarity matrix and structure score."""
    st.markdown(
        "**The learned table, step by step.** Drag the slider: step 0 is random noise, only the diagonal "
        "stands out."
    )
    # Presenting, the heatmap takes the slide's height beside the slider and the curve; else the slider
    # spans the page above the two.
    above = None if presenting() else st.container()
    c1, c2 = st.columns(2)
    with c2 if above is None else above:
        index = st.select_slider(
            "Step",
            options=list(range(len(result.steps))),
            value=len(result.steps) - 1,
            format_func=lambda k: str(result.steps[k]),
            key="snapshot",
        )
    table = result.snapshots[index]  # [T, d]
    T = table.shape[0]
    picture = similarity_picture(table)  # under the heatmap, and what a screen reader says for it
    with c1:
        frame = grid_frame(cosine_matrix(table), torch.arange(T), torch.arange(T), "position i", "position j")
        title = f"Cosine similarity at step {result.steps[index]}"
        said = f"{grid_description(title, frame, 'position j', 'position i')} {picture}"
        draw(
            similarity_heatmap(frame, title, description=said, draw=cache.drawing(heatmap)),
            width="stretch",
            height=slide_height(SNAPSHOT_HEATMAP, 280),
        )
    with c2:
        frame = pd.DataFrame({"step": result.steps, "structure": result.structure})
        draw(
            structure_chart(frame, result.steps[index], draw=cache.drawing(line_chart)),
            width="stretch",
            height=slide_height(280),
        )
    st.caption(
        f"Step {result.steps[index]}: {picture} Structure (neighbours minus positions "
        f"{T // 2} or more apart): {result.structure[index]:+.3f}; step 0: {result.structure[0]:+.3f} (0 is "
        "no order, 2 the most)."
    )


def compare_view(
    queue: TrainingQueue,
    text: str,
    cfg: TrainConfig,
    chosen_text: str,
    said: set[str] = frozenset(),
    part: int | None = None,
) -> None:
    """Every method's finished run, inside and past the trained length, with a caption of its settings.

    Args:
        text: the ``text_key`` of the runs' text.
        cfg: the runs' settings but the method.
        chosen_text: the ``text_key`` of the text the page's settings name now.
        said: the methods' names the page has defined already (the others are defined here).
        part: presenting, 0 the methods and the table, 1 the table and what its cells past the trained
            length mean; None all.
    """
    keys = [settings_key(text, dataclasses.replace(cfg, method=m)) for m in trainable_methods()]
    done = {job.config.method: job.result for job in queue.finished_runs(keys)}
    rows = comparison_rows({method: done.get(method) for method in trainable_methods()}, cfg.context_length)
    where = "this text" if text == chosen_text else "the last run's text (not the one chosen now)"
    left_out = [f.label for name, f in FAMILIES.items() if name not in trainable_methods()]
    missing = f" ({listing(left_out)}: not built into the tiny GPT)" if left_out else ""
    new = [named(f.label) for f in FAMILIES.values() if f.label in GLOSSARY and f.label not in said]
    if part != 1:  # presenting, the second slide keeps the table beside what its cells mean
        st.caption(
            ("The methods: " + "; ".join(new) + ". " if new else "")
            + f"Each method the tiny GPT can train{missing}, trained on {where}: "
            f"{settings_label(cfg, tuple(LABELS)[1:])}."
        )
    table(pd.DataFrame(rows), hide_index=True, one_line="methods")
    if part == 0:
        return
    drawn = None if presenting() else bool(done)  # presenting, the table is the section: no chart
    st.caption(past_length_caption(cfg.context_length, chart=drawn))  # joins the cells and the chart
    if drawn:
        position_loss_view(done, cfg.context_length)  # the same runs, position by position, to 2T
