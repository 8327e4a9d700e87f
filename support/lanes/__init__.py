"""Running a lane, and finishing it: `python -m support.lanes LANE` (`cli`), on a pool of worker
processes, or as one shard of it over N CI machines.

`cli` (the options) -> `plan` (the lane's scenarios: `selection` by behave's own rules, `schedule`
longest first by ci/durations.json, and shards) -> `coordinator` (hands scenarios to workers,
gathers their results, judges the lane) <-> `worker` (behave with the suite's hooks, fed one
scenario at a time over the `link`; `progress` prints each result as it arrives). `finish`: the
lane's folder and `finish_lane`, which every lane run ends with (a serial `behave` run too);
`audit`: the leftover audit every run ends with.

Belongs here: choosing, running and judging a lane's scenarios, product-agnostic. Does not
belong here: what a lane selects (`support/tags.py`), one behave process's start and end
(`support/hooks.py`), the services a lane needs started around it (`ci/`).
"""
