"""Run whole lanes as a user would and measure them: the shared part of the lane benchmarks.

Each run is a subprocess with its own artifacts folder; its wall time is measured here and its
CPU time is that of the whole process tree (the lane, its workers, services and browsers), read
from RUSAGE_CHILDREN around it. The lane's own report.json says how many scenarios ran.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.stack import die_with_parent

ROOT = Path(__file__).resolve().parents[1]
# The lanes' own output, kept so that a red configuration can be read after the run.
LOGS = ROOT / "artifacts" / "benchmarks"


@dataclass(frozen=True)
class LaneRun:
    wall_s: float
    cpu_s: float
    scenarios: int
    passed: bool


def run_lane(lane: str, workers: int, env: Mapping[str, str] | None = None) -> LaneRun:
    """`make e2e`/`make post-merge` with `--workers N`, measured."""
    with tempfile.TemporaryDirectory(prefix="bench-") as artifacts:
        # mkdtemp makes it 0700; shellctl's sandbox users must be able to reach workspaces inside.
        os.chmod(artifacts, 0o755)
        module = ["-m", "ci.post_merge"] if lane == "post-merge" else ["-m", "support.lanes", lane]
        extra = {"E2E_START_AGENT_BACKEND": "1"} if lane == "post-merge" else {}
        LOGS.mkdir(parents=True, exist_ok=True)
        log = LOGS / f"{lane}-{workers}-workers.log"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        with log.open("w", encoding="utf-8") as output:
            code = subprocess.run(
                die_with_parent([sys.executable, *module, "--workers", str(workers)]),
                cwd=ROOT,
                env={**os.environ, "E2E_ARTIFACTS_DIR": artifacts, **extra, **(env or {})},
                stdout=output,
                stderr=subprocess.STDOUT,
                check=False,
            ).returncode
        if code != 0:
            print(f"{lane} with {workers} worker(s) exited {code}: its output is in {log}", file=sys.stderr)
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        report = json.loads((Path(artifacts) / lane / "report.json").read_text())
        return LaneRun(wall, cpu, len(report["scenarios"]), code == 0)


def median_run(runs: Sequence[LaneRun]) -> LaneRun:
    return LaneRun(
        statistics.median(run.wall_s for run in runs),
        statistics.median(run.cpu_s for run in runs),
        runs[0].scenarios,
        all(run.passed for run in runs),
    )


def row(label: str, run: LaneRun) -> str:
    outcome = "green" if run.passed else "RED"
    return (
        f"{label:<28} wall {run.wall_s:6.1f}s  cpu {run.cpu_s:6.1f}s  "
        f"{run.cpu_s / max(run.scenarios, 1):5.2f} cpu-s/scenario  {run.scenarios} scenarios {outcome}"
    )
