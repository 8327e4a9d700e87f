"""behave's model of a finished scenario -> the report's `ScenarioResult` (support/reports).

The checks that run after a scenario's steps (uncaught page errors, unused model recordings,
cleanup) are entries of their own, after the steps: a failure there is shown where it happened,
in every report, rather than folded into the last step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from behave.model import Scenario, Step
from behave.step_registry import StepRegistry

from support.reports import ScenarioResult, ScenarioStatus, StepResult
from support.step_definitions import did_you_mean

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
) -> ScenarioResult:
    steps_failed = scenario.status.name not in ("passed", "skipped", "untested")
    error = scenario_error(scenario, registry) if steps_failed else None
    if checks:
        error = "\n".join(filter(None, [error, *(message for _, message in checks)]))
    steps = [
        StepResult(
            step.keyword,
            step.name,
            step.status.name,
            step.duration,
            _step_error(step, registry),
            line=step.line,
        )
        for step in scenario.all_steps
    ]
    steps += [StepResult("After", name, "failed", 0.0, message, hook=True) for name, message in checks]
    return ScenarioResult(
        feature_name=scenario.feature.name,
        feature_path=scenario.filename,
        name=scenario.name,
        line=scenario.line,
        tags=sorted(str(tag) for tag in scenario.effective_tags),
        status=result_status(scenario.status.name, failed=bool(checks)),
        duration_s=scenario.duration,
        steps=steps,
        error=error,
        evidence=evidence,
        worker_id=worker_id,
        attempt=attempt,
        started_at=started_at.isoformat(),
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
    for step in scenario.all_steps:
        if step.status.name == "undefined":
            return undefined_text(step, registry)
        if step.status.name in ("failed", "error") and step.error_message:
            return scenario.error_message or step.error_message
    return scenario.error_message


def result_status(behave_status: str, *, failed: bool) -> ScenarioStatus:
    # behave's hook_error/cleanup_error/undefined all mean the scenario did not pass.
    if behave_status in ("hook_error", "cleanup_error", "error"):
        return "error"
    if failed or behave_status not in ("passed", "skipped", "untested"):
        return "failed"
    return behave_status  # type: ignore[return-value]
