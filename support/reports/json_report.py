"""Machine-readable results (`report.json`), for tools, dashboards and merging shards.

It holds everything the other reports are made from, so `read_json` + the writers rebuild the
HTML and JUnit reports of a merged run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from support.reports.model import (
    Attachment,
    Definition,
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    StepResult,
)
from support.reports.redact import redact


def write_json(report: LaneReport, path: Path, *, secrets: Iterable[str] = ()) -> None:
    known = list(secrets)
    document = {
        "run": asdict(report.run),
        "lane_failures": [
            {key: _redacted(value, known) for key, value in asdict(failure).items()}
            for failure in report.lane_failures
        ],
        # Evidence paths relative to the report, so a downloaded or merged folder still finds them.
        "scenarios": [scenario_to_dict(result, known, relative_to=path.parent) for result in report.results],
        "run_hooks": [_step(hook, known) for hook in report.run_hooks],
        "definitions": [
            {**asdict(definition), "patterns": list(definition.patterns)} for definition in report.definitions
        ],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def read_json(path: Path) -> LaneReport:
    document = json.loads(path.read_text(encoding="utf-8"))
    return LaneReport(
        run=RunInfo(**document["run"]),
        results=[scenario_from_dict(scenario, relative_to=path.parent) for scenario in document["scenarios"]],
        lane_failures=[LaneFailure(**failure) for failure in document.get("lane_failures", [])],
        definitions=[Definition(**definition) for definition in document.get("definitions", [])],
        run_hooks=[_step_from_dict(hook) for hook in document.get("run_hooks", [])],
    )


def scenario_to_dict(
    result: ScenarioResult, secrets: Iterable[str] = (), *, relative_to: Path | None = None
) -> dict[str, Any]:
    known = list(secrets)
    return {
        "feature_name": result.feature_name,
        "feature_path": result.feature_path,
        "name": result.name,
        "line": result.line,
        "tags": list(result.tags),
        "status": result.status,
        "duration_s": result.duration_s,
        "steps": [_step(step, known) for step in result.steps],
        "error": _redacted(result.error, known),
        "evidence": {
            key: os.path.relpath(path, relative_to) if relative_to else str(path)
            for key, path in result.evidence.items()
        },
        "worker_id": result.worker_id,
        "attempt": result.attempt,
        "started_at": result.started_at,
    }


def scenario_from_dict(scenario: dict[str, Any], *, relative_to: Path | None = None) -> ScenarioResult:
    evidence = {
        key: os.path.normpath(relative_to / path) if relative_to else path
        for key, path in scenario.get("evidence", {}).items()
    }
    steps = [_step_from_dict(step) for step in scenario["steps"]]
    return ScenarioResult(**{**scenario, "steps": steps, "evidence": evidence})


def _step_from_dict(step: dict[str, Any]) -> StepResult:
    return StepResult(**{**step, "attachments": [Attachment(**a) for a in step.get("attachments", [])]})


def _step(step: StepResult, secrets: list[str]) -> dict[str, Any]:
    return {
        "keyword": step.keyword,
        "name": redact(step.name, secrets),
        "status": step.status,
        "duration_s": step.duration_s,
        "error": _redacted(step.error, secrets),
        "line": step.line,
        "hook": step.hook,
        "exception_type": step.exception_type,
        "source": step.source,
        # Text bodies are redacted like any text; base64 ones (an image, a PDF) are bytes, left whole.
        "attachments": [
            {**asdict(attachment), "body": _redacted(attachment.body, secrets)}
            if attachment.encoding == "identity"
            else asdict(attachment)
            for attachment in step.attachments
        ],
    }


def _redacted(text: str | None, secrets: list[str]) -> str | None:
    return None if text is None else redact(text, secrets)
