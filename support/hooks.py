"""behave lifecycle for the whole suite; `environment.py` only delegates here.

before_all: settings -> embedded console (unless E2E_BASE_URL), booting while the browser launches
-> API sign-in.
Per scenario: a fresh signed-in browser context and World; afterwards failure evidence, typed
cleanup, and failing a passed scenario on an uncaught page error or a cleanup error.
after_all: the leftover audit, the zero-scenario gate, reports, and teardown in reverse.

The same hooks serve a serial `behave` run and a pool worker (support/lanes): a worker gets
its scenarios from the coordinator, reports each result to it as it finishes, and writes its own
reports under `<lane>/workers/<id>/`; the coordinator owns the lane's reports and gates.
"""

from __future__ import annotations

import itertools
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from behave.model import Scenario, Step
from behave.runner import Context
from behave.step_registry import StepRegistry
from playwright.sync_api import Page, expect

from support import step_checks
from support.api.console import ConsoleClient, sign_in
from support.browser.evidence import capture, save_trace, scenario_dir
from support.browser.loading import wait_until_loaded, wait_until_quiet
from support.browser.origin_guard import guard_origin
from support.browser.session import BrowserSession
from support.lanes.audit import leftover_failure
from support.lanes.finish import finish_lane, fresh_lane_folder, lane_folder
from support.lanes.link import WorkerLink
from support.replay.control import ReplayControl
from support.replay.explain import leftover_text, misses_text
from support.reports import (
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    scenario_to_dict,
    summary_text,
    write_lane_reports,
    zero_scenarios_failure,
)
from support.scenario_record import definitions, install
from support.scenario_result import CheckFailure, hook_result, scenario_result
from support.settings import Settings, load_settings
from support.stack import Launch, Stack, console_command, launch_service, wait_healthy
from support.tags import EXTERNAL_MODEL, EXTERNAL_TOOL, MICROPHONE, lane_name
from support.tls import use_network_settings
from support.ui.embedding_site import EMBEDDING_SITE
from support.world import World


@dataclass
class RunState:
    settings: Settings
    stack: Stack
    console_url: str
    console: ConsoleClient
    storage_state: dict[str, Any]
    browser: BrowserSession
    started_at: datetime
    stage_durations: dict[str, float]
    secrets: set[str]
    replay: ReplayControl | None  # the lane's record/replay server (E2E_REPLAY_URL), if any
    lane: str
    lane_dir: Path  # artifacts/<lane>: evidence of every scenario of the lane
    report_dir: Path  # where this process writes its reports: lane_dir, or lane_dir/workers/<id>
    link: WorkerLink | None  # set when this process is a pool worker
    name_counter: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    creators: dict[str, str] = field(default_factory=dict)  # created name -> its scenario
    results: list[ScenarioResult] = field(default_factory=list)


class LaneFailed(RuntimeError):
    """The lane failed as a whole (zero scenarios, leftovers); the reports say why."""


class ScenarioHygieneError(AssertionError):
    """A scenario whose steps passed but left an uncaught page error or a failed cleanup."""


@contextmanager
def _stage(durations: dict[str, float], name: str) -> Iterator[None]:
    started = time.monotonic()
    yield
    durations[name] = time.monotonic() - started


def _raise_keyboard_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def before_all(context: Context) -> None:
    """The run's start (settings, console, browser, sign-in): its BeforeAll hook in the reports."""
    with install(context).hook("BeforeAll", before_all):  # `context.recorder`: hooks, attachments
        _start_run(context)


