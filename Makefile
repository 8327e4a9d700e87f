# Every target runs inside .venv; `make setup` creates it (and installs Chromium if none exists).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup e2e test unit lint steps contracts lane seed post-merge record-cassettes clean

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

## Everything CI gates on: unit tests, lint, the PR lane, then the post-merge lane with the
## runtime (replayed models: no key, no network).
test: setup
	$(BIN)/pytest
	$(MAKE) --no-print-directory lint
	$(BIN)/python -m support.lanes pr
	E2E_START_AGENT_BACKEND=1 $(BIN)/python -m ci.post_merge

unit: setup
	$(BIN)/pytest

## Feature grammar, undefined steps, cassette drift; then the Python code style.
lint: setup
	$(BIN)/python -m support.lint features
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## Any named lane: make lane LANE=post-merge
lane: setup
	$(BIN)/python -m support.lanes $(LANE)

## Seed the deployment at E2E_BASE_URL (and E2E_REPLAY_URL); exits 3 if a task is blocked.
## make seed PROFILE=prepared|external-runtime|post-merge  [SEED_ARGS=--dry-run]  (seed/README.md)
PROFILE ?= post-merge
seed: setup
	$(BIN)/python -m seed --profile $(PROFILE) --strict $(SEED_ARGS)

## The post-merge lane end to end: start services, strict seed, behave, tear down (ci/post_merge.py).
## Extra behave arguments: make post-merge ARGS=features/agent/publish.feature
post-merge: setup
	$(BIN)/python -m ci.post_merge $(ARGS)

## Re-record the cassettes and goldens of @external-model/@external-tool scenarios against the
## reference model (no key needed). Extra behave arguments: make record-cassettes ARGS=-n\ "..."
record-cassettes: setup
	$(BIN)/python -m ci.record_cassettes $(ARGS)

steps: setup
	$(BIN)/behave --steps-catalog

## Regenerate the API models from the console's live /openapi.json.
contracts: setup
	$(BIN)/python -m support.api.generate

clean:
	rm -rf artifacts
