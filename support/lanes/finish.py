"""Where a lane's artifacts go, and how every lane run ends: one folder function and one
`finish_lane` for every path (a serial `behave` run's after_all, the worker pool's coordinator,
and `ci.post_merge` and `ci.deployed` when the lane could not start).

A finished lane has its reports in `<artifacts>/<lane>/` (JSON, HTML, JUnit, rerun file, Cucumber
Messages and JSON), its rerun file also as `<artifacts>/rerun.txt` (what `make rerun` reads), the
index of every lane at `<artifacts>/index.html`, and its summary on stderr.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from support.lanes.plan import LanePlan
from support.reports import LaneFailure, LaneReport, RunInfo, publish_lane, summary_text
from support.settings import Settings
from support.tags import LANES

ADHOC = "adhoc"  # the folder of a run with tags of its own, not a named lane's


def lane_folder(settings: Settings, lane: str) -> Path:
    """`<artifacts>/<lane>`, or `<artifacts>/adhoc` for a run with tags of its own."""
    return settings.artifacts_dir / (lane if lane in LANES else ADHOC)


def fresh_lane_folder(settings: Settings, lane: str) -> Path:
    """The lane's folder, emptied: evidence of an earlier run would mislead."""
    folder = lane_folder(settings, lane)
    shutil.rmtree(folder, ignore_errors=True)
    return folder


def finish_lane(
    report: LaneReport, settings: Settings, *, secrets: Iterable[str] | None = None
) -> list[Path]:
    """Publish the lane's reports (redacting `secrets`, by default the settings' own) and print its
    summary; returns the reports' paths."""
    known = settings.secret_values() if secrets is None else secrets
    paths = publish_lane(
        report, lane_folder(settings, report.run.lane), settings.artifacts_dir, secrets=known
    )
    print(summary_text(report, reports=paths), file=sys.stderr, flush=True)
    return paths


def lane_run_info(
    plan: LanePlan,
    settings: Settings,
    *,
    started_at: datetime,
    duration_s: float,
    workers: int,
    stage_durations: Mapping[str, float] | None = None,
) -> RunInfo:
    """How a pooled lane ran, for its report (and for `make rerun`, which repeats it)."""
    return RunInfo(
        lane=plan.lane,
        run_id=settings.run_id,
        base_url=settings.base_url or "embedded, one console per worker",
        started_at=started_at.isoformat(),
        duration_s=duration_s,
        stage_durations=dict(stage_durations or {}),
        workers=workers,
        shard=str(plan.shard) if plan.shard else None,
        repeat=plan.repeat,
        settings={"E2E_START_AGENT_BACKEND": "1"} if settings.start_agent_backend else {},
        excluded=plan.excluded,
        order=plan.order,
    )


def finish_without_run(
    plan: LanePlan,
    settings: Settings,
    failures: Sequence[LaneFailure],
    *,
    workers: int,
    stage_durations: Mapping[str, float],
) -> None:
    """The lane's reports when it could not start (a seed blocked, a service did not start), so
    they say why, as the exit code does. Its console is the one the settings name, if any: none
    was started."""
    run = lane_run_info(
        plan,
        settings,
        started_at=datetime.now(UTC),
        duration_s=sum(stage_durations.values()),
        workers=workers,
        stage_durations=stage_durations,
    )
    finish_lane(LaneReport(replace(run, base_url=settings.base_url), (), failures), settings)