def _start_run(context: Context) -> None:
    step_checks.install(_step_registry(context))  # a model call that misses its cassette fails its step
    # CI cancels with SIGTERM: treat it like Ctrl-C so after_all still tears everything down.
    signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
    started_at = datetime.now(UTC)
    stages: dict[str, float] = {}
    with _stage(stages, "settings"):
        settings = load_settings()
        use_network_settings(settings)
    if settings.start_agent_backend:
        # The console must be started pointing at the runtime, so starting it is the orchestrator's job.
        raise RuntimeError(
            "E2E_START_AGENT_BACKEND=1 is handled by the post-merge orchestrator, which starts shellctl and "
            "the runtime before the console it wires to them, then seeds: run "
            "`E2E_START_AGENT_BACKEND=1 make post-merge ARGS='<behave args>'`, or use running services "
            "with E2E_AGENT_BACKEND_URL and E2E_SHELLCTL_URL."
        )
    expect.set_options(timeout=settings.timeout_ms)
    stack = Stack()
    context.stack = stack  # torn down by after_all even if a later stage fails
    link: WorkerLink | None = getattr(context, "pool_link", None)
    lane = lane_name(str(context.config.tag_expression or ""))
    lane_dir = fresh_lane_folder(settings, lane) if link is None else lane_folder(settings, lane)
    report_dir = lane_dir if link is None else lane_dir / "workers" / link.worker_id
    if link is not None:  # the coordinator writes the lane's reports, with every worker's definitions
        link.report_definitions([asdict(d) for d in definitions(_step_registry(context), _HOOKS)])
    console, browser = _start_target(settings, stack, report_dir, stages)
    console_url = console.base_url
    context.run = RunState(
        settings=settings,
        stack=stack,
        console_url=console_url,
        console=console,
        storage_state=console.storage_state(),
        browser=browser,
        started_at=started_at,
        stage_durations=stages,
        secrets=settings.secret_values() | {console.token},
        replay=ReplayControl(settings.replay_url) if settings.replay_url else None,
        lane=lane,
        lane_dir=lane_dir,
        report_dir=report_dir,
        link=link,
    )
    timings = ", ".join(f"{name} {seconds:.2f}s" for name, seconds in stages.items())
    where = "embedded" if not settings.base_url else "E2E_BASE_URL"
    print(f"[e2e] target {console_url} ({where}); browser {browser.description}; {timings}", file=sys.stderr)


def _step_registry(context: Context) -> StepRegistry:
    """The registry this runner matches steps with. Not `behave.step_registry.registry`: behave's
    main replaces that module attribute (reset_runtime) after the step decorators were bound, so
    the steps live in the runner's."""
    registry: StepRegistry = context._runner.step_registry
    return registry


def _start_target(
    settings: Settings, stack: Stack, report_dir: Path, stages: dict[str, float]
) -> tuple[ConsoleClient, BrowserSession]:
    """The console (embedded unless E2E_BASE_URL), signed in, and the browser: launched while the
    console boots, as each takes most of a second."""
    booting = None if settings.base_url else _launch_console(settings, report_dir)
    try:
        with _stage(stages, "browser launch"):
            browser = BrowserSession.start(settings)
    except BaseException:
        if booting is not None:
            booting.process.kill()
        raise
    try:
        if booting is not None:
            with _stage(stages, "console ready"):
                stack.add(booting.wait())
        console_url = settings.base_url or stack.services[0].url
        with _stage(stages, "console health"):
            wait_healthy(console_url.rstrip("/") + "/healthz")
        with _stage(stages, "sign-in"):
            token = sign_in(console_url, settings.admin_email, settings.admin_password.get_secret_value())
            console = ConsoleClient(console_url, token)
    except BaseException:
        browser.close()
        raise
    return console, browser


def _launch_console(settings: Settings, report_dir: Path) -> Launch:
    """The embedded console (no E2E_BASE_URL): its database and log beside this process's reports."""
    argv, env = console_command(
        report_dir / "console.db", settings.admin_email, settings.admin_password.get_secret_value()
    )
    log_path = report_dir / "services" / "console.log"
    return launch_service("console", argv, ready_prefix="AGENT_BUILDER_READY", log_path=log_path, env=env)


def _watch_page(page: Page, world: World) -> None:
    """Collect the page's uncaught errors (loads from other origins among them) and console messages."""
    page.on("pageerror", lambda error: world.page_errors.append(f"{page.url}: {error}"))
    page.on("console", lambda message: world.console_log.append(f"[{message.type}] {message.text}"))


