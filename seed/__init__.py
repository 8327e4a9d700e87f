"""The strict seed stage: `python -m seed --profile ...` (see README.md in this folder).

`__main__` is the CLI, `runner` runs a profile's tasks and reports, `registry` holds every task by
name and resolves each profile's task names to tasks, `tasks/` has one module per resource, `report` prints and writes
the outcome; `data/` holds what to seed.

Belongs here: creating, repairing and verifying environment-owned (`e2e-seed-...`) resources.
Does not belong here: what those resources must look like (specs, stable names, endpoints,
drift checks live in `support/seeded/`, beside the checks the fixture steps run) or anything a scenario
imports. Imports go one way: seed -> support, never the reverse.
"""
