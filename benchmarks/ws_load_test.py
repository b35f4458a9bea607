"""Thirty students at once, without browsers: Streamlit's own websocket protocol against one server.

    .venv/bin/python benchmarks/ws_load_test.py [--sessions 30] [--changes 3] [--timeout 300]
    .venv/bin/python benchmarks/ws_load_test.py --think 5 10 --duration 60 --pages all [--seed 0] [--train]

Like benchmarks/load_test.py, but each session is a websocket to ``/_stcore/stream`` that speaks
the browser's protobufs (BackMsg ``rerun_script`` out, ForwardMsg deltas in), so the 2 cores go
to the server instead of 30 Chromium pages. Session k opens its page (``--pages Pipeline``, the
default: every session on the Pipeline; ``--pages Attention``: every session on that page, as a class
that opens the teacher's one link; ``--pages all``: session k on the lesson's page k mod 7; or a comma
list of URL paths) with ``?context=4+k%8`` (``--contexts N``: ``4+k%N``; 1 for a class that opens one
shared link), pastes its own text (``"session k marker zq{k}x " * 40``)
and then sets "Batch B" (``--change batch``, the default), or a seed no session used before
(``--change seed``: the token table is drawn again), or pastes a new text of its own (``--change
text``: ``"session k marker zq{k}x draft c " * 40``):

* no think time (the default): ``--changes`` times, each as soon as the previous run finished
  (a worst case);
* ``--think MIN MAX --duration S``: once every session has opened its page and pasted its text,
  each session waits a random MIN–MAX seconds (its own ``random.Random``, seeded by ``--seed`` and
  k), makes its change, waits for the finished run, and so on until S seconds have passed (a
  classroom: people read between clicks).

Session 0 opens the fresh server alone (the cold start); the others connect together once its
first run has finished. ``--burst``: every session opens the fresh server at once, as soon as it
answers, at its own page's link (a cold start for a class that opens the link together), and the report
gives the first runs' p50/p95, and the same counted from the
server process's start (its warm-up before it answers included: ``ui/server/warm_up.py``).

After every finished run (ForwardMsg ``script_finished``) it checks what it was sent:

* on every page: no exception element, no error alert, and every ``zq<digits>x`` in any text,
  markdown, code, heading, alert or html element is its own ``zq{k}x`` (isolation: the marker's
  digits differ per session, so a line from another session's text cannot pass);
* on the Pipeline, also: the ``input_embeddings`` metric reads ``"B × T × 256"`` for this session's
  own B and T, and the token chips (st.html, one ``<span class="chip">`` per token) joined back into
  text are a non-empty prefix of this session's own text (they always hold a marker, as the BPE
  splits it into several chips).

``--train``: one more session opens the Training page with its default settings once session 0's
first run has finished, presses Train (``--train-steps`` to ask for more steps than the page's
default) and watches the run as a browser does: the page's progress fragment asks for an automatic
rerun every 0.5 s (ForwardMsg ``auto_rerun``) and this session sends it (``rerun_script`` with its
``fragment_id``), reading "Training: step k of N" from the progress bar. The load starts once the
run is training; the report says how many steps it made during the load, and when it finished.

Errors: exception elements, error alerts, wrong shapes or text, disconnects, time-outs. Reports
the p50/p95/max time from sending a change to its ``script_finished`` (also per page), the first
runs (session 0's cold start, the others'), wall time, the CPU time of the server (over the whole
run and over the load) and of this client, and the server's peak RSS (VmHWM). Traffic goes to
127.0.0.1 only; the whole run is bounded by --timeout seconds per session.

Protocol notes (Streamlit 1.67, Starlette server): the first subprotocol entry ("streamlit") is
echoed, the second would be an XSRF token, needed only when an Origin header is sent (none is).
The server sends cached-message references (``ref_hash``) only for hashes the client lists in
``ClientState.cached_message_hashes``; this client lists none, so every element arrives whole.
Widget states are sent in full, as a browser does, though the server would keep omitted values.
A page is asked for by its URL path (``rerun_script.page_name``), as a browser's first request
does, then by the script hash the server sent (``navigation.page_script_hash``), as a browser's
later requests do; the first run on a fresh server is the main page's (the entry point draws the
sidebar; see ui/navigation.py).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import itertools
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.proto.Alert_pb2 import Alert  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.NumberInput_pb2 import NumberInput  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from tests.e2e.conftest import running_server  # noqa: E402
from ui.navigation import ROUTE  # noqa: E402

# The lesson's pages by URL path (ui/navigation.py); "" is the main page, Start, where a fresh server's
# first run goes.
PAGES = [stop.url for stop in ROUTE]
PIPELINE = "Pipeline"  # the page whose shape and token chips each run is checked against
WIDGETS = ("number_input", "radio", "selectbox", "text_area", "checkbox")
# Elements that show text, and the field that holds it.
TEXTS = {
    "markdown": "body",
    "text": "body",
    "html": "body",
    "heading": "body",
    "alert": "body",
    "code": "code_text",
}
MARKER = re.compile(r"zq(\d+)x")
CHIP = re.compile(r'<span class="chip [^"]*">(.*?)<sub>\d+</sub></span>', re.S)
PILL = re.compile(r" :small\[\d+\]$")  # a pill's label ends with its token's ID
ESCAPED = re.compile(r"\\(.)")  # a pill's label is Markdown, its special characters escaped
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060"))  # zero-width marks that tell pills apart
STEP = re.compile(r"step (\d+) of (\d+)")
DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR}
FRAGMENT_DONE = DONE | {ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


def first_state(kind: str, el) -> WidgetState:
    """The value a browser's widget starts with: the server's value, else the element's default."""
    state = WidgetState(id=el.id)
    if kind == "number_input":
        v = el.value if el.HasField("value") else el.default
        if el.data_type == NumberInput.INT:
            state.int_value = int(v)
        else:
            state.double_value = v
    elif kind in ("radio", "selectbox"):
        if el.HasField("raw_value") or el.HasField("default"):
            state.string_value = el.raw_value if el.HasField("raw_value") else el.options[el.default]
    elif kind == "text_area":
        state.string_value = el.value if el.HasField("value") else el.default
    else:
        state.bool_value = el.value if el.set_value else el.default
    return state


