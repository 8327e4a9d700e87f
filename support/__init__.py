"""The harness the steps stand on: settings, behave's lifecycle (`hooks`), the per-scenario
`world`, the browser, the services the suite starts (`stack`), cleanup, reports, lanes and tags,
the feature linter, and these packages: `ui` (page objects), `api` (API clients), `api_setup`
(scenario-owned state), `fixtures` (checks of seeded resources), `seeded` (what the seed
promises), `replay` (the record/replay model server), `reports`.

Belongs here: anything a step, the seed or CI needs that is not a sentence. Does not belong here:
step definitions (`steps/`), creating or repairing seeded resources (`seed/`), lane orchestration
(`ci/`), the product (`agent_builder/`). `support` imports none of those packages; they import
it (`tests/harness/test_import_direction.py`).
"""
