"""Run a lane again and again under load, and check that no process outlives any run.

    python -m ci.soak pr --runs 10 --workers 2 --throttle 4
    python -m ci.soak post-merge --runs 5 --workers 2 --throttle 4

Each run is the lane exactly as `make e2e` / `make post-merge` runs it, with E2E_CPU_THROTTLE set.
Every process a run starts (workers, consoles, runtimes, shellctl, sandboxes, browsers) inherits a
marker variable; after the run, any live process still carrying it is a leak and fails the soak.
A scenario that fails even once fails the soak too: under load a flake is a bug, never noise.
Prints one line per run and a summary; exit code 1 on any failure or leak.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from support.stack import die_with_parent

ROOT = Path(__file__).resolve().parents[1]
# Not E2E_-prefixed: the settings refuse unknown E2E_ variables. Sandboxed commands get a clean
# environment, but bwrap dies with shellctl, which carries the marker.
MARKER = "SOAK_LEAK_MARKER"


def marked_processes(marker: str) -> list[str]:
    """`pid command` of every live process whose environment carries `marker`."""
    found = []
    needle = f"{MARKER}={marker}".encode()
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if needle not in environ.read_bytes():
                continue
            status = (environ.parent / "stat").read_text().rsplit(") ", 1)[1].split()[0]
            command = (environ.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # exited while we looked
        if status != "Z":
            found.append(f"{environ.parent.name} {command[:120]}")
    return found


def run_once(
    lane: str, workers: int, throttle: float, extra: list[str]
) -> tuple[int, float, list[str], Path]:
    marker = uuid.uuid4().hex
    artifacts = Path(tempfile.mkdtemp(prefix=f"soak-{lane}-"))
    # mkdtemp makes it 0700; shellctl's sandbox users must be able to reach workspaces inside.
    artifacts.chmod(0o755)
    module = ["-m", "ci.post_merge"] if lane == "post-merge" else ["-m", "support.lanes", lane]
    env = {
        **os.environ,
        MARKER: marker,
        "E2E_ARTIFACTS_DIR": str(artifacts),
        "E2E_CPU_THROTTLE": str(throttle),
        **({"E2E_START_AGENT_BACKEND": "1"} if lane == "post-merge" else {}),
    }
    started = time.monotonic()
    code = subprocess.run(
        die_with_parent([sys.executable, *module, "--workers", str(workers), *extra]),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    ).returncode
    return code, time.monotonic() - started, marked_processes(marker), artifacts


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("lane", choices=["pr", "post-merge", "a11y"])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--throttle", type=float, default=4.0)
    args, extra = parser.parse_known_args()
    failures = 0
    for number in range(1, args.runs + 1):
        code, wall, leaks, artifacts = run_once(args.lane, args.workers, args.throttle, extra)
        outcome = (
            "green" if code == 0 else f"RED (exit {code}, report {artifacts / args.lane / 'report.html'})"
        )
        print(f"run {number}/{args.runs}: {outcome} in {wall:.0f}s; processes left: {len(leaks)}", flush=True)
        for leak in leaks:
            print(f"    left running: {leak}", flush=True)
        failures += code != 0 or bool(leaks)
    print(f"{args.lane}: {args.runs - failures}/{args.runs} runs green with nothing left running")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
