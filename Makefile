# Two entry points (see README): `make run` starts the app, `make test` runs every test.
# Both set up everything they need from nothing: a virtual environment, the pinned packages
# and, for the browser tests, Debian's chromium.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# --retries 0: requirements.txt names PyTorch's CPU index for Community Cloud; where that index is
# out of reach (as here, where pip takes torch 2.13.0 from the local wheel) pip moves on at once.
PIP := $(BIN)/pip install --retries 0 --disable-pip-version-check -q

.PHONY: run test setup setup-dev chromium lint bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

setup: $(BIN)/python
	$(PIP) -r requirements.txt

setup-dev: $(BIN)/python
	$(PIP) -r requirements-dev.txt

chromium:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

run: setup
	$(BIN)/python -m streamlit run streamlit_app.py

lint: setup-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: setup-dev chromium lint
	$(BIN)/python -m pytest

bench: setup-dev
	$(BIN)/python benchmarks/pipeline_bench.py
