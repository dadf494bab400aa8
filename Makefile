# Two entry points, each doing its own set-up on a fresh machine with Python 3.11:
#   make run   starts the dashboard on the bundled sample histories, for this computer only
#              (make run HOST=0.0.0.0 shares it with the network, deliberately)
#   make test  runs the whole suite: lint, types, unit, property, corpus and browser tests
#   make check the quick loop while working: lint, types and the tests that are neither
#              browser nor slow ones, fewer Hypothesis examples, each test file on one
#              worker so a module's fixture is built once (docs/guide.md, the quick loop)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The modules where an import spends its time are compiled to C with mypyc into the
# virtualenv (compiled.py says which, why and how); DRAWLAB_PURE=1, or no C compiler, runs
# them as Python.  Until they are compiled again, a source of the packages changed since
# makes every one of them run as Python (a constant of another module may be compiled in).
SOURCES := $(shell find engine parser analysis -name '*.py') compiled.py
ifdef DRAWLAB_PURE
BUILT :=
else
BUILT := $(VENV)/.compiled-stamp
endif
# The test runs keep their bytecode in the virtualenv, out of the tree: pytest rewrites the
# asserts of every test module at each collection unless it may cache the result, which a
# shell with PYTHONDONTWRITEBYTECODE set forbids (docs/guide.md, the quick loop)
PYCACHE := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache
PORT ?= 8501
HOST ?= 127.0.0.1

.PHONY: run test check lint typecheck browser clean screenshots samples compiled pure

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(VENV)/.compiled-stamp: $(STAMP) $(SOURCES)
	@if $(BIN)/python compiled.py build > $(VENV)/mypyc.log 2>&1; then \
	  echo "compiled the modules of compiled.py with mypyc"; \
	else \
	  $(BIN)/python compiled.py clean; \
	  echo "mypyc could not compile (see $(VENV)/mypyc.log): DrawLab runs as Python, slower"; \
	fi
	touch $@

compiled: $(VENV)/.compiled-stamp

pure:
	$(BIN)/python compiled.py clean
	rm -f $(VENV)/.compiled-stamp

run: $(STAMP) $(BUILT)
	$(BIN)/drawlab app --port $(PORT) --host $(HOST)

browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP) $(BUILT) browser lint typecheck
	$(PYCACHE) $(BIN)/pytest -n 2 -p no:cacheprovider

check: $(STAMP) $(BUILT) lint typecheck
	$(PYCACHE) DRAWLAB_HYPOTHESIS=check $(BIN)/pytest -n 2 --dist loadfile -p no:cacheprovider \
	  -m 'not browser and not slow'

samples: $(STAMP)
	$(BIN)/python -m analysis.simulate sample_histories

screenshots: $(STAMP) $(BUILT) browser
	DRAWLAB_README_SHOTS=1 $(BIN)/pytest -p no:cacheprovider -m browser

clean:
	-$(BIN)/python compiled.py clean
	rm -rf $(VENV) build
