"""Thirty students at once, without browsers: Streamlit's own websocket protocol against one server.

    .venv/bin/python benchmarks/ws_load_test.py [--sessions 30] [--changes 3] [--timeout 300]

Like benchmarks/load_test.py, but each session is a websocket to ``/_stcore/stream`` that speaks
the browser's protobufs (BackMsg ``rerun_script`` out, ForwardMsg deltas in), so the 2 cores go
to the server instead of 30 Chromium pages. Session k opens the pipeline with ``?context=4+k%8``,
pastes its own text (``"session k marker zq{k}x " * 40``), then sets "Batch B" ``--changes``
times, sending each change as soon as the previous run finished (no think time: a worst case).
Session 0 opens the fresh server alone (the cold start); the others connect together once its
first run has finished. After every finished run (ForwardMsg ``script_finished``) it checks what
it was sent:

* the ``input_embeddings`` metric reads ``"B × T × 256"`` for this session's own B and T;
* isolation: the token chips (st.html, one ``<span class="chip">`` per token) joined back into
  text are a non-empty prefix of this session's own text, and every ``zq<digits>x`` in any text,
  markdown, code, heading, alert or html element (and in the joined chips, which always hold
  one, as the BPE splits the marker into several chips) is its own ``zq{k}x``. The marker's
  digits differ per session, so a chip or a line from another session's text cannot pass.

Errors: exception elements, error alerts, wrong shapes or text, disconnects, time-outs. Reports
the p50/p95/max time from sending a change to its ``script_finished``, the first runs (session 0's
cold start, the others'), wall time, the CPU time of the server and of this client, and the
server's peak RSS (VmHWM). Traffic goes to 127.0.0.1 only; the whole run is bounded by --timeout seconds.

Protocol notes (Streamlit 1.67, Starlette server): the first subprotocol entry ("streamlit") is
echoed, the second would be an XSRF token, needed only when an Origin header is sent (none is).
The server sends cached-message references (``ref_hash``) only for hashes the client lists in
``ClientState.cached_message_hashes``; this client lists none, so every element arrives whole.
Widget states are sent in full, as a browser does, though the server would keep omitted values.
"""

from __future__ import annotations