def before_scenario(context: Context, scenario: Scenario) -> None:
    """A fresh signed-in browser context and World: the scenario's Before hook in the reports."""
    with context.recorder.hook("Before", before_scenario):
        _open_scenario(context, scenario)


def _open_scenario(context: Context, scenario: Scenario) -> None:
    run: RunState = context.run
    microphone = MICROPHONE in {f"@{tag}" for tag in scenario.effective_tags}
    browser_context = run.browser.new_context(run.storage_state, microphone=microphone)
    if run.settings.trace != "off":
        # Actions, network and console; DOM snapshots only with `always`, the mode for rerunning a
        # failure to look closer: recorded for every passing scenario, they cost a tenth of the
        # lane (benchmarks/trace_cost.py), and a failure keeps its screenshot and page HTML anyway.
        always = run.settings.trace == "always"
        browser_context.tracing.start(screenshots=False, snapshots=always, title=scenario.name)
    guard_origin(browser_context, run.console_url, suite_origins=(EMBEDDING_SITE,))
    page = browser_context.new_page()
    world = World(
        settings=run.settings,
        console_url=run.console_url,
        console=run.console,
        browser_context=browser_context,
        page=page,
        name_counter=run.name_counter,
        creators=run.creators,
        scenario_label=f'{scenario.filename}:{scenario.line} "{scenario.name}"',
        scenario_location=f"{scenario.filename}:{scenario.line}",
        replay=_replay_for(run, scenario),
    )
    browser_context.on("page", lambda new_page: _watch_page(new_page, world))
    _watch_page(page, world)
    context.world = world
    if world.replay is not None:
        world.replay.open_scope(scenario.name, scenario.filename)  # loads the scenario's cassette


def _replay_for(run: RunState, scenario: Scenario) -> ReplayControl | None:
    """The replay server, if the lane has one and the scenario calls providers: then the scenario
    runs in a replay scope, and every model or search call must match its cassette."""
    tags = {f"@{tag}" for tag in scenario.effective_tags}
    return run.replay if tags & {EXTERNAL_MODEL, EXTERNAL_TOOL} else None


def before_step(context: Context, step: Step) -> None:
    # Whatever the last step left loading (a navigation, a reload) must finish before this one acts.
    wait_until_loaded(context.world.page)


def after_scenario(context: Context, scenario: Scenario) -> None:
    """Evidence, the after-scenario checks and cleanup (the scenario's After hook), then its row."""
    run: RunState = context.run
    world: World = context.world
    steps_failed = scenario.status.name not in ("passed", "skipped", "untested")
    attempt = run.link.current.attempt if run.link and run.link.current else 1
    with context.recorder.hook("After", after_scenario):
        checks = _page_and_replay_checks(world, steps_passed=not steps_failed)
        run.secrets |= world.secrets  # before any evidence is written
        evidence = _evidence(run, world, scenario, attempt, failed=steps_failed or bool(checks))
        world.browser_context.close()
        cleanup_failures = world.cleanup.run()
        if cleanup_failures:
            checks.append(("cleanup", "cleanup failed: " + "; ".join(str(f) for f in cleanup_failures)))
    result = scenario_result(
        scenario,
        checks,
        registry=_step_registry(context),
        evidence=evidence,
        worker_id=run.settings.worker_id,
        attempt=attempt,
        started_at=world.started_at,
        recorder=context.recorder,
    )
    run.results.append(result)
    if run.link is not None:
        run.link.report(scenario_to_dict(result, run.secrets))
    if checks and not steps_failed:
        raise ScenarioHygieneError("\n".join(message for _, message in checks))


