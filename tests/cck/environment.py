"""The behave environment of a CCK sample's run: what support/hooks.py does for a lane, less the
browser and the console. The runner's step definitions and the sample's hooks become the report's
definitions, each scenario a `ScenarioResult` row (support/run/result.py, with the
recorder's hooks and attachments), and the run a lane's report folder, written by the lane's own
writers into `-D report_dir=...`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from behave.model import Scenario
from behave.runner import Context

from support.reports import LaneReport, RunInfo, write_lane_reports
from support.run.record import Recorder, hook_definition, install, parameter_types, step_definitions
from support.run.result import hook_result, scenario_result
from tests.cck.hooks import HOOKS, SKIPPED, Hook


def before_all(context: Context) -> None:
    context.cck_results = []
    context.cck_started_at = datetime.now(UTC)
    recorder = install(context)
    failure: BaseException | None = None
    for hook in _hooks("BeforeAll"):  # all of them, as the kit's: a failure does not stop the others
        try:
            with recorder.hook(hook.keyword, hook.function, hook.name):
                hook.function(context)
        except Exception as error:  # noqa: BLE001 - behave gets the first failure once all ran
            failure = failure or error
    if failure is not None:
        raise failure


def before_scenario(context: Context, scenario: Scenario) -> None:
    context.cck_scenario_started_at = datetime.now(UTC)
    recorder: Recorder = context.recorder
    failure: BaseException | None = None
    skipping = False
    for hook in _hooks("Before", scenario):
        if skipping or failure is not None:
            recorder.skipped(hook.keyword, hook.function, hook.name)
            continue
        try:
            with recorder.hook(hook.keyword, hook.function, hook.name) as run:
                outcome = hook.function(context)
        except Exception as error:  # noqa: BLE001 - the later hooks are skipped, then behave gets it
            failure = error
            continue
        if outcome == SKIPPED:
            run.status, skipping = "skipped", True
            scenario.skip()
    if failure is not None:
        raise failure


def after_scenario(context: Context, scenario: Scenario) -> None:
    recorder: Recorder = context.recorder
    failure: BaseException | None = None
    for hook in reversed(_hooks("After", scenario)):  # Cucumber runs After hooks last-defined first
        try:
            with recorder.hook(hook.keyword, hook.function, hook.name) as run:
                outcome = hook.function(context)
        except Exception as error:  # noqa: BLE001 - every After hook runs, then behave gets the first failure
            failure = failure or error
            continue
        if outcome == SKIPPED:
            run.status = "skipped"
    result = scenario_result(
        scenario,
        [],
        registry=context._runner.step_registry,
        evidence={},
        worker_id="w1",
        attempt=1,
        started_at=context.cck_scenario_started_at,
        recorder=recorder,
    )
    context.cck_results.append(result)
    if failure is not None:
        raise failure


def after_all(context: Context) -> None:
    recorder: Recorder = context.recorder
    failure: BaseException | None = None
    for hook in reversed(_hooks("AfterAll")):  # last-defined first, all of them
        try:
            with recorder.hook(hook.keyword, hook.function, hook.name):
                hook.function(context)
        except Exception as error:  # noqa: BLE001 - behave gets the first failure once the report is written
            failure = failure or error
    _write_report(context)
    if failure is not None:
        raise failure


def _write_report(context: Context) -> None:
    started_at: datetime = context.cck_started_at
    run = RunInfo(
        lane="cck",
        run_id="cck",
        base_url=None,
        started_at=started_at.isoformat(),
        duration_s=(datetime.now(UTC) - started_at).total_seconds(),
    )
    definitions = [*parameter_types(), *step_definitions(context._runner.step_registry)]
    definitions += [hook_definition(hook.keyword, hook.function, hook.name) for hook in HOOKS]
    run_hooks = [hook_result(hook) for hook in context.recorder.run_hooks]
    report = LaneReport(run, context.cck_results, definitions=definitions, run_hooks=run_hooks)
    write_lane_reports(report, Path(context.config.userdata["report_dir"]))


def _hooks(keyword: str, scenario: Scenario | None = None) -> list[Hook]:
    return [
        hook for hook in HOOKS if hook.keyword == keyword and (scenario is None or hook.applies_to(scenario))
    ]
