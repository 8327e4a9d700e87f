"""Cucumber Messages NDJSON (`cucumber-messages.ndjson`): the protocol cucumber-js, the Cucumber
HTML formatter, ReportPortal and Xray read. Every line is an `Envelope` of the official
`cucumber-messages` models, serialized by its own converter, so the output is what the schema says.

Built from the LaneReport (so a merged report of shards gets one too): meta, then each feature's
source, Gherkin document and the pickles that ran, the step definitions and scenario hooks
(cucumber_glue.py), and one test case per result: its hooks and steps, each with its result (the
exception's class), what it attached and, when undefined, a suggested definition. The failure
screenshot is attached to the failing step, the other evidence linked from the scenario's last
entry.
"""

from __future__ import annotations

import json
import platform
from collections.abc import Generator, Iterable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

import cucumber_messages as cm

from support.reports.cucumber_glue import Glue, attachment, evidence_attachments, hook_key, suggestion
from support.reports.gherkin_source import Json, Sources, pickle_of, read_sources, started, step_starts
from support.reports.model import Attachment, LaneReport, ScenarioResult, StepResult
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
        for envelope in envelopes(report, path.parent)
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


def envelopes(report: LaneReport, report_dir: Path | None = None) -> Iterator[cm.Envelope]:
    """The run's messages; `report_dir` is where evidence links (`url`) are relative to."""
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
    glue = Glue(report.definitions, report.results, report.run_hooks)
    yield from glue.envelopes()
    run_id = f"run-{report.run.run_id}"
    yield cm.Envelope(
        test_run_started=cm.TestRunStarted(timestamp=timestamp(_at(report.run.started_at)), id=run_id)
    )
    cases = [
        _test_case(index, result, pickle, glue, run_id)
        for index, (result, pickle) in enumerate(zip(report.results, pickles, strict=True))
    ]
    before_all = [hook for hook in report.run_hooks if hook.keyword != "AfterAll"]
    moment = yield from _run_hooks(before_all, glue, run_id, _at(report.run.started_at), "before-all")
    yield from (cm.Envelope(test_case=case) for case in cases)
    for result, pickle, case in zip(report.results, pickles, cases, strict=True):
        moment = max(moment, (yield from _test_case_run(report, result, pickle, case, report_dir)))
    after_all = [hook for hook in report.run_hooks if hook.keyword == "AfterAll"]
    yield from _run_hooks(after_all, glue, run_id, moment, "after-all")
    yield cm.Envelope(test_run_finished=_finished(report, run_id))


def _run_hooks(
    hooks: list[StepResult], glue: Glue, run_id: str, start: datetime, prefix: str
) -> Generator[cm.Envelope, None, datetime]:
    """behave's before_all/after_all as test run hooks, one after the other from `start`; returns
    when the last one finished."""
    for index, hook in enumerate(hooks):
        started_id = f"{prefix}-{index}"
        hook_id = glue.hooks[hook_key(hook.keyword, hook.name, hook.source)]
        yield cm.Envelope(
            test_run_hook_started=cm.TestRunHookStarted(
                hook_id=hook_id, id=started_id, test_run_started_id=run_id, timestamp=timestamp(start)
            )
        )
        for item in hook.attachments:
            yield cm.Envelope(
                attachment=cm.Attachment(
                    **attachment(item),
                    test_run_hook_started_id=started_id,
                    timestamp=timestamp(start),
                )
            )
        start = _after(start, hook.duration_s)
        finished = cm.TestRunHookFinished(
            result=_result(hook), test_run_hook_started_id=started_id, timestamp=timestamp(start)
        )
        yield cm.Envelope(test_run_hook_finished=finished)
    return start


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


def _test_case(index: int, result: ScenarioResult, pickle: cm.Pickle, glue: Glue, run_id: str) -> cm.TestCase:
    case_id = f"case-{index}"
    gherkin_steps = iter(pickle.steps)
    test_steps = [
        glue.test_step(f"{case_id}-step-{number}", step, None if step.hook else next(gherkin_steps).id)
        for number, step in enumerate(result.steps)
    ]
    return cm.TestCase(id=case_id, pickle_id=pickle.id, test_steps=test_steps, test_run_started_id=run_id)


def _test_case_run(
    report: LaneReport, result: ScenarioResult, pickle: cm.Pickle, case: cm.TestCase, report_dir: Path | None
) -> Generator[cm.Envelope, None, datetime]:
    started_id = case.id.replace("case-", "attempt-")
    begin = started(result, report.run.started_at)
    yield cm.Envelope(
        test_case_started=cm.TestCaseStarted(
            attempt=result.attempt - 1,
            id=started_id,
            test_case_id=case.id,
            timestamp=timestamp(begin),
            worker_id=result.worker_id,
        )
    )
    starts = step_starts(result, report.run.started_at)
    failing = result.failing_step()
    pickle_steps = {step.id: step for step in pickle.steps}
    end = begin
    for number, (step, test_step, start) in enumerate(
        zip(result.steps, case.test_steps, starts, strict=True)
    ):
        evidence = []
        if step is failing:
            evidence += evidence_attachments(result, report_dir, on_failing_step=True)
        if number == len(result.steps) - 1:
            evidence += evidence_attachments(result, report_dir, on_failing_step=False)
        pickle_step = pickle_steps.get(test_step.pickle_step_id or "")
        if step.status == "undefined" and pickle_step is not None:
            yield cm.Envelope(suggestion=suggestion(f"suggestion-{test_step.id}", pickle_step))
        yield from _step(step, test_step.id, started_id, start, [*step.attachments, *evidence])
        end = _after(start, step.duration_s)
    finished = cm.TestCaseFinished(
        test_case_started_id=started_id, timestamp=timestamp(end), will_be_retried=False
    )
    yield cm.Envelope(test_case_finished=finished)
    return end


def _after(start: datetime, seconds: float) -> datetime:
    return start + timedelta(seconds=seconds)


def _step(
    step: StepResult, step_id: str, started_id: str, start: datetime, attachments: list[Attachment]
) -> Iterator[cm.Envelope]:
    yield cm.Envelope(
        test_step_started=cm.TestStepStarted(
            test_case_started_id=started_id, test_step_id=step_id, timestamp=timestamp(start)
        )
    )
    for item in attachments:
        yield cm.Envelope(
            attachment=cm.Attachment(
                **attachment(item),
                test_case_started_id=started_id,
                test_step_id=step_id,
                timestamp=timestamp(start),
            )
        )
    step_result = _result(step)
    yield cm.Envelope(
        test_step_finished=cm.TestStepFinished(
            test_case_started_id=started_id,
            test_step_id=step_id,
            test_step_result=step_result,
            timestamp=timestamp(_after(start, step.duration_s)),
        )
    )


def _result(step: StepResult) -> cm.TestStepResult:
    status = _STATUS.get(step.status, cm.TestStepResultStatus.unknown)
    exception = None
    if step.exception_type:
        exception = cm.Exception(
            type=step.exception_type, message=_message(step.error), stack_trace=step.error
        )
    return cm.TestStepResult(
        duration=duration(step.duration_s), status=status, message=step.error, exception=exception
    )


def _message(error: str | None) -> str | None:
    """The exception's own message: a Python traceback's last line (`KeyError: 'x'`), else the
    error's first (behave's `ASSERT FAILED: ...`)."""
    lines = [line for line in (error or "").splitlines() if line.strip()]
    if not lines:
        return None
    return lines[-1] if lines[0].startswith("Traceback (most recent call last)") else lines[0]


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
