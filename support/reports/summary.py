"""The few lines printed at the end of every lane: counts, what failed and where, the reports."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from support.reports.model import LaneReport, ScenarioResult, status_counts


def summary_text(report: LaneReport, *, reports: Iterable[Path] = ()) -> str:
    run, results = report.run, report.results
    tally = ", ".join(f"{count} {status}" for status, count in status_counts(results)) or "none ran"
    shard = f", shard {run.shard}" if run.shard else ""
    workers = f", {run.workers} workers" if run.workers > 1 else ""
    lines = [f"lane {run.lane} (run {run.run_id}{shard}{workers}): {len(results)} scenarios: {tally}"]
    lines[0] += f" in {run.duration_s:.1f}s"
    lines += [f"excluded by design: {count} scenario(s) with {why}" for why, count in run.excluded.items()]
    if run.order.startswith("random:"):
        lines.append(
            f"order: {run.order}: a scenario that failed here but passes alone may need another to run "
            "first; `make rerun` repeats this order"
        )
    lines += _repeat_lines(results)
    failed = [result for result in results if result.failed]
    if failed:
        lines.append("failed:")
        lines += [f"  {result.location} {result.name}{_attempt(result)}" for result in failed]
    if report.lane_failures:
        lines.append("lane failures:")
        for failure in report.lane_failures:
            lines.append(f"  [{failure.kind}] {failure.message}")
            if failure.fix:
                lines.append(f"    Fix: {failure.fix}")
    report_paths = [str(path) for path in reports]
    if report_paths:
        lines.append(f"reports: {', '.join(report_paths)}")
    return "\n".join(lines)


def _attempt(result: ScenarioResult) -> str:
    return f" (attempt {result.attempt})" if result.attempt > 1 else ""


def _repeat_lines(results: Iterable[ScenarioResult]) -> list[str]:
    """With --repeat: the pass count of every scenario that did not pass every time."""
    runs: dict[str, list[ScenarioResult]] = defaultdict(list)
    for result in results:
        runs[result.location].append(result)
    if all(len(attempts) == 1 for attempts in runs.values()):
        return []
    repeats = max(len(attempts) for attempts in runs.values())
    unstable = [
        f"  {location} {attempts[0].name}: passed {sum(not r.failed for r in attempts)}/{len(attempts)}"
        for location, attempts in sorted(runs.items())
        if any(r.failed for r in attempts)
    ]
    head = f"repeat: each scenario {repeats} times; " + (
        "every run passed" if not unstable else f"{len(unstable)} scenario(s) failed at least once:"
    )
    return [head, *unstable]
