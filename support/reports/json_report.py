"""Machine-readable results (`report.json`), for tools and dashboards."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from support.reports.model import RunInfo, ScenarioResult, StepResult
from support.reports.redact import redact


def write_json(
    results: Sequence[ScenarioResult], run: RunInfo, path: Path, *, secrets: Iterable[str] = ()
) -> None:
    known = list(secrets)
    document = {
        "run": {
            "lane": run.lane,
            "run_id": run.run_id,
            "base_url": run.base_url,
            "started_at": run.started_at,
            "duration_s": run.duration_s,
            "stage_durations": dict(run.stage_durations),
        },
        "scenarios": [_scenario(result, known) for result in results],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def read_json(path: Path) -> tuple[list[ScenarioResult], RunInfo]:
    document = json.loads(path.read_text(encoding="utf-8"))
    results = [
        ScenarioResult(
            **{**scenario, "steps": [StepResult(**step) for step in scenario["steps"]]},
        )
        for scenario in document["scenarios"]
    ]
    return results, RunInfo(**document["run"])


def _scenario(result: ScenarioResult, secrets: list[str]) -> dict[str, Any]:
    return {
        "feature_name": result.feature_name,
        "feature_path": result.feature_path,
        "name": result.name,
        "line": result.line,
        "tags": list(result.tags),
        "status": result.status,
        "duration_s": result.duration_s,
        "steps": [_step(step, secrets) for step in result.steps],
        "error": _redacted(result.error, secrets),
        "evidence": {key: str(path) for key, path in result.evidence.items()},
    }


def _step(step: StepResult, secrets: list[str]) -> dict[str, Any]:
    return {
        "keyword": step.keyword,
        "name": redact(step.name, secrets),
        "status": step.status,
        "duration_s": step.duration_s,
        "error": _redacted(step.error, secrets),
    }


def _redacted(text: str | None, secrets: list[str]) -> str | None:
    return None if text is None else redact(text, secrets)
