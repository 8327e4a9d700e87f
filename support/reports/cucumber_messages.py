"""Cucumber Messages NDJSON (`cucumber-messages.ndjson`): the protocol cucumber-js, the Cucumber
HTML formatter, ReportPortal and Xray read. Every line is an `Envelope` of the official
`cucumber-messages` models, serialized by its own converter, so the output is what the schema says.

Built from the LaneReport (so a merged report of shards gets one too): meta, then each feature's
source, Gherkin document and the pickles that ran, the after-scenario checks as hooks, and one test
case per result with its steps' results; a failure screenshot is attached to the failing step.
"""

from __future__ import annotations

import base64
import json
import platform
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path

import cucumber_messages as cm

from support.reports.gherkin_source import Json, Sources, pickle_of, read_sources, started, step_starts
from support.reports.model import LaneReport, ScenarioResult, StepResult
from support.reports.redact import redact_json

PROTOCOL_VERSION = "34.2.0"  # the pinned cucumber-messages package's
_STATUS = {
    "passed": cm.TestStepResultStatus.passed,
    "failed": cm.TestStepResultStatus.failed,
    "error": cm.TestStepResultStatus.failed,
    "hook_error": cm.TestStepResultStatus.failed,
    "skipped": cm.TestStepResultStatus.skipped,
    "untested": cm.TestStepResultStatus.skipped,
    "undefined": cm.TestStepResultStatus.undefined,
    "pending": cm.TestStepResultStatus.pending,
}
_PICKLE_STEP_TYPE = {"Given": "Context", "When": "Action", "Then": "Outcome"}


