"""Run one mutant's check against the mutated scratch copy and say whether (and what) killed it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ci.mutants.catalogue_loader import Check, Mutant
from ci.mutants.scratch import Scratch

# A check that runs longer than this is a kill too (the mutant made something hang), reported as such.
CHECK_TIMEOUT_S = 600
# pytest -q ends with "FAILED <node id> - <first line of the error>" per failed test.
_FAILED_TEST = re.compile(r"^FAILED (.+)$", re.MULTILINE)
_ERROR_CHARS = 160


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    killed: bool
    killed_by: tuple[str, ...]  # the failing scenarios, tests or lint lines
    wall_s: float
    error: str | None = None  # the mutant could not be run at all

    @property
    def verdict(self) -> str:
        if self.error:
            return "error"
        if self.killed:
            return "killed"
        return "equivalent" if self.mutant.equivalent else "SURVIVED"


def run_mutant(scratch: Scratch, mutant: Mutant, workers: int) -> Outcome:
    started = time.monotonic()
    with scratch.mutated(mutant):
        scratch.verify()
        killed_by: list[str] = []
        for check in mutant.checks:
            for step in _steps(check, workers):
                killed_by += step(scratch)
    return Outcome(mutant, bool(killed_by), tuple(killed_by), time.monotonic() - started)


def _steps(check: Check, workers: int) -> list[Callable[[Scratch], list[str]]]:
    steps: list[Callable[[Scratch], list[str]]] = []
    if check.lint:
        steps.append(lint_check)
    if check.pytest:
        steps.append(lambda scratch: pytest_check(scratch, check.pytest, first_failure=check.first_failure))
    if check.lane:
        steps.append(lambda scratch: lane_check(scratch, check, workers))
    return steps


def _run(
    scratch: Scratch, argv: list[str], extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(
            argv,
            cwd=scratch.root,
            env=scratch.env(extra_env),
            capture_output=True,
            text=True,
            timeout=CHECK_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None


def lint_check(scratch: Scratch) -> list[str]:
    result = _run(scratch, [sys.executable, "-m", "support.lint", "features"])
    if result is None:
        return [f"lint: timed out after {CHECK_TIMEOUT_S}s"]
    if result.returncode == 0:
        return []
    first = next((line for line in result.stdout.splitlines() if line.strip()), "lint failed")
    return [f"lint: {first}"]


def pytest_check(scratch: Scratch, nodes: tuple[str, ...], *, first_failure: bool = False) -> list[str]:
    stop = ["-x"] if first_failure else []
    result = _run(scratch, [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *stop, *nodes])
    if result is None:
        return [f"pytest: timed out after {CHECK_TIMEOUT_S}s"]
    if result.returncode == 0:
        return []
    return [f"pytest {line[: _ERROR_CHARS * 2]}" for line in _FAILED_TEST.findall(result.stdout)] or [
        f"pytest exited {result.returncode}: {result.stdout.strip().splitlines()[-1:]}"
    ]


def lane_check(scratch: Scratch, check: Check, workers: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="mutant-lane-") as artifacts:
        Path(artifacts).chmod(0o711)  # shellctl's sandbox users must reach the workspaces inside
        names = [arg for pattern in check.names for arg in ("--name", pattern)]
        if check.lane == "post-merge":
            argv = [sys.executable, "-m", "ci.post_merge"]
            env = {"E2E_START_AGENT_BACKEND": "1"}
        elif check.lane == "deployed":
            argv = [sys.executable, "-m", "ci.deployed"]
            env = {}
        else:
            argv = [sys.executable, "-m", "support.lanes", str(check.lane)]
            env = {}
        env |= {"E2E_ARTIFACTS_DIR": artifacts, "E2E_TRACE": "off"}
        stop = ["--stop"] if check.first_failure else []
        result = _run(scratch, [*argv, "--workers", str(workers), *stop, *check.features, *names], env)
        if result is None:
            return [f"{check.lane}: timed out after {CHECK_TIMEOUT_S}s"]
        if result.returncode == 0:
            return []
        return _failed_in_report(Path(artifacts) / str(check.lane) / "report.json") or [
            f"{check.lane} exited {result.returncode}: {(result.stderr.strip().splitlines() or ['?'])[-1]}"
        ]


def _failed_in_report(path: Path) -> list[str]:
    if not path.is_file():
        return []
    report = json.loads(path.read_text(encoding="utf-8"))
    failed = [
        f"{scenario['feature_path']}:{scenario['line']} {scenario['name']}{_why(scenario)}"
        for scenario in report["scenarios"]
        if scenario["status"] not in ("passed", "skipped", "untested")
    ]
    return failed + [f"lane failure: {failure['kind']}" for failure in report.get("lane_failures", [])]


def _why(scenario: dict[str, Any]) -> str:
    """The step that failed and the first line of its error (already redacted by the lane), so
    the kill table shows the mutant was caught by an assertion, not by a crash elsewhere."""
    step = next((step for step in scenario["steps"] if step["status"] in ("failed", "error")), None)
    error = (step or {}).get("error") or scenario.get("error") or ""
    # A traceback's last line says what was raised; an assertion's first line says what failed.
    lines = [line.strip() for line in error.splitlines() if line.strip()]
    first = (lines[-1] if lines and lines[0].startswith("Traceback") else lines[0]) if lines else ""
    where = f"{step['keyword']} {step['name']}" if step else "the scenario"
    return f" [{where}: {first[:_ERROR_CHARS]}]"
