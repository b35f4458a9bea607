"""Rerun cost of the app vs the lesson's code, and the server's peak memory.

    .venv/bin/python benchmarks/pipeline_bench.py [--reruns 15] [--no-browser]

Prints, for the book's setting and the GPT-3 setting:
* book code: the lesson's code recomputed from the text (data loader, both nn.Embedding
  layers, lookup, add), median of a few runs, in a fresh process (with its peak RSS);
* app rerun: the whole pipeline page (charts included) rerun by Streamlit's AppTest after the
  context length or batch size changes, median over --reruns;
* ratio of the two, against the goals (<= 1x at the book's setting, <= 0.05x at GPT-3);
* vocab: the time to build GPT-2's BPE cut to a new V, and the page's rerun after V changes to a
  size not seen before (a new tokenizer, new token IDs, the trade-off charts), against the book code;
* server peak RSS: a real `streamlit run` rendering the page in headless Chromium (VmHWM).
The text is the app's own long sample ("log", ~3,500 tokens), so no corpus is needed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETTINGS = {
    "book": {"vocab": 50257, "dim": 256, "context": 4, "batch": 8, "stride": 4},
    "gpt3": {"vocab": 50257, "dim": 12288, "context": 2048, "batch": 8, "stride": 4},
}

BOOK_CODE = r"""
import json, resource, statistics, sys, time
import torch
sys.path.insert(0, {root!r})
from core.text.data import create_dataloader
from core.text.samples import SAMPLES
from core.text.tokenizer import gpt2_tokenizer
s = {s}
raw_text = SAMPLES["log"]
gpt2_tokenizer()  # tiktoken caches its encoding too; time the computation, not the file read
times = []
for _ in range({repeats}):
    t = time.perf_counter()
    torch.manual_seed(123)
    dataloader = create_dataloader(raw_text, batch_size=s["batch"], max_length=s["context"],
                                   stride=s["stride"], shuffle=False)
    inputs, targets = next(iter(dataloader))
    token_embedding_layer = torch.nn.Embedding(s["vocab"], s["dim"])
    token_embeddings = token_embedding_layer(inputs)
    pos_embedding_layer = torch.nn.Embedding(s["context"], s["dim"])
    pos_embeddings = pos_embedding_layer(torch.arange(s["context"]))
    input_embeddings = token_embeddings + pos_embeddings
    times.append(time.perf_counter() - t)
    del token_embedding_layer, token_embeddings, pos_embedding_layer, pos_embeddings, input_embeddings
print(json.dumps({{"median_s": statistics.median(times),
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def book_code(setting: dict, repeats: int) -> dict:
    """The lesson's code in a fresh process: median seconds and peak RSS (MB)."""
    code = BOOK_CODE.format(root=str(ROOT), s=setting, repeats=repeats)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def app_rerun(setting: dict, reruns: int) -> float:
    """Median seconds of a full page rerun after the context length or batch size changes."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app_script.py"), default_timeout=300)
    for key, value in setting.items():
        at.query_params[key] = str(value)
    at.query_params["sample"] = "log"
    at.run()
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    ctx, batch = setting["context"], setting["batch"]
    changes = [("context", ctx - 1), ("context", ctx), ("batch", batch - 1), ("batch", batch)]
    times = []
    for k in range(reruns):
        key, value = changes[k % len(changes)]
        at.sidebar.number_input(key=key).set_value(value)
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
        assert not at.exception and not at.error
    return statistics.median(times)


def tokenizer_build(sizes: tuple[int, ...]) -> float:
    """Median seconds to build GPT-2's BPE cut to each size (GPT-2's ranks already loaded)."""
    from core.text.tokenizer import cut_encoding, gpt2_tokenizer

    gpt2_tokenizer()
    times = []
    for size in sizes:
        t = time.perf_counter()
        cut_encoding(size)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def vocab_rerun(reruns: int) -> float:
    """Median seconds of a full page rerun after V changes to a size the server has not built yet."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app_script.py"), default_timeout=300)
    at.query_params["sample"] = "log"
    at.run()
    times = []
    for k in range(reruns):
        at.sidebar.number_input(key="vocab").set_value(1000 + 2731 * k)  # a new size each time
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
        assert not at.exception and not at.error, [e.value for e in at.error]
    return statistics.median(times)


def server_peak_rss(path: str) -> float | None:
    """Peak RSS (MB) of a fresh `streamlit run` after Chromium renders ``path`` (e.g. ``/?dim=64``)."""
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, start_server, wait_for_app

    if not Path(CHROMIUM).exists():
        return None
    from playwright.sync_api import sync_playwright

    proc, base = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(base + path)
            wait_for_app(page, timeout=300_000)
            assert page.get_by_test_id("stException").count() == 0
            browser.close()
        status = Path(f"/proc/{proc.pid}/status").read_text()
        hwm = next(line for line in status.splitlines() if line.startswith("VmHWM"))
        return int(hwm.split()[1]) / 1024
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=15)
    parser.add_argument("--no-browser", action="store_true", help="skip the server RSS measurement")
    args = parser.parse_args()
    goals = {"book": 1.0, "gpt3": 0.05}
    book = book_code(SETTINGS["book"], repeats=5)
    build = tokenizer_build((500, 1000, 4000, 16000, 32000, 45000))
    rerun = vocab_rerun(args.reruns)
    print("[vocab] book setting, V changed to a new size each rerun (1,000 … 39,000)")
    print(f"  tokenizer build         {build * 1000:9.1f} ms   (median over V 500 … 45,000)")
    print(
        f"  app rerun (AppTest)     {rerun * 1000:9.1f} ms   ratio {rerun / book['median_s']:.3f}x "
        f"(goal <= 1x: {'met' if rerun <= book['median_s'] else 'NOT met'})"
    )
    for name, setting in SETTINGS.items():
        book = book_code(setting, repeats=5 if name == "book" else 2)
        rerun = app_rerun(setting, args.reruns)
        ratio = rerun / book["median_s"]
        query = "&".join(f"{k}={v}" for k, v in setting.items()) + "&sample=log"
        rss = None if args.no_browser else server_peak_rss("/?" + query)
        print(f"[{name}] {setting}")
        print(
            f"  book code recompute     {book['median_s'] * 1000:9.1f} ms   "
            f"peak RSS {book['peak_rss_mb']:7.0f} MB"
        )
        print(
            f"  app rerun (AppTest)     {rerun * 1000:9.1f} ms   ratio {ratio:.3f}x "
            f"(goal <= {goals[name]}x: {'met' if ratio <= goals[name] else 'NOT met'})"
        )
        if rss is not None:
            print(
                f"  server peak RSS         {rss:9.0f} MB   "
                f"(goal <= 690 MB: {'met' if rss <= 690 else 'NOT met'})"
            )


if __name__ == "__main__":
    main()
