"""Print what the lane machinery costs per scenario at 100 and at 1,000 scenarios, and its memory.

    .venv/bin/python -m benchmarks.scale [--sizes 100,1000] [--workers 2]

Each size generates that many cheap scenarios of real steps (an agent created through the API,
its draft read back: no page is opened), ten to a feature file, in a temporary folder under features/, runs them through
the PR lane as `make e2e` would, and reads the lane's own report. Printed per size: the lane's
wall time; the scenarios' own time (the sum of their durations, divided by the workers); the
harness's overhead per scenario, (wall - scenario time) / N; the tail after the last scenario
ended (report writing, merging the workers' results, teardown); and the peak resident memory of
the coordinator and of a worker, sampled from /proc while the lane runs.
Then the ratios of the large size to the small one: overhead per scenario, report writing per
scenario, and memory, which should all stay near 1 (flat). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS_PER_FILE = 10  # about what the suite's own feature files hold
SCENARIO = """
  Scenario: Scale {index}
    Given a basic configured agent named "Scale {index}" has been created via API
    Then the agent's draft instructions are "{instructions}"
"""


@dataclass(frozen=True)
class ScaleRun:
    size: int
    wall_s: float
    scenario_s: float  # the scenarios' own time, per worker
    tail_s: float  # from the last scenario's end to the lane's exit
    coordinator_rss_mib: float
    worker_rss_mib: float
    passed: bool

    @property
    def overhead_per_scenario_s(self) -> float:
        return (self.wall_s - self.scenario_s) / self.size


def _instructions() -> str:
    """The instructions `a basic configured agent` gets (read from its step, not repeated here)."""
    source = (ROOT / "support" / "api_setup" / "agents.py").read_text(encoding="utf-8")
    marker = 'BASIC_INSTRUCTIONS = "'
    start = source.index(marker) + len(marker)
    return source[start : source.index('"', start)]


def run_size(size: int, workers: int) -> ScaleRun:
    folder = ROOT / "features" / f"_scale_{os.getpid()}"
    folder.mkdir()
    try:
        for first in range(1, size + 1, SCENARIOS_PER_FILE):
            last = min(first + SCENARIOS_PER_FILE, size + 1)
            body = "".join(SCENARIO.format(index=i, instructions=_instructions()) for i in range(first, last))
            (folder / f"scale_{first:05d}.feature").write_text(
                f"@core\nFeature: Scale {first}\n{body}", encoding="utf-8"
            )
        with tempfile.TemporaryDirectory(prefix="scale-") as artifacts:
            os.chmod(artifacts, 0o755)
            started = time.monotonic()
            wall_started = datetime.now(UTC)
            lane = subprocess.Popen(
                [sys.executable, "-m", "support.lanes", "pr", "--workers", str(workers), str(folder)],
                cwd=ROOT,
                env={**os.environ, "E2E_ARTIFACTS_DIR": artifacts, "E2E_TRACE": "off"},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            peaks = _peak_memory(lane)
            wall = time.monotonic() - started
            report = json.loads((Path(artifacts) / "pr" / "report.json").read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(folder)
    scenarios = report["scenarios"]
    last_end = max(
        datetime.fromisoformat(scenario["started_at"]).timestamp() + scenario["duration_s"]
        for scenario in scenarios
    )
    return ScaleRun(
        size,
        wall,
        sum(scenario["duration_s"] for scenario in scenarios) / workers,
        wall_started.timestamp() + wall - last_end,
        peaks["coordinator"],
        peaks["worker"],
        lane.returncode == 0 and len(scenarios) == size,
    )


def _peak_memory(lane: subprocess.Popen[bytes]) -> dict[str, float]:
    """Waits for the lane, sampling the resident memory (MiB) of it and of its workers."""
    peaks = {"coordinator": 0.0, "worker": 0.0}
    while lane.poll() is None:
        peaks["coordinator"] = max(peaks["coordinator"], _rss_mib(lane.pid))
        for child in _children(lane.pid):
            if b"support.lanes.worker" in _cmdline(child):
                peaks["worker"] = max(peaks["worker"], _rss_mib(child))
        time.sleep(0.25)  # a sampling period: the lane runs on regardless
    return peaks


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _rss_mib(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    kib = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return kib / 1024


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    runs = [run_size(int(size), args.workers) for size in args.sizes.split(",")]
    for run in runs:
        state = "passed" if run.passed else "FAILED"
        print(
            f"N={run.size:>5} ({state}): wall {run.wall_s:7.1f}s, scenarios {run.scenario_s:7.1f}s per worker, "
            f"overhead {1000 * run.overhead_per_scenario_s:6.1f} ms/scenario, tail {run.tail_s:5.2f}s, "
            f"coordinator {run.coordinator_rss_mib:.0f} MiB, worker {run.worker_rss_mib:.0f} MiB"
        )
    small, large = runs[0], runs[-1]
    print(
        f"\nN={large.size} against N={small.size}: overhead per scenario x"
        f"{large.overhead_per_scenario_s / small.overhead_per_scenario_s:.2f}, tail (reports) per scenario x"
        f"{(large.tail_s / large.size) / max(small.tail_s / small.size, 1e-9):.2f}, coordinator memory x"
        f"{large.coordinator_rss_mib / max(small.coordinator_rss_mib, 1e-9):.2f}, worker memory x"
        f"{large.worker_rss_mib / max(small.worker_rss_mib, 1e-9):.2f} (flat: about 1)"
    )


if __name__ == "__main__":
    main()
