"""Print how long each bundled service takes from launch to its ready line (median of N runs).

    .venv/bin/python -m benchmarks.startup [runs]

Each run uses a fresh database/workspace; services are started one at a time, interleaved, so
machine noise hits them alike. Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import os
import secrets
import statistics
import sys
import tempfile
from pathlib import Path

from support.stack import python_module_argv, start_service


def _argv(service: str, tmp: str) -> list[str]:
    if service == "console":
        return python_module_argv("agent_builder", "console", "--port", "0", "--db", f"{tmp}/console.db")
    if service == "shellctl":
        return python_module_argv("agent_builder", "shellctl", "--port", "0", "--workspaces", f"{tmp}/ws")
    return python_module_argv("agent_builder", "runtime", "--port", "0")


def main(runs: int) -> None:
    services = ("console", "runtime", "shellctl")
    timings: dict[str, list[float]] = {name: [] for name in services}
    for _ in range(runs):
        for name in services:
            with tempfile.TemporaryDirectory() as tmp:
                os.chmod(tmp, 0o711)  # shellctl's sandbox users must reach the workspaces inside
                service = start_service(
                    name,
                    _argv(name, tmp),
                    ready_prefix="AGENT_BUILDER_READY",
                    log_path=Path(tmp) / "log",
                    # The runtime refuses to start without a token of its own.
                    env={"AGENT_BUILDER_RUNTIME_TOKEN": secrets.token_urlsafe(32)},
                )
                timings[name].append(service.started_in_s)
                service.stop()
    print(f"launch to ready line, median of {runs} runs:")
    for name, values in timings.items():
        print(
            f"  {name:<9} {statistics.median(values):.2f}s  (min {min(values):.2f}s, max {max(values):.2f}s)"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
