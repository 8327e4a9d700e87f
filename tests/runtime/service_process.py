"""Starts a real service process (port 0), waits for its ready line, and stops it afterwards.
Shared by the runtime, shellctl and reference model tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PYTHON = sys.executable
_READY_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Service:
    url: str
    process: subprocess.Popen[str]
    log: Path  # the process's stderr: its log

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@contextmanager
def service(
    args: list[str], ready_prefix: str, log: Path, env: Mapping[str, str] | None = None
) -> Iterator[Service]:
    with log.open("w", encoding="utf-8") as log_file:
        process = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=log_file, text=True, env={**os.environ, **(env or {})}
        )
    try:
        yield Service(_wait_ready(process, ready_prefix, log), process, log)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        assert process.stdout is not None
        process.stdout.close()


def _wait_ready(process: subprocess.Popen[str], prefix: str, log: Path) -> str:
    assert process.stdout is not None
    deadline = time.monotonic() + _READY_TIMEOUT_S
    # readline blocks, but a service that dies closes stdout, and one that starts prints promptly.
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"{' '.join(process.args)} exited before ready:\n{log.read_text()}")  # type: ignore[arg-type]
        if line.startswith(prefix + " "):
            return json.loads(line[len(prefix) + 1 :])["url"]
    raise RuntimeError(f"no {prefix} line within {_READY_TIMEOUT_S}s")


def agent_builder(*args: str) -> list[str]:
    return [PYTHON, "-m", "agent_builder", *args]


@contextmanager
def workspaces_folder() -> Iterator[Path]:
    """A folder for shellctl's workspaces that sandbox users can reach. Run as root, shellctl runs
    each workspace as a uid of its own, which must be able to search every parent folder; pytest's
    temporary folders are private to their user (mode 0700)."""
    with tempfile.TemporaryDirectory(prefix="shellctl-") as folder:
        os.chmod(folder, 0o711)
        yield Path(folder) / "workspaces"
