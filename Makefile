# Every target runs inside .venv; `make setup` creates it (and installs Chromium if none exists).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup e2e test unit lint steps contracts lane clean

setup: $(STAMP)
	@ci/ensure-browser.sh

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@

## The PR lane (@core) against the embedded console.
e2e: setup
	$(BIN)/python -m support.lanes pr

## Everything CI gates on: unit tests, lint, the PR lane.
test: setup
	$(BIN)/pytest
	$(MAKE) --no-print-directory lint
	$(BIN)/python -m support.lanes pr

unit: setup
	$(BIN)/pytest

lint: setup
	$(BIN)/python -m support.lint features

## Any named lane: make lane LANE=post-merge
lane: setup
	$(BIN)/python -m support.lanes $(LANE)

steps: setup
	$(BIN)/behave --steps-catalog

## Regenerate the API models from the console's live /openapi.json.
contracts: setup
	$(BIN)/python -m support.api.generate

clean:
	rm -rf artifacts
