"""Seeded resources, both sides of the seed's promise: what it promises, and the read-only checks a
scenario runs before it uses what was seeded.

The promise (`seed/` makes it true on a deployment; `seed` imports these, never the other way):
`specs` (read from `seed/data/*.toml`: stable names, models, datasets, agents, the voice clip),
`endpoints` (where the seeded provider and web search point), `drift` (how a resource differs from
its spec), `blocked` (a prerequisite the seed cannot meet), `profiles` (the seed tasks of each
profile, by name).

The checks, one module per resource (`models`, `knowledge`, `tools`, `agents`, `speech`, and
`runtime` for the agent backend, which is probed rather than seeded): each returns the resource,
judged "as seeded" by the same specs and drift checks the seed uses, or raises
`errors.SeededPrerequisiteError` with an owner and the `make seed` command that repairs it. The
fixture steps (`steps/seeded.py`) call them and keep what they return in `world.agent_builder.seeded`.

Belongs here: whatever the seed and the checks must agree on, and the checks. Does not belong
here: creating or repairing resources (`seed/tasks/`), scenario-owned state (`support/api_setup/`),
anything that skips a scenario instead of failing it, and anything that imports `seed`.
"""
