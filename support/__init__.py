"""The harness the steps stand on. Its top level is the table of contents:

- `hooks`: behave's lifecycle (environment.py only delegates here), calling the two below;
- `run/`: one behave run (serial, or a lane's worker): its start and finish, what it records of
  each scenario and its report row, the check after every step;
- `world`: the per-scenario World: its start and close, and the steps' typed state;
- `settings/`: every E2E_* variable, validated; `tags`: the tag grammar and the named lanes;
- `lanes/`: running and finishing a lane (`python -m support.lanes`), on a pool of workers;
- `stack`: starting, probing and stopping services;
- `browser/`: the browser and what works on any page (loading wait, origin guard, held
  requests, axe scans, failure evidence); `ui/`: page objects, one per page;
- `api/`: the product's API clients; `api_setup/`: scenario-owned state, set up through them;
- `seeded/`: seeded resources: what the seed promises and the read-only checks of it;
- `cleanup`, `naming`, `goldens`: cleanup queues, run-unique names, golden files;
- `step_helpers`: what step bodies share beyond page objects and API setup: `need(value, hint)`
  for what an earlier step gave, `data_table`/`doc_string` for the step's own arguments,
  `LONG_WAIT_MS` for waits on the product's slow work;
- `replay/`: the record/replay model server; `reports/`: the lane's reports;
- `lint/`: `make lint`'s checks and the step sentences as behave, the editor and `make steps` read them.

Belongs here: anything a step, the seed or CI needs that is not a sentence, lane orchestration
included (`lanes/`). Does not belong here: step definitions (`steps/`), creating or repairing
seeded resources (`seed/`), starting services around a lane in the order CI needs (`ci/`), the
product (`agent_builder/`). `support` imports none of those packages; they import it
(`tests/harness/test_import_direction.py`).
"""