def _page_and_replay_checks(world: World, *, steps_passed: bool) -> list[CheckFailure]:
    """What the scenario did wrong beyond its steps: uncaught page errors, model calls that missed
    (and no step reported yet), recordings or faults it never used."""
    checks: list[CheckFailure] = []
    if world.replay is not None and steps_passed:
        # A last step can pass while the agent still streams its reply (a tool's result shows
        # before the answer that follows it). The replay scope closes once the page is done, or
        # the reply's remaining model calls would be reported as recordings never used.
        timeout_ms = world.settings.timeout_ms
        busy = [page.url for page in world.browser_context.pages if not wait_until_quiet(page, timeout_ms)]
        if busy:
            checks.append(
                ("page busy", f"still aria-busy {timeout_ms} ms after the last step: {', '.join(busy)}")
            )
    if world.page_errors:
        checks.append(("page errors", "\n".join(f"uncaught page error: {e}" for e in world.page_errors)))
    if world.replay is None:
        return checks
    report = world.replay.close_scope()
    unreported = report.misses[world.replay_misses_shown :]
    if unreported:
        checks.append(("model calls", misses_text(unreported, report, world.scenario_location)))
    unused = leftover_text(report, world.scenario_location)
    if unused:
        checks.append(("model recordings", unused))
    return checks


def _evidence(
    run: RunState, world: World, scenario: Scenario, attempt: int, *, failed: bool
) -> dict[str, Path]:
    out_dir = scenario_dir(run.lane_dir, scenario.filename, scenario.name, attempt)
    keep_trace = run.settings.trace == "always" or (run.settings.trace == "on-failure" and failed)
    if failed:
        return capture(
            world.page,
            world.browser_context,
            world.console_log,
            out_dir,
            tracing=keep_trace,
            secrets=run.secrets,
        )
    if keep_trace:
        return {"trace": save_trace(world.browser_context, out_dir / "trace.zip", run.secrets)}
    if run.settings.trace != "off":
        world.browser_context.tracing.stop()
    return {}


def _lane_failures(run: RunState) -> list[LaneFailure]:
    failures = []
    try:
        left = leftover_failure(run.console, run.settings.run_id, run.settings.worker_id, run.creators)
    except Exception as error:  # noqa: BLE001 - an audit that cannot run must fail the lane, visibly
        left = LaneFailure(
            "leftover-audit-failed",
            f"the leftover audit of worker {run.settings.worker_id} could not list the console's "
            f"resources at {run.console_url}: {type(error).__name__}: {error}",
            f"check that the console is up (its log: {run.report_dir / 'services' / 'console.log'})",
        )
    if left is not None:
        failures.append(left)
    # A pool worker that got no scenario is not a failure: the coordinator gates the whole lane.
    if run.link is None and not run.results:
        failures.append(zero_scenarios_failure(run.lane))
    return failures


def after_all(context: Context) -> None:
    run: RunState | None = getattr(context, "run", None)
    try:
        if run is None:
            return
        run.browser.close()
        failures = _lane_failures(run)
        if run.link is not None:
            for failure in failures:
                run.link.report_lane_failure(asdict(failure))
        report = LaneReport(
            RunInfo(
                lane=run.lane,
                run_id=run.settings.run_id,
                base_url=run.console_url,
                started_at=run.started_at.isoformat(),
                duration_s=(datetime.now(UTC) - run.started_at).total_seconds(),
                stage_durations=run.stage_durations,
            ),
            run.results,
            failures,
            definitions(_step_registry(context), _HOOKS),
            [hook_result(hook) for hook in context.recorder.run_hooks],
        )
        if run.link is None:
            finish_lane(report, run.settings, secrets=run.secrets)
        else:  # the worker's part: the coordinator finishes the lane
            paths = write_lane_reports(report, run.report_dir, secrets=run.secrets)
            print(summary_text(report, reports=paths), file=sys.stderr)
        if failures and run.link is None:
            raise LaneFailed("; ".join(failure.kind for failure in failures))
    finally:
        stack: Stack | None = getattr(context, "stack", None)
        try:
            if run is not None:
                run.console.sign_out()
        finally:
            if stack is not None:
                stack.stop()


# behave captures hook output by default; the end-of-lane summary must reach the terminal.
after_all.capture = False  # type: ignore[attr-defined]
_HOOKS = {"BeforeAll": before_all, "Before": before_scenario, "After": after_scenario}  # in the reports
