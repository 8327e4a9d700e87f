"""Print the PR lane's CPU per scenario here and at an earlier commit, and on the scenarios both have.

    .venv/bin/python -m benchmarks.cpu_against --base 47fb098 [--rounds N]

The earlier commit runs from a git worktree with this checkout's virtualenv (its `python -m`
finds the worktree's packages first). Three runs alternate round after round, one worker each so
that CPU is the lane's alone: the base's lane; this lane on the scenarios of the base (by feature
file and name: the cost of the same work); this whole lane. CPU is the cgroup's (lane_runs.py).
Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.lane_runs import ROOT, LaneRun, median_run, row, run_lane
from support.lanes.selection import ScenarioRef, select_scenarios
from support.tags import behave_args

_LIST_SCENARIOS = (
    "import json; from support.lanes.selection import select_scenarios; from support.tags import behave_args; "
    "print(json.dumps([[r.feature_path, r.name] for r in select_scenarios(behave_args('pr'))]))"
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", required=True, help="the earlier commit (any git ref)")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cpu-against-") as scratch:
        base = Path(scratch) / "base"
        _git("worktree", "add", "--detach", "--quiet", str(base), args.base)
        try:
            runs = _measure(base, args.rounds)
        finally:
            _git("worktree", "remove", "--force", str(base))
    labels = {
        "base": f"pr at {args.base}",
        "same": "pr here, the base's scenarios",
        "here": "pr here, every scenario",
    }
    for name, run in runs.items():
        print(row(labels[name], run))
    for name in ("same", "here"):
        ratio = _per_scenario(runs[name]) / _per_scenario(runs["base"])
        print(f"{labels[name]}: CPU per scenario {100 * (1 - ratio):.0f}% lower than at {args.base}")


def _measure(base: Path, rounds: int) -> dict[str, LaneRun]:
    listed = subprocess.run(
        [sys.executable, "-c", _LIST_SCENARIOS], cwd=base, capture_output=True, text=True, check=True
    ).stdout
    base_scenarios = {(path, name) for path, name in json.loads(listed)}
    here: list[ScenarioRef] = select_scenarios(behave_args("pr"))
    same = [ref.location for ref in here if (ref.feature_path, ref.name) in base_scenarios]
    missing = len(base_scenarios) - len(same)
    if missing:
        print(f"{missing} of the base's {len(base_scenarios)} scenarios are gone or renamed here")
    runs: dict[str, list[LaneRun]] = {"base": [], "same": [], "here": []}
    for _ in range(rounds):
        runs["base"].append(run_lane("pr", 1, root=base))
        runs["same"].append(run_lane("pr", 1, scenarios=same))
        runs["here"].append(run_lane("pr", 1))
    return {name: median_run(measured) for name, measured in runs.items()}


def _per_scenario(run: LaneRun) -> float:
    return run.cpu_s / max(run.scenarios, 1)


def _git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
