"""What the seed stage promises: the seeded resources' specs, stable names, endpoints, drift checks
and profiles.

Both sides of that promise read it from here: `seed/` makes it true on a deployment, and the
fixture resolvers (`support/fixtures/`) check it before a scenario uses a seeded resource, so
"as seeded" means the same thing in both places. The specs are data, `seed/data/*.toml`.

Belongs here: whatever the seed and the fixture checks must agree on. Does not belong here:
creating or repairing resources (`seed/tasks/`), scenario-owned state (`support/api_setup/`),
and anything that imports `seed` (support never does).
"""
