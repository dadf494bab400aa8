# Two entry points, each doing its own set-up on a fresh machine with Python 3.11:
#   make run   starts the dashboard on the bundled sample histories, for this computer only
#              (make run HOST=0.0.0.0 shares it with the network, deliberately)
#   make test  runs the whole suite: lint, types, unit, property, corpus and browser tests
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PORT ?= 8501
HOST ?= 127.0.0.1

.PHONY: run test lint typecheck browser clean screenshots samples

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
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

test: $(STAMP) browser lint typecheck
	$(BIN)/pytest -n 2 -p no:cacheprovider

samples: $(STAMP)
	$(BIN)/python -m analysis.simulate sample_histories

screenshots: $(STAMP) browser
	DRAWLAB_README_SHOTS=1 $(BIN)/pytest -p no:cacheprovider -m browser

clean:
	rm -rf $(VENV)
