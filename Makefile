# Two commands from a fresh clone (Python 3.11+):
#   make demo   install, then train the tiny model on the built-in corpus for ~10 minutes (bf16 where the CPU has
#               bf16 instructions) and show it translating
#   make test   install, then run the test suite (slow tests: make test-slow)
#   make music  install, then train the chorale model for 5 minutes and write 2 samples to samples/
#   make digits install, then train a class-conditional digits model for 5 minutes and write a sample grid
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUN ?= runs/quickstart-$(shell date +%Y%m%d-%H%M%S)
MUSIC_RUN := runs/music-$(shell date +%Y%m%d-%H%M%S)
MUSIC_MINUTES ?= 5
DIGITS_RUN := runs/digits-$(shell date +%Y%m%d-%H%M%S)
DIGITS_MINUTES ?= 5

.PHONY: install browser compiler lint demo test test-slow music digits

$(BIN)/aiayn: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0   # first, so nothing pulls a CUDA build of a newer torch
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/aiayn

# --precision auto: bf16 where the CPU (or GPU) multiplies it natively, fp32 elsewhere; in the same time it makes
# 1.69x the updates of fp32 on a 2-core EPYC with AVX-512 BF16 (BENCHMARKS.md, bf16 section)
demo: install
	$(BIN)/aiayn train --max-time 10m --precision auto --out $(RUN)

# tests/serve/test_browser.py drives Chromium through Playwright and fails without it: Debian's package,
# installed here when running as root (CI), or AIAYN_CHROMIUM=/path/to/chromium.
browser:
	@[ -n "$$AIAYN_CHROMIUM" ] || [ -x /usr/bin/chromium ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	  else echo "the browser test needs Chromium: sudo apt-get install chromium, or set AIAYN_CHROMIUM=/path/to/chromium"; exit 1; fi; }

# torch.compile (--compile, tests/model/test_compiled.py) builds its kernels with a C++ compiler: Debian's g++,
# installed here when running as root (CI).
compiler:
	@command -v g++ >/dev/null || command -v c++ >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q g++; \
	  else echo "--compile and its tests need a C++ compiler: sudo apt-get install g++"; exit 1; fi; }

test: install browser compiler lint
	$(BIN)/python -m pytest

# pyflakes, bugbear and import order (pyproject.toml [tool.ruff])
lint: install
	$(BIN)/ruff check src tests benchmarks checks

test-slow: install
	$(BIN)/python -m pytest -m slow

music: install
	$(BIN)/aiayn train --task music --max-time $(MUSIC_MINUTES)m --out $(MUSIC_RUN)
	$(BIN)/aiayn generate --model $(MUSIC_RUN) --samples 2 --length 1024 --temperature 0.9 --out samples

digits: install
	$(BIN)/aiayn train --task digits --preset local-class --max-time $(DIGITS_MINUTES)m --out $(DIGITS_RUN)
	$(BIN)/aiayn evaluate --model $(DIGITS_RUN)
	$(BIN)/aiayn generate --model $(DIGITS_RUN) --samples 10 --out samples/digits.png
