"""What report.html shows, computed from the LaneReport for its template (templates/report.html):
scenarios grouped by feature file, each step's share of its scenario's longest step, what each
step attached, the failure evidence, the lane's timeline per worker and its slowest scenarios.

Every free text passes through `redact` here, before the template (which escapes it) sees it.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from support.reports.model import (
    OK_STATUSES,
    STATUS_ORDER,
    Attachment,
    LaneReport,
    ScenarioResult,
    StepResult,
    status_counts,
)
from support.reports.redact import redact

_EVIDENCE_LABELS = {"trace": "Playwright trace", "html": "page HTML", "console": "console log"}
_PLAYWRIGHT = ".venv/bin/playwright"  # what `make setup` installs; run from the project root
_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
_SLOWEST = 10


def clock(iso: str) -> str:
    """`2025-01-01T10:00:01.5+00:00` -> `2025-01-01 10:00:01 UTC`: what a person reads."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S") + (" UTC" if moment.tzinfo is not None else "")


def seconds(value: float) -> str:
    """`0.42s`, `12.3s`, `2m 05s`, `1h 02m`."""
    if value < 10:
        return f"{value:.2f}s"
    if value < 60:
        return f"{value:.1f}s"
    minutes, rest = divmod(round(value), 60)
    if minutes < 60:
        return f"{minutes}m {rest:02d}s"
    return f"{minutes // 60}h {minutes % 60:02d}m"


def tone(status: str) -> str:
    return "ok" if status == "passed" else status if status in ("skipped", "untested") else "bad"


@dataclass
class AttachmentView:
    kind: str  # "image", "text", "file" (a data: download) or "link" (a file beside the report)
    label: str
    media_type: str
    text: str = ""
    href: str = ""


@dataclass
class StepView:
    step: StepResult
    tone: str
    name: str
    width: float  # percent of the scenario's longest step
    error: str | None  # shown under the step when it differs from the scenario's
    attachments: list[AttachmentView]


@dataclass
class ScenarioView:
    index: int
    result: ScenarioResult
    tone: str
    error: str | None
    failing: str | None  # "keyword name" of the failing step
    steps: list[StepView]
    screenshot: str | None  # data: URI
    screenshot_missing: str | None
    links: list[tuple[str, str, str | None]]  # (label, href, show-trace command)
    search: str  # lower-case text the search box matches: names, steps, location
    tags: list[str]  # each with its "@" (behave's own drop it)


@dataclass
class FeatureView:
    name: str
    path: str
    scenarios: list[ScenarioView] = field(default_factory=list)

    @property
    def counts(self) -> list[tuple[str, int]]:
        return status_counts(view.result for view in self.scenarios)


@dataclass
class Bar:
    scenario: ScenarioView
    left: float  # percent of the lane's span
    width: float


@dataclass
class Timeline:
    span_s: float
    rows: list[tuple[str, list[Bar]]]  # (worker id, its scenarios)
    ticks: list[tuple[float, str]]  # (percent, label)


def attachment_view(item: Attachment, secrets: list[str]) -> AttachmentView:
    label = item.file_name or item.media_type
    if item.url is not None:
        return AttachmentView("link", label, item.media_type, href=quote(item.url))
    if item.encoding == "base64":
        data = f"data:{item.media_type};base64,{item.body}"
        kind = "image" if item.media_type.startswith("image/") else "file"
        return AttachmentView(kind, label, item.media_type, href=data)
    if item.media_type.startswith("image/svg"):
        encoded = base64.b64encode(item.body.encode("utf-8")).decode("ascii")
        return AttachmentView(
            "image", label, item.media_type, href=f"data:{item.media_type};base64,{encoded}"
        )
    return AttachmentView("text", label, item.media_type, text=redact(item.body, secrets))


def _steps(result: ScenarioResult, secrets: list[str]) -> list[StepView]:
    longest = max((step.duration_s for step in result.steps), default=0.0)
    return [
        StepView(
            step,
            tone(step.status),
            redact(step.name, secrets),
            100 * step.duration_s / longest if longest else 0.0,
            redact(step.error, secrets) if step.error and step.error != result.error else None,
            [attachment_view(item, secrets) for item in step.attachments],
        )
        for step in result.steps
    ]


