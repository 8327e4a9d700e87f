"""`make rerun` (`python -m ci.rerun [RERUN_FILE]`): run exactly the scenarios that failed, again.

The rerun file (default `<E2E_ARTIFACTS_DIR>/rerun.txt`, the last lane's; each lane also keeps its
own as `artifacts/<lane>/rerun.txt`) lists the failed scenarios' `file:line` and, in its header,
how the lane ran. The rerun runs them as the same lane, with the same workers, repeat count and
settings (e.g. `E2E_START_AGENT_BACKEND=1` for post-merge); never sharded, since the locations
are already exact. A lane of tags of its own (`artifacts/adhoc/`) reruns as plain serial behave.
Exit code: the rerun lane's; 0 with nothing to rerun; 2 when the file is missing or not a rerun file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from behave.__main__ import main as behave_main

from ci import post_merge
from support.lanes import cli
from support.reports import RERUN_FILE, Rerun, read_rerun
from support.settings import SettingsError, load_settings
from support.tags import LANES

EXIT_USAGE = 2


def rerun_command(rerun: Rerun) -> tuple[Callable[[list[str]], int], list[str]]:
    """The entry point and arguments that run `rerun` as its lane ran."""
    options = ["--workers", str(rerun.workers), "--repeat", str(rerun.repeat)]
    options += ["--order", rerun.order] if rerun.order else []
    if rerun.lane == post_merge.LANE:
        return post_merge.main, [*options, *rerun.locations]
    if rerun.lane in LANES:
        return cli.main, [rerun.lane, *options, *rerun.locations]
    return behave_main, list(rerun.locations)


def main(argv: list[str]) -> int:
    try:
        path = Path(argv[0]) if argv else load_settings().artifacts_dir / RERUN_FILE
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    if not path.is_file():
        print(f"no rerun file at {path}: run a lane first (make e2e, make post-merge)", file=sys.stderr)
        return EXIT_USAGE
    try:
        rerun = read_rerun(path)
    except ValueError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    if not rerun.locations:
        print(f"nothing to rerun: no scenario of lane {rerun.lane} failed ({path})", file=sys.stderr)
        return 0
    entry, args = rerun_command(rerun)
    os.environ.update(rerun.settings)  # before the lane loads its settings
    shown = " ".join([*(f"{k}={v}" for k, v in rerun.settings.items()), rerun.lane, *args])
    print(f"[rerun] {len(rerun.locations)} scenario(s) from {path}: {shown}", file=sys.stderr, flush=True)
    return entry(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
