"""The server's budget, in one place: memory for the whole app and the time one training run may take.

Streamlit Community Cloud's smallest tier gives the whole app 690 MB, shared by every session (a
class of thirty opens the same URL). The limits that pages and caches enforce derive from here.
"""

from __future__ import annotations

SERVER_BYTES = 690 * 10**6  # the whole app: Community Cloud's smallest tier
IDLE_BYTES = 440 * 10**6  # a warmed-up server with every page loaded once (measured, benchmarks/)
HEADROOM_BYTES = SERVER_BYTES - IDLE_BYTES  # what requests, caches and a training run share
TRAIN_BYTES = HEADROOM_BYTES * 2 // 5  # one training run's activations, logits and gradients at most
CACHE_BYTES = HEADROOM_BYTES // 5  # all of one cache's entries together
REQUEST_BYTES = HEADROOM_BYTES * 2 // 5  # the working set of one page run

RUN_SECONDS = 60  # the longest training run the shared queue accepts, on this kind of machine (1 core)
