# Every target runs inside .venv; `make setup` creates it (and installs Chromium and bubblewrap
# if they are missing).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup e2e test unit lint fuzz steps contracts lane seed post-merge record-cassettes durations \
	merge-reports mutants impact-map soak rerun clean deployed deploy-up deploy-down

# Lane options, passed through by e2e, lane and post-merge: make e2e WORKERS=2 SHARD=1/2 REPEAT=3 ORDER=random
# SINCE=<git ref> (e2e and lane a11y only): just the scenarios a change since that ref can affect.
WORKERS ?=
SHARD ?=
REPEAT ?=
ORDER ?=
SINCE ?=
LANE_OPTS = $(if $(WORKERS),--workers $(WORKERS)) $(if $(SHARD),--shard $(SHARD)) $(if $(REPEAT),--repeat $(REPEAT)) \
	$(if $(ORDER),--order $(ORDER)) $(if $(SINCE),--since $(SINCE))

setup: $(STAMP)
	@ci/ensure-browser.sh
	@ci/ensure-bubblewrap.sh
	@ci/ensure-caddy.sh

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@

## The PR lane (@core) against the embedded console (one per worker).
e2e: setup
	$(BIN)/python -m support.lanes pr $(LANE_OPTS) $(ARGS)

## Everything CI gates on: unit tests, the API fuzzer, lint, the PR lane, the a11y lane (axe-core
## scans), the post-merge lane with the runtime (replayed models: no key, no network), then 10
## mutants the commit hash chooses (each must be caught; `make mutants` runs the whole catalogue)
## and 3 generated ones (reported with their score: ARGS="--generated 100" for a figure).
test: setup
	$(BIN)/pytest -n auto
	$(MAKE) --no-print-directory fuzz
	$(MAKE) --no-print-directory lint
	$(BIN)/python -m support.lanes pr --workers auto --order random
	$(BIN)/python -m support.lanes a11y --workers auto
	E2E_START_AGENT_BACKEND=1 $(BIN)/python -m ci.post_merge --workers auto
	$(BIN)/python -m ci.deployed
	$(BIN)/python -m ci.mutants --sample 10 --generated 3

unit: setup
	$(BIN)/pytest

## Feature grammar, undefined steps, cassette drift; then the Python code style; then the CI
## workflows in .github/workflows/ (zizmor, offline).
lint: setup
	$(BIN)/python -m support.lint features
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/zizmor --offline .github/workflows/*.yml
	$(BIN)/mypy agent_builder deploy support steps seed ci benchmarks

## The console's API against its /openapi.json: Schemathesis, every check, fixed seed (ci/fuzz.py).
fuzz: setup
	$(BIN)/python -m ci.fuzz

## Any named lane: make lane LANE=full WORKERS=2
lane: setup
	$(BIN)/python -m support.lanes $(LANE) $(LANE_OPTS) $(ARGS)

## The PR and post-merge scenarios against a deployment of their own: three services behind Caddy
## over TLS (ci/deployed.py, docs/deploy.md). Against another deployment: make lane LANE=deployed
deployed: setup
	$(BIN)/python -m ci.deployed $(if $(SHARD),--shard $(SHARD)) $(if $(REPEAT),--repeat $(REPEAT)) $(ARGS)

## A deployment as an operator runs one (docs/deploy.md): make deploy-up [DEPLOY_DIR=...], make deploy-down
DEPLOY_DIR ?= artifacts/deployment
deploy-up: setup
	$(BIN)/python -m deploy up --dir $(DEPLOY_DIR)

deploy-down: setup
	$(BIN)/python -m deploy down --dir $(DEPLOY_DIR)

## Seed the deployment at E2E_BASE_URL (and E2E_REPLAY_URL); exits 3 if a task is blocked.
## make seed PROFILE=prepared|external-runtime|post-merge  [SEED_ARGS=--dry-run]  (seed/README.md)
PROFILE ?= post-merge
seed: setup
	$(BIN)/python -m seed --profile $(PROFILE) --strict $(SEED_ARGS)

## The post-merge lane end to end: start services, strict seed, behave, tear down (ci/post_merge.py).
## Extra behave arguments: make post-merge ARGS=features/agent/publish.feature
post-merge: setup
	$(BIN)/python -m ci.post_merge $(LANE_OPTS) $(ARGS)

## Re-record the cassettes and goldens of @external-model/@external-tool scenarios against the
## reference model (no key needed). Extra behave arguments: make record-cassettes ARGS=-n\ "..."
record-cassettes: setup
	$(BIN)/python -m ci.record_cassettes $(ARGS)

## Run exactly the scenarios the last lane failed, as that lane ran (workers, settings): the
## locations and options are in artifacts/rerun.txt; another lane's: make rerun RERUN=artifacts/pr/rerun.txt
RERUN ?=
rerun: setup
	$(BIN)/python -m ci.rerun $(RERUN)

## Rewrite ci/durations.json (longest-first scheduling, shards) from the last lanes' reports.
durations: setup
	$(BIN)/python -m support.lanes.schedule $(wildcard artifacts/pr/report.json artifacts/post-merge/report.json artifacts/a11y/report.json)

## One report from shards' lane folders: make merge-reports LANE=pr SHARDS="shards/pr-shard-*"
merge-reports: setup
	$(BIN)/python -m support.reports merge $(SHARDS) --out artifacts/$(LANE)

## Which scenarios run each product line (Python and the console's JavaScript): the PR, a11y and
## post-merge lanes on one worker each, measured, into ci/impact/map.json (ci/impact/).
impact-map: setup
	$(BIN)/python -m ci.impact $(ARGS)

## The mutation lane: every catalogued product bug must be caught (ci/mutants/, artifacts/mutants/).
## make mutants ARGS="--only saved-shown-while-saving"   |   ARGS="--sample 10"   |   ARGS="--generated 100"
mutants: setup
	$(BIN)/python -m ci.mutants $(if $(WORKERS),--workers $(WORKERS)) $(ARGS)

## A lane again and again under CPU throttling; fails on any red run or leftover process.
## make soak LANE=pr RUNS=10   (WORKERS=2, THROTTLE=4 by default)
RUNS ?= 10
THROTTLE ?= 4
soak: setup
	$(BIN)/python -m ci.soak $(LANE) --runs $(RUNS) --workers $(or $(WORKERS),2) --throttle $(THROTTLE) $(ARGS)

steps: setup
	$(BIN)/python -m support.lint.steps_catalog

## Regenerate the API models from the console's live /openapi.json.
contracts: setup
	$(BIN)/python -m support.api.generate

clean:
	rm -rf artifacts