def write_cucumber_messages(report: LaneReport, path: Path, *, secrets: Iterable[str] = ()) -> Path:
    known = list(secrets)
    lines = (
        json.dumps(
            redact_json(cm.message_converter.to_dict(envelope), known, skip={"body"}), ensure_ascii=False
        )
        for envelope in envelopes(report)
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def read_cucumber_messages(path: Path) -> list[cm.Envelope]:
    """Parse an NDJSON file back into `cucumber-messages` models (how the tests check it)."""
    return [
        cm.message_converter.from_dict(json.loads(line), cm.Envelope)
        for line in path.read_text(encoding="utf-8").splitlines()
        if line
    ]


def timestamp(moment: datetime) -> cm.Timestamp:
    seconds = int(moment.timestamp())
    return cm.Timestamp(seconds=seconds, nanos=moment.microsecond * 1000)


def duration(seconds: float) -> cm.Duration:
    whole = int(seconds)
    return cm.Duration(seconds=whole, nanos=round((seconds - whole) * 1e9) % 1_000_000_000)


def envelopes(report: LaneReport) -> Iterator[cm.Envelope]:
    sources = read_sources(report.results)
    yield cm.Envelope(meta=_meta())
    for source in sources.features.values():
        yield cm.Envelope(
            source=cm.Source(
                data=source.text, media_type=cm.SourceMediaType.text_x_cucumber_gherkin_plain, uri=source.uri
            )
        )
        yield cm.Envelope(
            gherkin_document=cm.message_converter.from_dict(source.document, cm.GherkinDocument)
        )
    pickles = [_pickle(sources, result) for result in report.results]
    yield from (cm.Envelope(pickle=pickle) for pickle in {p.id: p for p in pickles}.values())
    hooks = {
        step.name: f"hook-{step.name}" for result in report.results for step in result.steps if step.hook
    }
    for name, hook_id in hooks.items():
        hook = cm.Hook(
            id=hook_id,
            name=name,
            source_reference=cm.SourceReference(uri="support/hooks.py"),
            type=cm.HookType.after_test_case,
        )
        yield cm.Envelope(hook=hook)
    run_id = f"run-{report.run.run_id}"
    yield cm.Envelope(
        test_run_started=cm.TestRunStarted(timestamp=timestamp(_at(report.run.started_at)), id=run_id)
    )
    for index, (result, pickle) in enumerate(zip(report.results, pickles, strict=True)):
        yield from _test_case(report, index, result, pickle, hooks, run_id)
    yield cm.Envelope(test_run_finished=_finished(report, run_id))


def _at(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def _meta() -> cm.Meta:
    return cm.Meta(
        protocol_version=PROTOCOL_VERSION,
        implementation=cm.Product(name="agent-builder-e2e (behave)"),
        runtime=cm.Product(name="python", version=platform.python_version()),
        os=cm.Product(name=platform.system()),
        cpu=cm.Product(name=platform.machine()),
    )


def _pickle(sources: Sources, result: ScenarioResult) -> cm.Pickle:
    found: Json | None = pickle_of(sources, result)
    if found is not None:
        return cm.message_converter.from_dict(found, cm.Pickle)
    # No longer in the feature file (or never had steps, e.g. its worker died): from the result alone.
    steps = [
        cm.PickleStep(
            ast_node_ids=[],
            id=sources.next_id(),
            text=step.name,
            type=cm.PickleStepType(_PICKLE_STEP_TYPE.get(step.keyword, "Unknown")),
        )
        for step in result.steps
        if not step.hook
    ]
    return cm.Pickle(
        ast_node_ids=[],
        id=sources.next_id(),
        language="en",
        name=result.name,
        steps=steps,
        tags=[cm.PickleTag(ast_node_id="", name=tag) for tag in result.tags],
        uri=result.feature_path,
        location=cm.Location(line=result.line),
    )


def _test_case(
    report: LaneReport,
    index: int,
    result: ScenarioResult,
    pickle: cm.Pickle,
    hooks: dict[str, str],
    run_id: str,
) -> Iterator[cm.Envelope]:
    case_id, started_id = f"case-{index}", f"attempt-{index}"
    gherkin_steps = iter(pickle.steps)
    test_steps = [
        cm.TestStep(id=f"{case_id}-step-{number}", hook_id=hooks[step.name])
        if step.hook
        else cm.TestStep(
            id=f"{case_id}-step-{number}",
            pickle_step_id=next(gherkin_steps).id,
            step_definition_ids=[],
            step_match_arguments_lists=[],
        )
        for number, step in enumerate(result.steps)
    ]
    yield cm.Envelope(
        test_case=cm.TestCase(
            id=case_id, pickle_id=pickle.id, test_steps=test_steps, test_run_started_id=run_id
        )
    )
    begin = started(result, report.run.started_at)
    yield cm.Envelope(
        test_case_started=cm.TestCaseStarted(
            attempt=result.attempt - 1,
            id=started_id,
            test_case_id=case_id,
            timestamp=timestamp(begin),
            worker_id=result.worker_id,
        )
    )
    starts = step_starts(result, report.run.started_at)
    failing = result.failing_step()
    for step, test_step, start in zip(result.steps, test_steps, starts, strict=True):
        yield from _step(result, step, test_step.id, started_id, start, attach=step is failing)
    end = starts[-1] if starts else begin
    finished = cm.TestCaseFinished(
        test_case_started_id=started_id, timestamp=timestamp(end), will_be_retried=False
    )
    yield cm.Envelope(test_case_finished=finished)


def _step(
    result: ScenarioResult, step: StepResult, step_id: str, started_id: str, start: datetime, *, attach: bool
) -> Iterator[cm.Envelope]:
    yield cm.Envelope(
        test_step_started=cm.TestStepStarted(
            test_case_started_id=started_id, test_step_id=step_id, timestamp=timestamp(start)
        )
    )
    screenshot = result.evidence.get("screenshot")
    if attach and screenshot is not None and screenshot.is_file():
        yield cm.Envelope(
            attachment=cm.Attachment(
                body=base64.b64encode(screenshot.read_bytes()).decode("ascii"),
                content_encoding=cm.AttachmentContentEncoding.base64,
                media_type="image/png",
                file_name=screenshot.name,
                test_case_started_id=started_id,
                test_step_id=step_id,
                timestamp=timestamp(start),
            )
        )
    step_result = cm.TestStepResult(
        duration=duration(step.duration_s),
        status=_STATUS.get(step.status, cm.TestStepResultStatus.unknown),
        message=step.error,
        exception=cm.Exception(type="AssertionError", message=step.error.splitlines()[0])
        if step.error
        else None,
    )
    end = timestamp(datetime.fromtimestamp(start.timestamp() + step.duration_s, tz=start.tzinfo))
    yield cm.Envelope(
        test_step_finished=cm.TestStepFinished(
            test_case_started_id=started_id, test_step_id=step_id, test_step_result=step_result, timestamp=end
        )
    )


def _finished(report: LaneReport, run_id: str) -> cm.TestRunFinished:
    end = datetime.fromtimestamp(
        _at(report.run.started_at).timestamp() + report.run.duration_s, tz=_at(report.run.started_at).tzinfo
    )
    failures = "\n".join(
        f"[{f.kind}] {f.message}" + (f"\nFix: {f.fix}" if f.fix else "") for f in report.lane_failures
    )
    return cm.TestRunFinished(
        success=not report.failed,
        timestamp=timestamp(end),
        message=failures or None,
        test_run_started_id=run_id,
    )
