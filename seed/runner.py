"""Runs a profile's tasks in order against one console and reports every task's outcome.

A task whose prerequisite is blocked is itself reported `blocked` (naming the prerequisite),
never skipped. Console errors (a 4xx/5xx or an unreachable console) block the task that hit
them; anything else is a bug in the seed and propagates.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import httpx

from seed.registry import PROFILES
from seed.report import SeedReport, TaskResult, progress_line, render_table, write_json
from seed.tasks import SeedContext, Task
from support.api.console import ConsoleApiError, ConsoleClient, sign_in
from support.seeded.blocked import Blocked
from support.settings import Settings

EXIT_OK = 0
EXIT_USAGE = 2  # invalid settings or arguments: nothing was seeded
EXIT_BLOCKED = 3  # --strict and at least one task blocked


def report_path(settings: Settings, profile: str) -> Path:
    return settings.artifacts_dir / "seed-report" / f"{profile}.json"


def _run_task(task: Task, ctx: SeedContext, profile: str, earlier: list[TaskResult]) -> TaskResult:
    blocked_needs = [r.task for r in earlier if r.task in task.needs and r.status == "blocked"]
    if blocked_needs:
        return TaskResult(
            task.name,
            task.owner,
            "blocked",
            f"needs {', '.join(blocked_needs)}, which is blocked",
            f"fix {', '.join(blocked_needs)} first (see above)",
            0.0,
        )
    started = time.monotonic()
    try:
        outcome = task.run(ctx)
    except Blocked as blocked:
        reason, remediation = blocked.reason, blocked.remediation
    except (ConsoleApiError, httpx.HTTPError) as error:
        reason = f"console API error: {error}"
        remediation = f"check that the console at {ctx.settings.base_url} is up and see its log"
    else:
        return TaskResult(
            task.name, task.owner, outcome.status, outcome.detail, None, time.monotonic() - started
        )
    remediation = f"{remediation}; then re-run `make seed PROFILE={profile}`"
    return TaskResult(task.name, task.owner, "blocked", reason, remediation, time.monotonic() - started)


def run_seed(
    settings: Settings,
    profile: str,
    *,
    dry_run: bool = False,
    on_result: Callable[[TaskResult], None] = lambda result: None,
) -> SeedReport:
    """Seed the console at `settings.base_url` with `profile`; never raises for a blocked task."""
    assert settings.base_url is not None, "the seed needs a console URL"
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    started = time.monotonic()
    tasks = PROFILES[profile]
    results: list[TaskResult] = []
    try:
        token = sign_in(settings.base_url, settings.admin_email, settings.admin_password.get_secret_value())
    except (ConsoleApiError, httpx.HTTPError) as error:
        # Nothing can be checked without the console: every task is blocked, none skipped.
        reason = f"cannot sign in to the console at {settings.base_url}: {error}"
        fix = "check E2E_BASE_URL, E2E_ADMIN_EMAIL and E2E_ADMIN_PASSWORD"
        results = [TaskResult(task.name, task.owner, "blocked", reason, fix, 0.0) for task in tasks]
    else:
        ctx = SeedContext(settings, ConsoleClient(settings.base_url, token), dry_run)
        for task in tasks:
            results.append(_run_task(task, ctx, profile, results))
            on_result(results[-1])
    return SeedReport(
        profile=profile,
        target=settings.base_url,
        model_mode=settings.model_mode,
        dry_run=dry_run,
        started_at=started_at,
        duration_s=time.monotonic() - started,
        results=tuple(results),
    )


def seed_and_report(
    settings: Settings, profile: str, *, strict: bool, dry_run: bool = False, out: TextIO = sys.stdout
) -> int:
    """Run the seed, print progress and the table, write the JSON report; return the exit code."""
    report = seed_and_print(settings, profile, dry_run=dry_run, out=out)
    if strict and report.blocked:
        return EXIT_BLOCKED
    return EXIT_OK


def seed_and_print(
    settings: Settings, profile: str, *, dry_run: bool = False, out: TextIO = sys.stdout
) -> SeedReport:
    """Run the seed, print progress and the table, write the JSON report; return the report."""
    secrets = settings.secret_values()
    print(f"[seed] profile {profile} against {settings.base_url}", file=sys.stderr, flush=True)
    report = run_seed(
        settings,
        profile,
        dry_run=dry_run,
        on_result=lambda result: print(progress_line(result, secrets), file=sys.stderr, flush=True),
    )
    path = report_path(settings, profile)
    write_json(report, path, secrets)
    print(render_table(report, secrets), file=out)
    print(f"report: {path}", file=out, flush=True)
    return report