class Client:
    """One session without a browser: a websocket, its page, the URL's query and the widget states."""

    def __init__(self, ws, base: str, query: dict[str, object], page: str = "") -> None:
        self.ws, self.base, self.query, self.page = ws, base, query, page
        self.states: dict[str, WidgetState] = {}  # widget id -> state, as the browser holds them
        self.labels: dict[str, tuple[str, str]] = {}  # label -> (widget id, bound query key)
        self.buttons: dict[str, str] = {}  # button label -> widget id
        self.pressed: list[str] = []  # button ids to send as triggered with the next rerun only
        self.auto_rerun: tuple[float, str] | None = None  # (interval s, fragment id) the server asked for
        self.page_hash = ""  # the page's script hash once the server said it (ForwardMsg navigation)

    def go(self, page: str) -> None:
        """Open another page (by its URL path) with the next run."""
        self.page, self.page_hash = page, ""

    def set(self, label: str, value: object) -> None:
        wid, query_key = self.labels.get(label, ("", ""))
        if wid not in self.states:
            raise LookupError(f"the last run showed no widget {label!r}")
        state = self.states[wid]
        setattr(state, state.WhichOneof("value"), value)
        if query_key:  # a bound widget writes its value into the address bar
            self.query[query_key] = value

    def press(self, label: str) -> None:
        """Click a button: the next rerun carries its trigger (a button is True for one run)."""
        if label not in self.buttons:
            raise LookupError(f"the last run showed no button {label!r}")
        self.pressed.append(self.buttons[label])

    async def send(self, fragment_id: str = "") -> None:
        """Ask for a run (of one fragment, if given) with every widget state, as a browser does."""
        msg = BackMsg()
        query = "&".join(f"{k}={v}" for k, v in self.query.items())
        msg.rerun_script.query_string = query
        # A browser names the page by its URL path first, then by the hash the server sent: a
        # fragment's st.rerun(scope="app") runs the page of that hash ("" would be the main page).
        msg.rerun_script.page_script_hash = self.page_hash
        msg.rerun_script.page_name = self.page
        states = [s for s in self.states.values() if s.WhichOneof("value")]  # e.g. no default: no value
        states += [WidgetState(id=wid, trigger_value=True) for wid in self.pressed]
        self.pressed = []
        msg.rerun_script.widget_states.widgets.extend(states)
        msg.rerun_script.context_info.url = f"{self.base}/{self.page}?{query}"
        if fragment_id:
            msg.rerun_script.fragment_id = fragment_id
            msg.rerun_script.is_auto_rerun = True
        await self.ws.send(msg.SerializeToString())

    async def receive(self, done: set, fragment: bool = False) -> list[tuple[str, object]]:
        """Read until a run finishes with a status in ``done``; that run's elements as (kind, proto).

        A full run forgets the automatic reruns of the last one (its fragments say them again); a
        fragment's run, which ``fragment`` says this is, keeps them, unless it asks for a full run.
        """
        elements: list[tuple[str, object]] = []
        while True:
            fwd = ForwardMsg.FromString(await self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "new_session":  # a run starts (again, after an early rerun)
                elements.clear()
                if not fragment:
                    self.auto_rerun = None
                fragment = False  # a second run after a fragment's is a full run
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                el = fwd.delta.new_element
                elements.append((el.WhichOneof("type"), getattr(el, el.WhichOneof("type"))))
            elif kind == "navigation":  # st.navigation says which page this run shows
                self.page_hash = fwd.navigation.page_script_hash
            elif kind == "auto_rerun":
                self.auto_rerun = (fwd.auto_rerun.interval, fwd.auto_rerun.fragment_id)
            elif kind == "stop_auto_rerun":
                self.auto_rerun = None
            elif kind == "script_finished" and fwd.script_finished in done:
                return elements

    async def rerun(self) -> list[tuple[str, object]]:
        """Send every widget state; return this run's elements as (kind, proto) once it finished."""
        await self.send()
        elements = await self.receive(DONE)
        self.remember_widgets(elements)
        return elements

    async def rerun_fragment(self, fragment_id: str) -> list[tuple[str, object]]:
        """An automatic fragment run (``st.fragment(run_every=...)``); it may end in a full run."""
        await self.send(fragment_id)
        elements = await self.receive(FRAGMENT_DONE, fragment=True)
        if any(kind in WIDGETS for kind, _ in elements):  # the fragment asked for a full run
            self.remember_widgets(elements)
        return elements

    def remember_widgets(self, elements: list[tuple[str, object]]) -> None:
        """Keep the states of this run's widgets (new ones, or ones the server set); forget the rest."""
        states = {}
        for kind, el in elements:
            if kind in WIDGETS:
                known = el.id in self.states and not el.set_value
                states[el.id] = self.states[el.id] if known else first_state(kind, el)
                self.labels[el.label] = (el.id, el.query_param_key)
            elif kind == "button":
                self.buttons[el.label] = el.id
        self.states = states


async def open_page(base: str, page: str = "") -> list:
    """One new session opens ``page`` (the main page by default), waits for its finished run and leaves;
    the elements it was sent. A fresh server's first run is the main page's (see the docstring)."""
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    async with connect(url, subprotocols=["streamlit"], max_size=None) as ws:
        return await Client(ws, base, {}, page).rerun()


def chip_text(elements) -> str:
    """The text the token chips show, joined back (the chips draw spaces as · and newlines as ↵): the
    pills to pick a token from (ui.token_chips.chip_label), else the chips drawn as a picture."""
    pills = next((el for kind, el in elements if kind == "button_group"), None)
    if pills is not None:
        labels = [PILL.sub("", o.content.translate(INVISIBLE)).lstrip() for o in pills.options]
        pieces = [ESCAPED.sub(r"\1", label) for label in labels]
    else:
        chips = next((el.body for kind, el in elements if kind == "html" and 'class="chips"' in el.body), "")
        pieces = [html.unescape(p) for p in CHIP.findall(chips)]
    return "".join(p.replace("·", " ").replace("↵", "\n") for p in pieces)


def shown_errors(elements) -> list[str]:
    """Exceptions and error alerts among a run's elements."""
    problems = [f"exception {el.type}: {el.message[:80]}" for kind, el in elements if kind == "exception"]
    return problems + [
        f"error: {el.body[:80]}" for kind, el in elements if kind == "alert" and el.format == Alert.ERROR
    ]


def check(elements, k: int, shape: str | None, text: str | None) -> list[str]:
    """What is wrong with a finished run of session k: errors shown, the shape, someone else's text.

    ``shape`` and the token chips are checked on the pipeline only (``shape`` None elsewhere).
    """
    problems = shown_errors(elements)
    if shape is not None:
        shown = [el.body for kind, el in elements if kind == "metric" and "input_embeddings" in el.label]
        if not shown or set(shown) != {shape}:  # the page states it in each step that makes it
            problems.append(f"input_embeddings shows {shown}, expected {shape!r}")
    if text is None:
        return problems
    texts = [getattr(el, TEXTS[kind]) for kind, el in elements if kind in TEXTS]
    if shape is not None:
        joined = chip_text(elements)
        if not joined or not text.startswith(joined):
            problems.append(f"the token chips do not show this session's text: {joined[:60]!r}")
        texts.append(joined)
    others = {m for t in texts for m in MARKER.findall(t)} - {str(k)}
    if others:
        problems.append(f"shows the text of session(s) {sorted(others)}")
    return problems


def note(result: dict, where: str, problems: list[str]) -> None:
    result["errors"] += [f"{where}: {p}" for p in problems]


def start_load(result: dict) -> None:
    """The load starts now (once): note the time and the server's CPU time."""
    if "load_start" not in result:
        result["load_start"], result["load_cpu0"] = time.perf_counter(), cpu_seconds(result["proc"])


def cpu_seconds(proc) -> float:
    """User + system CPU time of a process, all its threads (psutil)."""
    times = proc.cpu_times()
    return times.user + times.system


def ready(result: dict, k: object) -> None:
    """Session k is set up (or failed): the load starts once every session is."""
    result["ready"].add(k)
    if len(result["ready"]) >= result["sessions"]:
        if result["think"]:
            start_load(result)
        result["go"].set()


async def session(base: str, k: int, page: str, args, result: dict) -> None:
    """Open this session's page with its context, paste its own text, change the batch size."""
    context, text = 4 + k % args.contexts, f"session {k} marker zq{k}x " * 40
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    name = page
    if k and not args.burst:  # session 0 has the fresh server to itself until its first run finished
        await result["warm"].wait()
    async with connect(url, subprotocols=["streamlit"], max_size=None) as ws:
        # The very first run of a fresh server is the main page's (see the docstring); bursting, the
        # warm-up has run it, and each session opens its own page's link.
        client = Client(ws, base, {"context": context}, page if k or args.burst else "")
        t = time.perf_counter()
        elements = await client.rerun()
        result["first"][k] = time.perf_counter() - t
        if not args.think:  # no think time: the load is everything after session 0's first run
            start_load(result)
        result["warm"].set()
        shape = f"8 × {context} × 256" if client.page == PIPELINE else None  # the pipeline shows the shape
        note(result, f"session {k}, first run", check(elements, k, shape, None))
        if client.page != page:  # session 0, from the main page: go to its page
            client.go(page)
            elements = await client.rerun()
            note(result, f"session {k}, {name}", check(elements, k, None, None))
        pipeline = page == PIPELINE
        client.set("Text", "Paste")
        await client.rerun()
        client.set("Paste text", text)
        elements = await client.rerun()
        note(
            result,
            f"session {k}, pasted",
            check(elements, k, f"8 × {context} × 256" if pipeline else None, text),
        )
        ready(result, k)
        rng = random.Random(args.seed * 100_003 + k)  # this session's think times
        if args.think:
            await result["go"].wait()
            end = result["load_start"] + args.duration
        for c in itertools.count():
            if args.think:
                pause = rng.uniform(*args.think)
                if time.perf_counter() + pause >= end:
                    break
                await asyncio.sleep(pause)
            elif c == args.changes:
                break
            batch = 8
            if args.change == "batch":
                batch = 2 + (k + c) % 6
                client.set("Batch B", batch)
                what = f"batch {batch}"
            elif args.change == "seed":  # a seed no session used before: the token table drawn again
                client.set("Seed", 1000 + 1000 * k + c)
                what = f"seed {1000 + 1000 * k + c}"
            else:  # a text no session used before: its windows, its tokens' rows
                text = f"session {k} marker zq{k}x draft {c} " * 40
                client.set("Paste text", text)
                what = f"text {c}"
            t = time.perf_counter()
            elements = await client.rerun()
            result["times"].setdefault(name, []).append(time.perf_counter() - t)
            shape = f"{batch} × {context} × 256" if pipeline else None
            note(result, f"session {k}, {name}, {what}", check(elements, k, shape, text))


async def bounded(base: str, k: int, page: str, args, result: dict) -> None:
    try:
        await asyncio.wait_for(session(base, k, page, args, result), args.timeout)
    except TimeoutError:
        result["errors"].append(f"session {k}: timed out after {args.timeout:.0f} s")
    except Exception as exc:  # a disconnect or a protocol surprise: counted, the others go on
        result["errors"].append(f"session {k}: {type(exc).__name__}: {str(exc)[:120]}")
    finally:
        result["warm"].set()  # also when session 0 failed: the others still run
        ready(result, k)  # also when it failed before it was set up: the others need not wait


def progress(elements) -> tuple[int, int] | None:
    """(k, N) from the progress bar's "Training: step k of N", if the run shows one."""
    for kind, el in elements:
        if kind == "progress" and (m := STEP.search(el.text)):
            return int(m[1]), int(m[2])
    return None


def finished_run(elements) -> bool:
    """The page shows a finished run's results (its "Validation loss" metric)."""
    return any(kind == "metric" and el.label == "Validation loss" for kind, el in elements)


async def trainer(base: str, args, result: dict) -> None:
    """One more session: press Train on the Training page and watch the run as a browser does."""
    train = result["train"]
    await result["warm"].wait()
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    query = {"steps": args.train_steps} if args.train_steps else {}
    async with connect(url, subprotocols=["streamlit"], max_size=None) as ws:
        client = Client(ws, base, query, "Training")
        elements = await client.rerun()
        note(result, "training session, first run", shown_errors(elements))
        client.press("Train")
        elements = await client.rerun()
        note(result, "training session, Train pressed", shown_errors(elements))
        train["pressed"] = time.perf_counter()
        ready(result, "train")
        while not result["stop"].is_set():
            if (step := progress(elements)) is not None:
                train["samples"].append((time.perf_counter(), *step))
            if finished_run(elements):
                train.setdefault("finished", time.perf_counter())
                break
            note(result, "training session", shown_errors(elements))
            if client.auto_rerun is None:
                raise RuntimeError("the Training page neither trains nor shows a finished run")
            interval, fragment_id = client.auto_rerun
            await asyncio.sleep(interval)  # a browser's timer: the interval after the last run ended
            t = time.perf_counter()
            elements = await client.rerun_fragment(fragment_id)
            train["fragment_times"].append(time.perf_counter() - t)
        await result["stop"].wait()  # a browser stays open until the load ends


async def bounded_trainer(base: str, args, result: dict) -> None:
    try:
        await asyncio.wait_for(trainer(base, args, result), args.timeout)
    except TimeoutError:
        result["errors"].append(f"training session: timed out after {args.timeout:.0f} s")
    except Exception as exc:
        result["errors"].append(f"training session: {type(exc).__name__}: {str(exc)[:120]}")
    finally:
        ready(result, "train")  # also when it failed before the load: the load still runs


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[max(0, int(round(0.95 * len(values))) - 1)]


def spread(values: list[float]) -> str:
    return f"p50 {statistics.median(values):.2f} s, p95 {p95(values):.2f} s, max {max(values):.2f} s"


def step_at(samples: list[tuple[float, int, int]], when: float) -> int:
    """The last step the page showed at ``when`` (0 before the first)."""
    return max((s for t, s, _ in samples if t <= when), default=0)


async def run(args) -> None:
    pages = parse_pages(args.pages)
    result: dict = {
        "first": {},
        "times": {},
        "errors": [],
        "warm": asyncio.Event(),
        "go": asyncio.Event(),
        "stop": asyncio.Event(),
        "ready": set(),
        "think": bool(args.think),
        "sessions": args.sessions + bool(args.train),
        "train": {"samples": [], "fragment_times": []},
    }
    launched = time.perf_counter()
    with running_server() as server:
        import psutil

        result["answered"] = time.perf_counter() - launched  # its start-up (the warm-up) included
        proc = psutil.Process(server.proc.pid)
        start, cpu, server_cpu = time.perf_counter(), time.process_time(), cpu_seconds(proc)
        result["proc"] = proc
        base = server.url
        train = asyncio.ensure_future(bounded_trainer(base, args, result)) if args.train else None
        await asyncio.gather(
            *(bounded(base, k, pages[k % len(pages)], args, result) for k in range(args.sessions))
        )
        result["stop"].set()
        load_end = time.perf_counter()
        load_cpu_end = cpu_seconds(proc)
        if train is not None:
            await train
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        server_cpu = cpu_seconds(proc) - server_cpu
        status = Path(f"/proc/{server.proc.pid}/status").read_text()
        hwm = next(line for line in status.splitlines() if line.startswith("VmHWM"))
    report(args, pages, result, wall, cpu, server_cpu, load_end, load_cpu_end, hwm)


def report(args, pages, result, wall, cpu, server_cpu, load_end, load_cpu_end, hwm) -> None:
    times, first, errors = result["times"], result["first"], result["errors"]
    every = [t for v in times.values() for t in v]
    names = ", ".join(dict.fromkeys(pages))
    if args.think:
        how = (
            f"a change every {args.think[0]:g}–{args.think[1]:g} s (seed {args.seed}) for {args.duration:g} s"
        )
    else:
        how = f"{args.changes} changes each, no think time"
    how = f"{args.change} changes: {how}" + (", opening the fresh server at once" if args.burst else "")
    print(f"{args.sessions} websocket sessions on one server ({names}), {how}; {wall:.1f} s in all")
    print(f"errors: {len(errors)}")
    for e in errors:
        print("  " + e)
    if every:
        print(f"control change -> finished rerun: {spread(every)} over {len(every)} changes")
        if len(times) > 1:
            for name, values in sorted(times.items(), key=lambda kv: PAGES.index(kv[0])):
                print(f"  {name:18s} {spread(values)} over {len(values)} changes")
    others = [v for k, v in first.items() if k]
    if args.burst:
        answered = result["answered"]
        print(
            f"the server answered {answered:.1f} s after it was started"
            " (its warm-up: ui/server/warm_up.py); then"
            f"\nfirst finished run, all {len(first)} opening the fresh server at once: "
            + spread(list(first.values()))
            + f"\n  counted from the server's start: {spread([answered + t for t in first.values()])}"
        )
    else:
        print(
            f"first finished run: session 0 {first.get(0, float('nan')):.2f} s (fresh server, alone)"
            + (f"; the others, all at once: {spread(others)}" if others else "")
        )
    print(f"CPU time: server {server_cpu:.1f} s ({server_cpu / wall:.2f} cores), this client {cpu:.1f} s")
    if "load_start" in result and "load_cpu0" in result:
        span = load_end - result["load_start"]
        used = load_cpu_end - result["load_cpu0"]
        print(f"  during the load ({span:.1f} s): server {used:.1f} s ({used / span:.2f} cores)")
    print(f"server peak RSS: {int(hwm.split()[1]) / 1024:.0f} MB (goal <= 690 MB)")
    if args.train:
        train = result["train"]
        samples = train["samples"]
        total = samples[-1][2] if samples else 0
        start, finished = result.get("load_start"), train.get("finished")
        if start is None or not samples:
            print("training run: the page showed no progress")
        elif finished is not None and finished <= start:
            print(f"training run: finished before the load started ({total} steps)")
        else:
            end = min(load_end, finished or load_end)  # while it trained during the load
            s0, s1 = step_at(samples, start), total if end < load_end else step_at(samples, end)
            print(
                f"training run: step {s0} of {total} when the load started, "
                + (f"step {s1} when it ended" if end == load_end else f"finished {end - start:.1f} s into it")
                + f": {s1 - s0} steps in {end - start:.1f} s ({(s1 - s0) / (end - start):.1f} steps/s)"
            )
        if fragments := train["fragment_times"]:
            print(f"  its progress fragment's automatic reruns: {spread(fragments)} over {len(fragments)}")
        if finished is not None:
            print(f"  shown finished {finished - train['pressed']:.1f} s after Train was pressed")


def parse_pages(spec: str) -> list[str]:
    """'all' (the lesson's pages), or a comma list of pages by URL path; an unknown one is refused."""
    pages = PAGES if spec == "all" else spec.split(",")
    if unknown := [p for p in pages if p not in PAGES]:
        raise SystemExit(f"no such page: {', '.join(unknown)} (the pages: {', '.join(PAGES)})")
    return pages


def class_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The class's options (sessions, their pages and changes, think time), for this benchmark and for
    every tool that runs its sessions (deploy/hall_load.py)."""
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--changes", type=int, default=3, help="changes per session without --think")
    parser.add_argument(
        "--think", type=float, nargs=2, metavar=("MIN", "MAX"), help="seconds between changes"
    )
    parser.add_argument("--duration", type=float, default=60, help="seconds of load with --think")
    parser.add_argument("--seed", type=int, default=0, help="seeds each session's think times")
    parser.add_argument("--pages", default=PIPELINE, help="'all', or a comma list of: " + ", ".join(PAGES))
    parser.add_argument(
        "--change", choices=("batch", "seed", "text"), default="batch", help="what each change sets"
    )
    parser.add_argument(
        "--contexts", type=int, default=8, help="distinct context lengths among the sessions (4 + k %% N)"
    )
    parser.add_argument("--timeout", type=float, default=300, help="seconds per session, at most")
    return parser


def main() -> None:
    parser = class_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument(
        "--burst", action="store_true", help="every session opens the fresh server at once (a cold start)"
    )
    parser.add_argument("--train", action="store_true", help="one more session trains during the load")
    parser.add_argument("--train-steps", type=int, help="Steps of that run (default: the page's)")
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
