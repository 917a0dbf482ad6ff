# Two commands from a fresh clone (Python 3.11+):
#   make demo   install, then train the tiny model on the built-in corpus for ~10 minutes and show it translating
#   make test   install, then run the test suite (slow tests: make test-slow)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUN ?= runs/quickstart-$(shell date +%Y%m%d-%H%M%S)

.PHONY: install demo test test-slow

$(BIN)/aiayn: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0   # first, so nothing pulls a CUDA build of a newer torch
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/aiayn

demo: install
	$(BIN)/aiayn train --max-time 10m --out $(RUN)

test: install
	$(BIN)/python -m pytest

test-slow: install
	$(BIN)/python -m pytest -m slow
