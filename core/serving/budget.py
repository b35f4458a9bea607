"""The server's budget, in one place: memory for the whole app and the time one training run may take.

Streamlit Community Cloud's smallest tier gives the whole app 690 MB, shared by every session (a
class of thirty opens the same URL), and restarts it when it goes over. The limits that pages, caches,
texts and the memory governor (``core.serving.memory_governor``) enforce derive from here:

    690 MB = warm server (440) + shared cache (30) + chart caches (20) + thirty sessions with their
             texts (60) + heavy steps in flight, reserved from the governor (125) + what no model
             counts (15)
"""

from __future__ import annotations

SERVER_BYTES = 690 * 10**6  # the whole app: Community Cloud's smallest tier
IDLE_BYTES = 440 * 10**6  # a warmed-up server with every page loaded once (measured, benchmarks/)
HEADROOM_BYTES = SERVER_BYTES - IDLE_BYTES  # what requests, caches, sessions and a training run share
CACHE_BYTES = (
    30 * 10**6
)  # the shared cache's entries together (ui.server.cache.SHARED: token lists, batches, rows)
# The chart caches, which count entries (ui.server.cache.per_process): ui.families.compare keeps 15
# similarity views (one heatmap of 4,096 cells and its spec each, < 0.5 MB) and 56 logit panels (70 kB
# each), ui.pipeline.vocab_view 8 vocab views (0.35 MB each), the trained table's a few; and
# ui.server.cache.TEMPLATES 64 chart templates (30–60 kB each).
CHART_CACHE_BYTES = 20 * 10**6
REQUEST_BYTES = HEADROOM_BYTES * 2 // 5  # the working set of one page run

CLASS_SESSIONS = 30  # students on one server at the same time
SESSION_BYTES = 2 * 10**6  # what one session keeps between its runs: its widgets and its texts
SESSION_STATE_BYTES = 500_000  # of which its widgets and state besides the text (measured: < 0.5 MB)
TEXT_BYTES = SESSION_BYTES - SESSION_STATE_BYTES  # what one session's text may keep (1.5 MB)
SLACK_BYTES = 15 * 10**6  # what no model counts: allocator pages, message and socket buffers
GOVERNED_BYTES = (  # the memory governor's budget: heavy steps in flight, all sessions together
    HEADROOM_BYTES - CACHE_BYTES - CHART_CACHE_BYTES - CLASS_SESSIONS * SESSION_BYTES - SLACK_BYTES
)
# One training run's predicted peak (core.training.training.estimated_bytes) at most: what the governor can
# reserve for it, so that a run the page accepts is never refused as too big when it reserves (page steps
# wait for it, a run taking at most RUN_SECONDS).
TRAIN_BYTES = GOVERNED_BYTES

# What the server keeps of a text while a session uses it (Streamlit 1.67, measured with
# benchmarks/memory_bench.py): a pasted text's UTF-8 four times in protocol buffers (the browser's
# message, the rerun's widget states, the session's client state, the widget's serialized value),
# plus the Python string: 1, 2 or 4 bytes a character (4 for all of it once one emoji is in) and its
# UTF-8 again once it has been encoded. An uploaded file's bytes are kept once instead of the copies.
PASTE_COPIES = 4
WORST_HELD_PER_CHAR = PASTE_COPIES * 3 + 4 + 3  # a CJK character beside an emoji (19 bytes)
WORST_HELD_PER_BYTE = PASTE_COPIES + 4 + 1  # an ASCII character beside an emoji (9 bytes a UTF-8 byte)
MAX_TEXT_CHARS = TEXT_BYTES // WORST_HELD_PER_CHAR // 1000 * 1000  # what the text box takes (78,000)
# Every text, pasted or uploaded: its UTF-8 bytes, which are its tokens at the smallest vocabulary
# (V = 257, bytes only). 166,000 bytes: ASCII characters, or 55,000 CJK characters, or 41,500 emoji.
MAX_TEXT_BYTES = TEXT_BYTES // WORST_HELD_PER_BYTE // 1000 * 1000

# A heavy step starts only while the server's resident size plus its bytes stays below this: the last
# 80 MB are for what concurrent page runs hold beside their reserved steps — the token lists and
# batches a run keeps once its step is done: with a guard closer to SERVER_BYTES, thirty sessions at
# the Pipeline's heaviest went over it (docs/measurements.md).
RESIDENT_GUARD_BYTES = SERVER_BYTES - 80 * 10**6
FULL_WAIT_SECONDS = 45  # with nothing reserved, a step waits this long for the resident size to drop

RUN_SECONDS = 60  # the longest training run the shared queue accepts, on this kind of machine (1 core)
MAX_WAIT_SECONDS = 90  # a heavy step waits this long for memory at most (a training run takes ≤ 60 s)
