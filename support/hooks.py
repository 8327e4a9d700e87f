"""behave lifecycle for the whole suite; `environment.py` only delegates here.

before_all: settings -> embedded console (unless E2E_BASE_URL) -> API sign-in -> browser.
Per scenario: a fresh signed-in browser context and World; afterwards failure evidence, typed
cleanup, and failing a passed scenario on an uncaught page error or a cleanup error.
after_all: reports, the leftover audit, the zero-scenario gate, and teardown in reverse.
"""

from __future__ import annotations

import itertools
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from behave.model import Scenario, Step
from behave.runner import Context
from behave.tag_expression import make_tag_expression
from playwright.sync_api import Page, expect

from support.api.console import ConsoleClient, sign_in
from support.audit import leftovers
from support.browser import BrowserSession
from support.evidence import capture, save_trace, scenario_dir
from support.replay.control import ReplayControl
from support.reports import (
    RunInfo,
    ScenarioResult,
    ScenarioStatus,
    StepResult,
    summary_text,
    write_html,
    write_json,
)
from support.settings import Settings, load_settings
from support.stack import Stack, console_command, start_service, wait_healthy
from support.ui.loading import wait_until_loaded
from support.tags import EXTERNAL_MODEL, EXTERNAL_TOOL, LANES
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
    name_counter: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    results: list[ScenarioResult] = field(default_factory=list)


class ZeroScenariosError(RuntimeError):
    pass


class LeftoversError(RuntimeError):
    pass


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
    # CI cancels with SIGTERM: treat it like Ctrl-C so after_all still tears everything down.
    signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
    started_at = datetime.now(UTC)
    stages: dict[str, float] = {}
    with _stage(stages, "settings"):
        settings = load_settings()
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
    run_dir = settings.artifacts_dir / "runs" / settings.run_id
    if settings.base_url:
        console_url = settings.base_url
    else:
        with _stage(stages, "console start"):
            argv, env = console_command(
                run_dir / "console.db", settings.admin_email, settings.admin_password.get_secret_value()
            )
            log_path = settings.artifacts_dir / "services" / "console.log"
            service = stack.add(
                start_service("console", argv, ready_prefix="AGENT_BUILDER_READY", log_path=log_path, env=env)
            )
            console_url = service.url
    with _stage(stages, "console health"):
        wait_healthy(console_url.rstrip("/") + "/healthz")
    with _stage(stages, "sign-in"):
        token = sign_in(console_url, settings.admin_email, settings.admin_password.get_secret_value())
        console = ConsoleClient(console_url, token)
    with _stage(stages, "browser launch"):
        browser = BrowserSession.start(settings)
    context.run = RunState(
        settings=settings,
        stack=stack,
        console_url=console_url,
        console=console,
        storage_state=console.storage_state(),
        browser=browser,
        started_at=started_at,
        stage_durations=stages,
        secrets=settings.secret_values() | {token},
        replay=ReplayControl(settings.replay_url) if settings.replay_url else None,
    )
    timings = ", ".join(f"{name} {seconds:.2f}s" for name, seconds in stages.items())
    print(
        f"[e2e] target {console_url} ({'embedded' if not settings.base_url else 'E2E_BASE_URL'}); {timings}",
        file=sys.stderr,
    )


def _watch_page(page: Page, world: World) -> None:
    """Collect the page's uncaught errors, console messages and requests to other origins."""
    page.on("pageerror", lambda error: world.page_errors.append(f"{page.url}: {error}"))
    page.on("console", lambda message: world.console_log.append(f"[{message.type}] {message.text}"))
    page.on("request", lambda request: _check_origin(request.url, world))


def _check_origin(url: str, world: World) -> None:
    """The product promises pages that load nothing from other origins (no CDN scripts or fonts)."""
    origin = urlsplit(url)
    if origin.scheme in ("http", "https") and origin.netloc != urlsplit(world.console_url).netloc:
        world.page_errors.append(f"request to another origin: {url}")


