"""Run whole lanes as a user would and measure them: the shared part of the lane benchmarks.

Each run is a subprocess with its own artifacts folder; its wall time is measured here and its
CPU time is that of everything it started (the lane, its workers, services and browsers), read
from a cgroup v2 it runs in. RUSAGE_CHILDREN would not do: Chromium's renderers are not reaped
by the processes that count them, and it missed more than half of the lane's CPU. The lane's own
report.json says how many scenarios ran.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Self

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


def run_lane(
    lane: str,
    workers: int,
    env: Mapping[str, str] | None = None,
    *,
    root: Path = ROOT,
    scenarios: Sequence[str] = (),
) -> LaneRun:
    """`make e2e`/`make post-merge` with `--workers N`, measured: of the checkout at `root`, only
    `scenarios` (`file:line`) if given."""
    with tempfile.TemporaryDirectory(prefix="bench-") as artifacts:
        # mkdtemp makes it 0700; shellctl's sandbox users must be able to reach workspaces inside.
        os.chmod(artifacts, 0o755)
        module = ["-m", "ci.post_merge"] if lane == "post-merge" else ["-m", "support.lanes", lane]
        extra = {"E2E_START_AGENT_BACKEND": "1"} if lane == "post-merge" else {}
        LOGS.mkdir(parents=True, exist_ok=True)
        log = LOGS / f"{lane}-{workers}-workers.log"
        with CpuAccount() as account, log.open("w", encoding="utf-8") as output:
            started = time.monotonic()
            code = subprocess.run(
                die_with_parent([sys.executable, *module, "--workers", str(workers), *scenarios]),
                cwd=root,
                env={**os.environ, "E2E_ARTIFACTS_DIR": artifacts, **extra, **(env or {})},
                stdout=output,
                stderr=subprocess.STDOUT,
                check=False,
                preexec_fn=account.join,
            ).returncode
            wall = time.monotonic() - started
            cpu = account.cpu_s()
        if code != 0:
            print(f"{lane} with {workers} worker(s) exited {code}: its output is in {log}", file=sys.stderr)
        report = json.loads((Path(artifacts) / lane / "report.json").read_text())
        return LaneRun(wall, cpu, len(report["scenarios"]), code == 0)


class CpuAccount:
    """A cgroup v2 of its own: the CPU time of every process started in it, reaped or not."""

    def __init__(self) -> None:
        root = _cgroup2_root()
        self.path = root / f"lane-benchmark-{os.getpid()}-{time.monotonic_ns()}"

    def __enter__(self) -> Self:
        try:
            self.path.mkdir()
        except OSError as exc:
            raise SystemExit(
                f"benchmarks need a writable cgroup v2 to count the browsers' CPU ({self.path}: {exc}); run as root"
            ) from None
        return self

    def join(self) -> None:
        """Runs in the child before exec: it and everything it starts are counted."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def cpu_s(self) -> float:
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines())
        return int(stat["usage_usec"]) / 1e6

    def __exit__(self, *exc: object) -> None:
        (self.path / "cgroup.kill").write_text("1")  # a leftover must not keep the group alive
        while (self.path / "cgroup.procs").read_text().strip():
            time.sleep(0.05)
        self.path.rmdir()


def _cgroup2_root() -> Path:
    for line in Path("/proc/mounts").read_text().splitlines():
        _, mount_point, kind, *_ = line.split()
        if kind == "cgroup2":
            return Path(mount_point)
    raise SystemExit("benchmarks need a cgroup v2 mount (/proc/mounts lists none) to count the browsers' CPU")


def compare_pr_lane(
    variants: Mapping[str, Mapping[str, str]], rounds: int, workers: int
) -> dict[str, LaneRun]:
    """The PR lane under each variant's environment, the variants alternating round after round
    (so a shared machine's noise hits them alike); the median run of each."""
    runs: dict[str, list[LaneRun]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, env in variants.items():
            runs[name].append(run_lane("pr", workers, env))
    return {name: median_run(variant_runs) for name, variant_runs in runs.items()}


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
