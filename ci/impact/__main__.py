"""`make impact-map` (`python -m ci.impact`): measure which scenarios execute each product line.

Runs the PR, a11y and post-merge lanes on one worker each, and the unit tests (one worker: the services' coverage is
switched per scenario, so two scenarios must never run at once), with the product's services
measuring their Python coverage (ci/impact/site/) and every page its JavaScript coverage
(support/run/impact.py), the tests each test apart (ci/impact/site/), then writes ci/impact/map.json. Exits 1 when
a lane fails: a map of a failing run would attribute lines to scenarios that did not finish.
`python -m ci.impact --where FILE:LINE` prints the scenarios the map has for a line.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ci.impact.build import build
from ci.impact.site.impact_per_test import SERVICES_DIR
from support.lanes.impact_map import MAP_PATH, ROOT, ImpactMap, StaleMap

SITE = Path(__file__).resolve().parent / "site"
PER_TEST = "impact_per_test"  # the pytest plugin in SITE
# lane -> (argv, extra environment), each on one worker.
LANES: dict[str, tuple[list[str], dict[str, str]]] = {
    "pr": ([sys.executable, "-m", "support.lanes", "pr"], {}),
    "a11y": ([sys.executable, "-m", "support.lanes", "a11y"], {}),
    "post-merge": ([sys.executable, "-m", "ci.post_merge"], {"E2E_START_AGENT_BACKEND": "1"}),
}


TESTS = "tests"
_TESTS_RC = """[run]
source_pkgs = agent_builder
data_file = {folder}/data/.coverage
parallel = True
"""


def _measure(lane: str, folder: Path) -> bool:
    python_path = os.pathsep.join(filter(None, [str(SITE), str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": python_path}
    if lane == TESTS:
        (folder / "data").mkdir()
        (folder / "coveragerc").write_text(_TESTS_RC.format(folder=folder), encoding="utf-8")
        env |= {"COVERAGE_PROCESS_START": str(folder / "coveragerc"), SERVICES_DIR: str(folder)}
        argv = [sys.executable, "-m", "pytest", "-q", "-n", "auto", "-p", "no:cacheprovider", "-p", PER_TEST]
    else:
        argv, extra = LANES[lane]
        env |= {**extra, "E2E_IMPACT_DIR": str(folder)}
        env.setdefault("E2E_TRACE", "off")
        argv = [*argv, "--workers", "1"]
    return subprocess.run(argv, cwd=ROOT, env=env, check=False).returncode == 0


def record(lanes: list[str]) -> int:
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="impact-") as scratch:
        measured: dict[str, Path] = {}
        for lane in lanes:
            folder = Path(scratch) / lane
            folder.mkdir()
            started = time.monotonic()
            print(f"[impact] {lane}: measuring", file=sys.stderr, flush=True)
            if not _measure(lane, folder):
                print(f"[impact] the {lane} run failed: no map written (fix it first)", file=sys.stderr)
                return 1
            print(f"[impact] {lane}: done in {time.monotonic() - started:.0f}s", file=sys.stderr)
            measured[lane] = folder
        impact = build(measured, commit)
    before = _measured_part(MAP_PATH)
    impact.save()
    if _measured_part(MAP_PATH) != before:
        print(
            f"[impact] the map differs from the one before: commit {MAP_PATH.relative_to(ROOT)}",
            file=sys.stderr,
        )
    lines = sum(len(f.lines) for f in impact.files.values())
    print(
        f"[impact] {MAP_PATH.relative_to(ROOT)}: {len(impact.scenarios)} scenarios, {len(impact.files)} files,"
        f" {lines} lines run by a scenario ({MAP_PATH.stat().st_size // 1024} KiB)",
        file=sys.stderr,
    )
    return 0


def _measured_part(path: Path) -> object:
    """The map without the commit it was measured at: what tells whether it changed."""
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("commit", None)
    return data


def where(spec: str) -> int:
    path, _, line = spec.rpartition(":")
    try:
        impact = ImpactMap.load().impact_of(path)
    except StaleMap as error:
        print(f"[impact] {error}", file=sys.stderr)
        return 2
    number = int(line)
    if number in impact.startup:
        print(f"{spec}: runs while the services start: every scenario")
    for scenario in sorted(impact.lines.get(number, ())):
        print(scenario)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ci.impact", description=__doc__.split("\n\n")[0])
    parser.add_argument("--lanes", nargs="+", choices=[*LANES, TESTS], default=[*LANES, TESTS])
    parser.add_argument("--where", metavar="FILE:LINE", help="the scenarios that run this line")
    args = parser.parse_args(argv)
    return where(args.where) if args.where else record(args.lanes)


if __name__ == "__main__":
    sys.exit(main())