import argparse
import asyncio
import html
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
DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR}


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
    """One session without a browser: a websocket, the URL's query and the widget states it holds."""

    def __init__(self, ws, base: str, query: dict[str, object]) -> None:
        self.ws, self.base, self.query = ws, base, query
        self.states: dict[str, WidgetState] = {}  # widget id -> state, as the browser holds them
        self.labels: dict[str, tuple[str, str]] = {}  # label -> (widget id, bound query key)

    def set(self, label: str, value: object) -> None:
        wid, query_key = self.labels.get(label, ("", ""))
        if wid not in self.states:
            raise LookupError(f"the last run showed no widget {label!r}")
        state = self.states[wid]
        setattr(state, state.WhichOneof("value"), value)
        if query_key:  # a bound widget writes its value into the address bar
            self.query[query_key] = value

    async def rerun(self) -> list[tuple[str, object]]:
        """Send every widget state; return this run's elements as (kind, proto) once it finished."""
        msg = BackMsg()
        query = "&".join(f"{k}={v}" for k, v in self.query.items())
        msg.rerun_script.query_string = query
        msg.rerun_script.page_script_hash = ""  # the main page
        states = [s for s in self.states.values() if s.WhichOneof("value")]  # e.g. no default: no value
        msg.rerun_script.widget_states.widgets.extend(states)
        msg.rerun_script.context_info.url = f"{self.base}/?{query}"
        await self.ws.send(msg.SerializeToString())
        elements: list[tuple[str, object]] = []
        while True:
            fwd = ForwardMsg.FromString(await self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "new_session":  # a run starts (again, after an early rerun)
                elements.clear()
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                el = fwd.delta.new_element
                elements.append((el.WhichOneof("type"), getattr(el, el.WhichOneof("type"))))
            elif kind == "script_finished" and fwd.script_finished in DONE:
                break
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
        self.states = states


def chip_text(elements) -> str:
    """The text the token chips show, joined back (the chips draw spaces as · and newlines as ↵)."""
    chips = next((el.body for kind, el in elements if kind == "html" and 'class="chips"' in el.body), "")
    return "".join(html.unescape(p).replace("·", " ").replace("↵", "\n") for p in CHIP.findall(chips))


def check(elements, k: int, shape: str, text: str | None) -> list[str]:
    """What is wrong with a finished run of session k: errors shown, the shape, someone else's text."""
    problems = [f"exception {el.type}: {el.message[:80]}" for kind, el in elements if kind == "exception"]
    problems += [
        f"error: {el.body[:80]}" for kind, el in elements if kind == "alert" and el.format == Alert.ERROR
    ]
    shown = [el.body for kind, el in elements if kind == "metric" and "input_embeddings" in el.label]
    if shown != [shape]:
        problems.append(f"input_embeddings shows {shown}, expected {shape!r}")
    if text is None:
        return problems
    joined = chip_text(elements)
    if not joined or not text.startswith(joined):
        problems.append(f"the token chips do not show this session's text: {joined[:60]!r}")
    texts = [joined] + [getattr(el, TEXTS[kind]) for kind, el in elements if kind in TEXTS]
    others = {m for t in texts for m in MARKER.findall(t)} - {str(k)}
    if others:
        problems.append(f"shows the text of session(s) {sorted(others)}")
    return problems


def note(result: dict, where: str, problems: list[str]) -> None:
    result["errors"] += [f"{where}: {p}" for p in problems]


async def session(base: str, k: int, changes: int, result: dict) -> None:
    """Open the pipeline with this session's context, paste its own text, change the batch size."""
    context, text = 4 + k % 8, f"session {k} marker zq{k}x " * 40
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    if k:  # session 0 has the fresh server to itself until its first run finished
        await result["warm"].wait()
    async with connect(url, subprotocols=["streamlit"], max_size=None) as ws:
        client = Client(ws, base, {"context": context})
        t = time.perf_counter()
        elements = await client.rerun()
        result["first"][k] = time.perf_counter() - t
        result["warm"].set()
        note(result, f"session {k}, first run", check(elements, k, f"8 × {context} × 256", None))
        client.set("Text", "Paste")
        await client.rerun()
        client.set("Paste text", text)
        elements = await client.rerun()
        note(result, f"session {k}, pasted", check(elements, k, f"8 × {context} × 256", text))
        for c in range(changes):
            batch = 2 + (k + c) % 6
            client.set("Batch B", batch)
            t = time.perf_counter()
            elements = await client.rerun()
            result["times"].append(time.perf_counter() - t)
            shape = f"{batch} × {context} × 256"
            note(result, f"session {k}, batch {batch}", check(elements, k, shape, text))


async def bounded(base: str, k: int, changes: int, timeout: float, result: dict) -> None:
    try:
        await asyncio.wait_for(session(base, k, changes, result), timeout)
    except TimeoutError:
        result["errors"].append(f"session {k}: timed out after {timeout:.0f} s")
    except Exception as exc:  # a disconnect or a protocol surprise: counted, the others go on
        result["errors"].append(f"session {k}: {type(exc).__name__}: {str(exc)[:120]}")
    finally:
        result["warm"].set()  # also when session 0 failed: the others still run


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[max(0, int(round(0.95 * len(values))) - 1)]


async def run(sessions: int, changes: int, timeout: float) -> None:
    result: dict = {"first": {}, "times": [], "errors": [], "warm": asyncio.Event()}
    with running_server() as base:
        import psutil  # the server process is the only child listening on the port

        server = max(psutil.Process().children(recursive=True), key=lambda p: p.memory_info().rss)
        start, cpu, server_cpu = time.perf_counter(), time.process_time(), sum(server.cpu_times()[:2])
        await asyncio.gather(*(bounded(base, k, changes, timeout, result) for k in range(sessions)))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        server_cpu = sum(server.cpu_times()[:2]) - server_cpu
        status = Path(f"/proc/{server.pid}/status").read_text()
        hwm = next(line for line in status.splitlines() if line.startswith("VmHWM"))
    times, first, errors = result["times"], result["first"], result["errors"]
    print(f"{sessions} websocket sessions × {changes} changes on one server, {wall:.1f} s in all")
    print(f"errors: {len(errors)}")
    for e in errors:
        print("  " + e)
    if times:
        print(
            f"control change -> finished rerun: p50 {statistics.median(times):.2f} s, "
            f"p95 {p95(times):.2f} s, max {max(times):.2f} s over {len(times)} changes"
        )
    others = [v for k, v in first.items() if k]
    print(
        f"first finished run: session 0 {first.get(0, float('nan')):.2f} s (fresh server, alone)"
        + (
            f"; the others, all at once: p50 {statistics.median(others):.2f} s, max {max(others):.2f} s"
            if others
            else ""
        )
    )
    print(f"CPU time: server {server_cpu:.1f} s ({server_cpu / wall:.2f} cores), this client {cpu:.1f} s")
    print(f"server peak RSS: {int(hwm.split()[1]) / 1024:.0f} MB (goal <= 690 MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--changes", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    asyncio.run(run(args.sessions, args.changes, args.timeout))


if __name__ == "__main__":
    main()
