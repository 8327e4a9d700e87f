"""behave's lifecycle for the whole suite; `environment.py` only delegates here.

- before_all: the run starts (`RunState.start`, support/run/state.py): settings, the console
  (embedded unless E2E_BASE_URL, booting while the browser launches), the API sign-in;
- before_scenario: the scenario's World starts (`World.start`, support/world.py): a fresh
  signed-in browser context and page, a replay scope when the scenario calls providers;
- before_step: the page has finished loading before the step acts;
- after_scenario: the World closes (`World.close`): the after-scenario checks, failure evidence,
  the browser context, the cleanup queues; then the scenario's report row, and a scenario whose
  steps passed fails on an uncaught page error, a replay problem, a failed cleanup or an error a
  service logged meanwhile;
- after_all: the run finishes (`RunState.finish`): the leftover audit, the zero-scenario gate,
  the reports, and teardown in reverse.

Each hook is recorded (support/run/record.py): the reports show BeforeAll, Before and After with
what they attached. The same hooks serve a serial `behave` run and a pool worker (support/lanes/):
a worker gets its scenarios from the coordinator, reports each result to it as it finishes, and
writes its own reports under `<lane>/workers/<id>/`; the coordinator owns the lane's reports and gates.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from behave.model import Scenario, Step
from behave.runner import Context
from behave.step_registry import StepRegistry

from support.browser.loading import wait_until_loaded
from support.lanes.link import WorkerLink
from support.run import step_checks
from support.run.record import definitions, install
from support.run.result import hook_result, scenario_result
from support.run.state import RunState
from support.tags import lane_name
from support.world import World


class ScenarioHygieneError(AssertionError):
    """A scenario whose steps passed but left an uncaught page error, a failed cleanup or a logged service error."""


def _raise_keyboard_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def before_all(context: Context) -> None:
    """The run's start (settings, console, browser, sign-in): its BeforeAll hook in the reports."""
    with install(context).hook("BeforeAll", before_all):  # `context.recorder`: hooks, attachments
        step_checks.install(_step_registry(context))  # a model call that misses its cassette fails its step
        # CI cancels with SIGTERM: treat it like Ctrl-C so after_all still tears everything down.
        signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
        link: WorkerLink | None = getattr(context, "pool_link", None)
        if link is not None:  # the coordinator writes the lane's reports, with every worker's definitions
            link.report_definitions([asdict(d) for d in definitions(_step_registry(context), _HOOKS)])
        context.run = RunState.start(lane_name(str(context.config.tag_expression or "")), link)


def _step_registry(context: Context) -> StepRegistry:
    """The registry this runner matches steps with. Not `behave.step_registry.registry`: behave's
    main replaces that module attribute (reset_runtime) after the step decorators were bound, so
    the steps live in the runner's."""
    registry: StepRegistry = context._runner.step_registry
    return registry


def before_scenario(context: Context, scenario: Scenario) -> None:
    """A fresh signed-in browser context and World: the scenario's Before hook in the reports."""
    with context.recorder.hook("Before", before_scenario):
        context.world = World.start(context.run, scenario)


def before_step(context: Context, step: Step) -> None:
    world: World = context.world
    if world.page_coverage is not None:  # a page the last step closed took its coverage along
        world.page_coverage.collect()
    # Whatever the last step left loading (a navigation, a reload) must finish before this one acts.
    wait_until_loaded(world.page)


def after_scenario(context: Context, scenario: Scenario) -> None:
    """Evidence, the after-scenario checks and cleanup (the scenario's After hook), then its row."""
    run: RunState = context.run
    world: World = context.world
    steps_failed = scenario.status.name not in ("passed", "skipped", "untested")
    with context.recorder.hook("After", after_scenario):
        end = world.close(run, scenario, steps_failed=steps_failed)
    result = scenario_result(
        scenario,
        end.checks,
        registry=_step_registry(context),
        evidence=end.evidence,
        worker_id=run.settings.worker_id,
        attempt=run.attempt,
        started_at=world.started_at,
        recorder=context.recorder,
    )
    run.record(result)
    if end.checks and not steps_failed:
        raise ScenarioHygieneError("\n".join(message for _, message in end.checks))


def after_all(context: Context) -> None:
    run: RunState | None = getattr(context, "run", None)  # None when before_all failed: it cleaned up
    if run is not None:
        run_hooks = [hook_result(hook) for hook in context.recorder.run_hooks]
        run.finish(definitions(_step_registry(context), _HOOKS), run_hooks)


# behave captures hook output by default; the end-of-lane summary must reach the terminal.
after_all.capture = False  # type: ignore[attr-defined]  # an attribute behave reads off the hook function
# The hooks the reports list, by keyword.
_HOOKS: dict[str, Callable[..., Any]] = {
    "BeforeAll": before_all,
    "Before": before_scenario,
    "After": after_scenario,
}