def before_scenario(context: Context, scenario: Scenario) -> None:
    run: RunState = context.run
    browser_context = run.browser.new_context(run.storage_state)
    if run.settings.trace != "off":
        browser_context.tracing.start(screenshots=True, snapshots=True, title=scenario.name)
    page = browser_context.new_page()
    world = World(
        settings=run.settings,
        console_url=run.console_url,
        console=run.console,
        browser_context=browser_context,
        page=page,
        name_counter=run.name_counter,
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
    run: RunState = context.run
    world: World = context.world
    steps_failed = scenario.status.name not in ("passed", "skipped", "untested")
    problems = [f"uncaught page error: {error}" for error in world.page_errors]
    if world.replay is not None:
        replay_report = world.replay.close_scope()
        if not replay_report.ok:  # a miss or an unused recording, even if the product hid it
            problems.append(replay_report.problems_text())
    shown_secret = world.agent_builder.access_point.shown_api_key_secret
    if shown_secret:
        run.secrets.add(shown_secret)
    out_dir = scenario_dir(run.settings.artifacts_dir, scenario.filename, scenario.name)
    evidence: dict[str, Path] = {}
    keep_trace = run.settings.trace == "always" or (
        run.settings.trace == "on-failure" and (steps_failed or problems)
    )
    if steps_failed or problems:
        evidence = capture(world, out_dir, tracing=keep_trace, secrets=run.secrets)
    elif keep_trace:
        evidence["trace"] = save_trace(world.browser_context, out_dir / "trace.zip", run.secrets)
    elif run.settings.trace != "off":
        world.browser_context.tracing.stop()
    world.browser_context.close()
    problems += [f"cleanup failed: {failure}" for failure in world.cleanup.run()]

    error = scenario.error_message if steps_failed else None
    if problems:
        error = "\n".join(filter(None, [error, *problems]))
    run.results.append(
        ScenarioResult(
            feature_name=scenario.feature.name,
            feature_path=scenario.filename,
            name=scenario.name,
            line=scenario.line,
            tags=sorted(scenario.effective_tags),
            status=_result_status(scenario.status.name, failed=bool(problems)),
            duration_s=scenario.duration,
            steps=[
                StepResult(step.keyword, step.name, step.status.name, step.duration, step.error_message)
                for step in scenario.all_steps
            ],
            error=error,
            evidence=evidence,
        )
    )
    if problems and not steps_failed:
        raise ScenarioHygieneError("; ".join(problems))


def _result_status(behave_status: str, *, failed: bool) -> ScenarioStatus:
    # behave's hook_error/cleanup_error/undefined all mean the scenario did not pass.
    if behave_status in ("hook_error", "cleanup_error", "error"):
        return "error"
    if failed or behave_status not in ("passed", "skipped", "untested"):
        return "failed"
    return behave_status  # type: ignore[return-value]


def _lane_name(tag_expression: str) -> str:
    """The named lane whose tags behave ran with (however it was invoked), else the expression."""
    if not tag_expression:
        return "full"
    for name, tags in LANES.items():
        if tags and str(make_tag_expression(tags)) == tag_expression:
            return name
    return tag_expression


def after_all(context: Context) -> None:
    run: RunState | None = getattr(context, "run", None)
    try:
        if run is None:
            return
        run.browser.close()
        info = RunInfo(
            lane=_lane_name(str(context.config.tag_expression or "")),
            run_id=run.settings.run_id,
            base_url=run.console_url,
            started_at=run.started_at.isoformat(),
            duration_s=(datetime.now(UTC) - run.started_at).total_seconds(),
            stage_durations=run.stage_durations,
        )
        artifacts = run.settings.artifacts_dir
        reports = [artifacts / "report.json", artifacts / "report.html", artifacts / "junit"]
        write_json(run.results, info, reports[0], secrets=run.secrets)
        write_html(run.results, info, reports[1], secrets=run.secrets)
        print(summary_text(run.results, info, reports=reports), file=sys.stderr)
        left = leftovers(run.console, run.settings.run_id)
        if left:
            raise LeftoversError(
                f"The lane left resources of run {run.settings.run_id} behind: {', '.join(left)}"
            )
        if not run.results:
            raise ZeroScenariosError(
                f"The lane executed zero scenarios (tags: {info.lane}). A lane that runs nothing proves nothing: "
                "check the tag expression and that the features carry the lane's tags."
            )
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
