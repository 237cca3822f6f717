# boardeval — set up and run. Both targets build the virtual environment first.
#   make run   : set everything up, then serve the web app on http://127.0.0.1:8000
#   make test  : set everything up (incl. Debian's chromium for browser tests), then ruff, mypy, pytest
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000
# pytest workers: the suite is sized for 2 cores; every run lists its 25 slowest tests (where the time goes)
JOBS   ?= 2

.PHONY: setup run test lint typecheck pytest engine browser bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Byte-compile boardeval's own sources on every setup (incremental: only changed files). This environment
# sets PYTHONDONTWRITEBYTECODE=1, so Python never writes .pyc files itself and every `boardeval` call
# would compile the package from source; it still READS the .pyc written here (benchmarks/cli_startup.py).
setup: $(STAMP)
	@$(BIN)/python -m compileall -q src >/dev/null

run: setup
	$(BIN)/boardeval web --host 127.0.0.1 --port $(PORT)

# Browser tests use Debian's chromium (never a browser download): its headless build for the tests
# (chromium-headless-shell, a third less CPU than the full browser headless), the full one for the benchmarks
# that show pages to a person (first render, screenshots).
browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium chromium-headless-shell >/dev/null; \
	fi

lint: setup
	$(BIN)/ruff check src tests benchmarks

typecheck: setup
	$(BIN)/mypy

pytest: setup browser
	$(BIN)/pytest -n $(JOBS) --dist loadgroup --durations=25

# The compiled Morris search the tests use (.pytest_cache/morris-engine, ~20 CPU-s to build on a fresh
# clone) and numba's caches of the kernels many test processes use (~15 CPU-s once, instead of in several
# test processes at once): built beside mypy, which keeps only one core busy (tests/engine_cache.py)
engine: setup
	@$(BIN)/python -m tests.engine_cache

# after the tests: a notice (not a failure) when the shipped opening book is stale (tests/book_notice.py)
test: setup browser
	@$(MAKE) --no-print-directory -j2 lint typecheck engine
	@$(MAKE) --no-print-directory pytest
	@$(BIN)/python -m tests.book_notice

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
