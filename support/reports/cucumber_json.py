"""Cucumber JSON (`cucumber.json`): the older format Jenkins' Cucumber reports, Allure and many
dashboards read. One feature object per feature file, one element per scenario run, each step with
its result (`duration` in nanoseconds) and, on the failing step, the failure screenshot embedded.

Built from the LaneReport like every report (so a merged report of shards gets one too); the
feature's keyword, line and description come from the feature file when it is still there.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from support.naming import scenario_slug
from support.reports.gherkin_source import FeatureSource, Sources, pickle_of, read_sources
from support.reports.model import LaneReport, ScenarioResult, StepResult
from support.reports.redact import redact_json

_STATUS = {"error": "failed", "hook_error": "failed", "untested": "skipped"}


def write_cucumber_json(report: LaneReport, path: Path, *, secrets: Iterable[str] = ()) -> Path:
    document = redact_json(cucumber_json(report), list(secrets), skip={"data"})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _slug(text: str) -> str:
    # Unicode-safe and unique per name: an ASCII-only slug made `""` and `";"` of Chinese names.
    return scenario_slug(text, max_bytes=1000)


def cucumber_json(report: LaneReport) -> list[dict[str, Any]]:
    sources = read_sources(report.results)
    features: dict[str, dict[str, Any]] = {}
    for result in report.results:
        feature = features.get(result.feature_path)
        if feature is None:
            feature = features[result.feature_path] = _feature(
                result, sources.features.get(result.feature_path)
            )
        feature["elements"].append(_element(sources, result, feature["id"]))
    return list(features.values())


def _feature(result: ScenarioResult, source: FeatureSource | None) -> dict[str, Any]:
    parsed = source.feature if source else {}
    return {
        "uri": result.feature_path,
        "id": _slug(result.feature_name),
        "keyword": parsed.get("keyword", "Feature"),
        "name": result.feature_name,
        "line": parsed.get("location", {}).get("line", 1),
        "description": parsed.get("description", ""),
        "tags": [{"name": tag["name"], "line": tag["location"]["line"]} for tag in parsed.get("tags", ())],
        "elements": [],
    }


def _element(sources: Sources, result: ScenarioResult, feature_id: str) -> dict[str, Any]:
    pickle = pickle_of(sources, result)
    attempt = f";attempt-{result.attempt}" if result.attempt > 1 else ""
    steps = [_step(result, step) for step in result.steps if not step.hook]
    before = [_hook(step) for step in result.steps if step.hook and step.keyword == "Before"]
    after = [_hook(step) for step in result.steps if step.hook and step.keyword != "Before"]
    element: dict[str, Any] = {
        "id": f"{feature_id};{_slug(result.name)}{attempt}",
        "keyword": "Scenario",
        "name": pickle["name"] if pickle else result.name,
        "line": result.line,
        "description": "",
        "type": "scenario",
        "tags": [{"name": tag} for tag in result.tags],
        "steps": steps,
    }
    if result.started_at:
        element["start_timestamp"] = result.started_at
    if before:
        element["before"] = before
    if after:
        element["after"] = after
    return element


def _result(step: StepResult) -> dict[str, Any]:
    result: dict[str, Any] = {
        "status": _STATUS.get(step.status, step.status),
        "duration": int(step.duration_s * 1e9),
    }
    if step.error:
        result["error_message"] = step.error
    return result


def _step(result: ScenarioResult, step: StepResult) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "keyword": f"{step.keyword} ",
        "name": step.name,
        "line": step.line or result.line,
        "result": _result(step),
    }
    if step.source:
        entry["match"] = {"location": step.source}
    embeddings = _embeddings(step)
    screenshot = result.evidence.get("screenshot")
    if step is result.failing_step() and screenshot is not None and screenshot.is_file():
        data = base64.b64encode(screenshot.read_bytes()).decode("ascii")
        embeddings.append({"mime_type": "image/png", "data": data, "name": screenshot.name})
    if embeddings:
        entry["embeddings"] = embeddings
    return entry


def _embeddings(step: StepResult) -> list[dict[str, Any]]:
    """What the step attached, base64 as the format wants (a file linked by url has no body here)."""
    found = []
    for item in step.attachments:
        if item.url is not None:
            continue
        data = item.body if item.encoding == "base64" else base64.b64encode(item.body.encode()).decode()
        found.append(
            {
                "mime_type": item.media_type,
                "data": data,
                **({"name": item.file_name} if item.file_name else {}),
            }
        )
    return found


def _hook(step: StepResult) -> dict[str, Any]:
    location = step.source or f"support/hooks.py ({step.name})"
    hook: dict[str, Any] = {"match": {"location": location}, "result": _result(step)}
    if embeddings := _embeddings(step):
        hook["embeddings"] = embeddings
    return hook
