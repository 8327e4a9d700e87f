"""The seed report: one row per task, printed as a table and written as JSON.

Everything leaving this module goes through `redact`, so a provider error that echoes a key,
or a URL with credentials in it, never reaches the terminal or an artifact.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from support.reports.redact import redact

Status = Literal["created", "updated", "verified", "blocked"]
STATUSES: tuple[Status, ...] = ("created", "updated", "verified", "blocked")


@dataclass(frozen=True)
class TaskResult:
    task: str
    owner: str
    status: Status
    detail: str  # what was created, repaired or verified; for `blocked`, the reason
    remediation: str | None  # set exactly when blocked
    duration_s: float


@dataclass(frozen=True)
class SeedReport:
    profile: str
    target: str  # the console URL
    model_mode: str
    dry_run: bool
    started_at: str
    duration_s: float
    results: tuple[TaskResult, ...]

    @property
    def blocked(self) -> list[TaskResult]:
        return [result for result in self.results if result.status == "blocked"]

    def summary(self) -> str:
        counts = Counter(result.status for result in self.results)
        shown = ", ".join(f"{counts[status]} {status}" for status in STATUSES)
        return f"{len(self.results)} tasks: {shown} in {self.duration_s:.1f}s"


def progress_line(result: TaskResult, secrets: Iterable[str]) -> str:
    return redact(f"[seed] {result.task}: {result.status} ({result.duration_s:.2f}s)", secrets)


def render_table(report: SeedReport, secrets: Iterable[str]) -> str:
    mode = "dry run, nothing changed; " if report.dry_run else ""
    lines = [f"Seed profile {report.profile} against {report.target} ({mode}model mode {report.model_mode})"]
    width = max(len("TASK"), *(len(result.task) for result in report.results))
    lines.append(f"{'TASK':<{width}}  {'STATUS':<8}  {'TIME':>6}  DETAIL")
    indent = " " * (width + 2 + 8 + 2 + 6 + 2)
    for result in report.results:
        timing = f"{result.duration_s:>5.2f}s"
        lines.append(f"{result.task:<{width}}  {result.status:<8}  {timing}  {result.detail}")
        if result.remediation:
            lines.append(f"{indent}owner: {result.owner}")
            lines.append(f"{indent}fix:   {result.remediation}")
    lines.append(report.summary())
    return redact("\n".join(lines), secrets)


def write_json(report: SeedReport, path: Path, secrets: Iterable[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {**asdict(report), "blocked": len(report.blocked)}
    path.write_text(redact(json.dumps(body, indent=2), secrets) + "\n", encoding="utf-8")