Links = list[tuple[str, str, str | None]]  # (label, href, show-trace command)


def _evidence(result: ScenarioResult, report_dir: Path) -> tuple[str | None, str | None, Links]:
    screenshot = missing = None
    path = result.evidence.get("screenshot")
    if path is not None and path.is_file():
        media_type = _IMAGE_TYPES.get(path.suffix.lower(), "image/png")
        screenshot = f"data:{media_type};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"
    elif path is not None:
        missing = str(path)
    links: Links = []
    for key, where in result.evidence.items():
        if key != "screenshot":
            href = quote(Path(os.path.relpath(where, report_dir)).as_posix())
            command = f"{_PLAYWRIGHT} show-trace {where}" if key == "trace" else None
            links.append((_EVIDENCE_LABELS.get(key, key), href, command))
    return screenshot, missing, links


def scenario_view(index: int, result: ScenarioResult, report_dir: Path, secrets: list[str]) -> ScenarioView:
    steps = _steps(result, secrets)
    failing = result.failing_step()
    screenshot, missing, links = _evidence(result, report_dir)
    words = [result.feature_name, result.name, result.location, *(view.name for view in steps)]
    return ScenarioView(
        index=index,
        result=result,
        tone="bad" if result.failed else tone(result.status),
        error=redact(result.error, secrets) if result.error else None,
        failing=f"{failing.keyword} {redact(failing.name, secrets)}" if failing else None,
        steps=steps,
        screenshot=screenshot,
        screenshot_missing=missing,
        links=links,
        search=" ".join(words).lower(),
        tags=[_tag(tag) for tag in result.tags],
    )


def features(views: Iterable[ScenarioView]) -> list[FeatureView]:
    """Scenarios grouped by feature file, in the order the report lists them."""
    grouped: dict[str, FeatureView] = {}
    for view in views:
        path = view.result.feature_path
        grouped.setdefault(path, FeatureView(view.result.feature_name, path)).scenarios.append(view)
    return list(grouped.values())


def timeline(report: LaneReport, views: Sequence[ScenarioView]) -> Timeline | None:
    """Each worker a row, each scenario a bar from its start (since the lane's) for its duration."""
    try:
        origin = datetime.fromisoformat(report.run.started_at)
    except ValueError:
        return None
    placed = [
        (view, (datetime.fromisoformat(view.result.started_at) - origin).total_seconds())
        for view in views
        if view.result.started_at
    ]
    if not placed:
        return None
    span = max([report.run.duration_s, *(start + view.result.duration_s for view, start in placed)])
    span = span or 1.0
    rows: dict[str, list[Bar]] = {}
    for view, start in sorted(placed, key=lambda item: (item[0].result.worker_id, item[1])):
        bar = Bar(view, 100 * max(start, 0.0) / span, max(100 * view.result.duration_s / span, 0.3))
        rows.setdefault(view.result.worker_id, []).append(bar)
    ticks = [(100 * part / 4, seconds(span * part / 4)) for part in range(5)]
    return Timeline(span, sorted(rows.items()), ticks)


def slowest(views: Sequence[ScenarioView]) -> list[ScenarioView]:
    return sorted(views, key=lambda view: view.result.duration_s, reverse=True)[:_SLOWEST]


def statuses(results: Sequence[ScenarioResult]) -> list[tuple[str, int, bool]]:
    """(status, count, ok) of each status present, for the status filters."""
    return [(status, count, status in OK_STATUSES) for status, count in status_counts(results)]


def count_class(status: str) -> str:
    return status if status in STATUS_ORDER else "other"


def _tag(tag: str) -> str:
    return tag if tag.startswith("@") else f"@{tag}"


def tags(results: Iterable[ScenarioResult]) -> list[str]:
    return sorted({_tag(tag) for result in results for tag in result.tags})


def run_hooks(report: LaneReport, secrets: list[str]) -> list[StepView]:
    """The run's before_all/after_all, for the header."""
    return [
        StepView(
            hook,
            tone(hook.status),
            redact(hook.name, secrets),
            0.0,
            redact(hook.error, secrets) if hook.error else None,
            [attachment_view(item, secrets) for item in hook.attachments],
        )
        for hook in report.run_hooks
    ]
