"""CI's entry points, each a `python -m ci.<module>` that a make target runs:

- `post_merge` (`make post-merge`): one stack per worker (`stacks`: replay server, shellctl,
  runtime, console), the strict seed, the post-merge lane, teardown in reverse;
- `deployed` (`make deployed`): a deployment of its own (`python -m deploy`) behind TLS, the seed,
  the deployed lane, teardown; `lifecycle`: what it shares with `post_merge` (exit codes, signals
  turned into a teardown, stage timing);
- `record_cassettes` (`make record-cassettes`): the model-calling scenarios recorded again;
- `rerun` (`make rerun`): exactly the scenarios the last lane failed, as that lane ran;
- `soak` (`make soak`): a lane again and again under CPU throttling;
- `fuzz` (`make fuzz`): Schemathesis against a fresh console's /openapi.json;
- `mutants/` (`make mutants`): the mutation lane, its catalogue in `mutants/catalogue/*.toml`,
  its generated mutants (`--generated N`) and the `--since` recall proof;
- `impact/` (`make impact-map`): which scenarios and tests run each product line, measured into
  `impact/map.json` (read by `--since`, support/lanes/since.py, and the generated mutants);
- `ensure-browser.sh`, `ensure-bubblewrap.sh`, `ensure-caddy.sh`: what `make setup` installs when
  it is missing; `durations.json`: each scenario's duration, for longest-first scheduling and
  shards (`make durations` rewrites it).

The workflows that run these, through make targets only, are in `.github/workflows/`.

Belongs here: starting and stopping services around a lane in the order CI needs, and the tools CI
runs beside the lanes, so no YAML re-implements a lifecycle. Does not belong here: what a lane
selects (`support/tags.py`), running and finishing a lane (`support/lanes/`), how a service
starts (`support/stack.py`), what is seeded (`seed/`), or anything a scenario imports. ci imports
seed and support; only its tests import ci.
"""
