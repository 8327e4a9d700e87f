"""behave's model of a finished scenario -> the report's `ScenarioResult` (support/reports).

The scenario hooks that ran (support/run/record.py) are entries of their own around the
steps, and so are the checks that run after them (uncaught page errors, unused model recordings,
cleanup): a failure there is shown where it happened, in every report, rather than folded into
the last step. Each step names the definition it ran (`path:line`), the class of the exception
that failed it, and what it attached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from behave.model import Scenario, Step
from behave.step_registry import StepRegistry

from support.lint.step_definitions import did_you_mean
from support.reports import Attachment, ScenarioResult, ScenarioStatus, StepResult
from support.run.record import HookRun, Recorder

# (name of the after-scenario check, what it found)
CheckFailure = tuple[str, str]


def scenario_result(
    scenario: Scenario,
    checks: Sequence[CheckFailure],
    *,
    registry: StepRegistry,
    evidence: Mapping[str, Path],
    worker_id: str,
    attempt: int,
    started_at: datetime,
    recorder: Recorder | None = None,
) -> ScenarioResult:
    steps_failed = scenario.status.name not in ("passed", "skipped", "untested")
    hooks = recorder.hooks if recorder else []
    failed_hooks = [f"{run.keyword} hook {run.name}: {run.error}" for run in hooks if run.status == "failed"]
    error = scenario_error(scenario, registry) if steps_failed else None
    if checks or failed_hooks:
        error = "\n".join(filter(None, [error, *failed_hooks, *(message for _, message in checks)]))
    steps = [hook_result(run) for run in hooks if run.keyword == "Before"]
    steps += [_step(step, registry, recorder) for step in scenario.all_steps]
    steps += [hook_result(run) for run in hooks if run.keyword != "Before"]
    steps += [StepResult("After", name, "failed", 0.0, message, hook=True) for name, message in checks]
    if recorder and recorder.stray() and steps:
        steps[-1] = replace(steps[-1], attachments=[*steps[-1].attachments, *recorder.stray()])
    assert scenario.feature is not None, f"scenario {scenario.name!r} ran outside a feature"
    return ScenarioResult(
        feature_name=scenario.feature.name,
        feature_path=scenario.filename,
        name=scenario.name,
        line=scenario.line,
        tags=sorted(str(tag) for tag in scenario.effective_tags),
        # behave marks a failed after_scenario only once it returns: a failed hook is an error now.
        status="error" if failed_hooks else result_status(scenario.status.name, failed=bool(checks)),
        # behave's counts the steps only; the hooks (a browser context to open) take time too.
        duration_s=max(scenario.duration, sum(step.duration_s for step in steps)),
        steps=steps,
        error=error,
        evidence=evidence,
        worker_id=worker_id,
        attempt=attempt,
        started_at=min([started_at, *(run.started_at for run in hooks)]).isoformat(),  # its Before hooks'
    )


def _step(step: Step, registry: StepRegistry, recorder: Recorder | None) -> StepResult:
    match = registry.find_match(step)
    where = match.location if match is not None else None
    exception = getattr(step, "exception", None)
    return StepResult(
        step.keyword,
        step.name,
        step.status.name,
        step.duration,
        _step_error(step, registry),
        line=step.line,
        exception_type=type(exception).__name__
        if exception is not None and step.status.has_failed()
        else None,
        source=f"{where.filename}:{where.line}" if where is not None else None,
        attachments=recorder.attachments_of(step) if recorder else (),
    )


def hook_result(run: HookRun) -> StepResult:
    """A hook's run as a report entry (a scenario's, or the run's own: LaneReport.run_hooks)."""
    attachments: list[Attachment] = run.attachments
    return StepResult(
        run.keyword,
        run.name,
        run.status,
        run.duration_s,
        run.error,
        hook=True,
        exception_type=run.exception_type,
        source=run.source,
        attachments=attachments,
    )


def _step_error(step: Step, registry: StepRegistry) -> str | None:
    if step.status.name == "undefined":
        return undefined_text(step, registry)
    return step.error_message or None


def undefined_text(step: Step, registry: StepRegistry) -> str:
    hint = did_you_mean(registry, step.step_type, step.name) or "no sentence is defined yet."
    return (
        f"undefined step: {step.keyword} {step.name} ({step.location}); {hint} "
        "`make steps` lists every sentence with its file:line; reuse one rather than adding a near-duplicate"
    )


def scenario_error(scenario: Scenario, registry: StepRegistry) -> str | None:
    """behave keeps a step failure's message on the step; a hook failure's on the scenario."""
    scenario_message: str | None = scenario.error_message
    for step in scenario.all_steps:
        if step.status.name == "undefined":
            return undefined_text(step, registry)
        step_message: str | None = step.error_message
        if step.status.name in ("failed", "error") and step_message:
            return scenario_message or step_message
    return scenario_message


def result_status(behave_status: str, *, failed: bool) -> ScenarioStatus:
    # behave's hook_error/cleanup_error/undefined all mean the scenario did not pass.
    if behave_status in ("hook_error", "cleanup_error", "error"):
        return "error"
    return "failed" if failed else _NOT_FAILED.get(behave_status, "failed")


_NOT_FAILED: dict[str, ScenarioStatus] = {"passed": "passed", "skipped": "skipped", "untested": "untested"}
