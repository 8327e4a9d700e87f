"""The few lines printed at the end of every lane."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from support.reports.model import RunInfo, ScenarioResult, status_counts


def summary_text(results: Sequence[ScenarioResult], run: RunInfo, *, reports: Iterable[Path] = ()) -> str:
    tally = ", ".join(f"{count} {status}" for status, count in status_counts(results)) or "none ran"
    lines = [
        f"lane {run.lane} (run {run.run_id}): {len(results)} scenarios: {tally} in {run.duration_s:.1f}s"
    ]
    failed = [result for result in results if result.failed]
    if failed:
        lines.append("failed:")
        lines += [f"  {result.location} {result.name}" for result in failed]
    report_paths = [str(path) for path in reports]
    if report_paths:
        lines.append(f"reports: {', '.join(report_paths)}")
    return "\n".join(lines)
