"""One behave run: a serial `behave` (a whole lane), or one worker of a pooled lane (its share).

`RunState.start` brings up what every scenario of the run shares: the settings, the console
(embedded unless E2E_BASE_URL, booting while the browser launches), its API sign-in, the browser
and the replay server's control. `RunState.record` keeps each scenario's report row (a worker also
sends it to its coordinator). `RunState.finish` judges and reports the run: the leftover audit,
the zero-scenario gate (a serial run's: a worker's coordinator gates the whole lane), the reports
(the lane's, through `finish_lane`; or a worker's part, which its coordinator finishes), then tears
everything down in reverse. The World of each scenario starts and closes against it
(support/world.py).
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from support.api.console import ConsoleClient, sign_in
from support.browser.session import BrowserSession
from support.lanes.audit import leftover_failure
from support.lanes.finish import finish_lane, fresh_lane_folder, lane_folder
from support.lanes.link import WorkerLink
from support.replay.control import ReplayControl
from support.reports import (
    Definition,
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    StepResult,
    scenario_to_dict,
    summary_text,
    write_lane_reports,
    zero_scenarios_failure,
)
from support.settings import Settings, load_settings
from support.settings.network import use_network_settings
from support.stack import Launch, Stack, console_command, launch_service, wait_healthy


class LaneFailed(RuntimeError):
    """The lane failed as a whole (zero scenarios, leftovers); the reports say why."""


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

    @classmethod
    def start(cls, lane: str, link: WorkerLink | None) -> RunState:
        """Settings, console, browser, sign-in; on failure, whatever had started is stopped."""
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
        # A worker's lane folder is its coordinator's, emptied before any worker started.
        lane_dir = fresh_lane_folder(settings, lane) if link is None else lane_folder(settings, lane)
        report_dir = lane_dir if link is None else lane_dir / "workers" / link.worker_id
        stack = Stack()
        try:
            console, browser = _start_target(settings, stack, report_dir, stages)
        except BaseException:
            stack.stop()
            raise
        run = cls(
            settings=settings,
            stack=stack,
            console_url=console.base_url,
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
        print(
            f"[e2e] target {run.console_url} ({where}); browser {browser.description}; {timings}",
            file=sys.stderr,
        )
        return run

    @property
    def attempt(self) -> int:
        """Which run of its scenario this is (`--repeat N`): the coordinator says; a serial run's first."""
        return self.link.current.attempt if self.link and self.link.current else 1

    def record(self, result: ScenarioResult) -> None:
        """Keep a finished scenario's row; a worker also sends it to its coordinator at once."""
        self.results.append(result)
        if self.link is not None:
            self.link.report(scenario_to_dict(result, self.secrets))

    def finish(self, definitions: Sequence[Definition], run_hooks: Sequence[StepResult]) -> None:
        """Judge and report the run, then tear it down in reverse; raises `LaneFailed` when a serial
        run failed as a whole (a worker reports its lane failures to its coordinator instead)."""
        try:
            self.browser.close()
            failures = self._lane_failures()
            if self.link is not None:
                for failure in failures:
                    self.link.report_lane_failure(asdict(failure))
            report = LaneReport(self._run_info(), self.results, failures, definitions, run_hooks)
            if self.link is None:
                finish_lane(report, self.settings, secrets=self.secrets)
            else:  # the worker's part: its coordinator finishes the lane
                paths = write_lane_reports(report, self.report_dir, secrets=self.secrets)
                print(summary_text(report, reports=paths), file=sys.stderr)
            if failures and self.link is None:
                raise LaneFailed("; ".join(failure.kind for failure in failures))
        finally:
            try:
                self.console.sign_out()
            finally:
                self.stack.stop()

    def _run_info(self) -> RunInfo:
        return RunInfo(
            lane=self.lane,
            run_id=self.settings.run_id,
            base_url=self.console_url,
            started_at=self.started_at.isoformat(),
            duration_s=(datetime.now(UTC) - self.started_at).total_seconds(),
            stage_durations=self.stage_durations,
        )

    def _lane_failures(self) -> list[LaneFailure]:
        failures = []
        try:
            left = leftover_failure(
                self.console, self.settings.run_id, self.settings.worker_id, self.creators
            )
        except Exception as error:  # noqa: BLE001 - an audit that cannot run must fail the lane, visibly
            left = LaneFailure(
                "leftover-audit-failed",
                f"the leftover audit of worker {self.settings.worker_id} could not list the console's "
                f"resources at {self.console_url}: {type(error).__name__}: {error}",
                f"check that the console is up (its log: {self.report_dir / 'services' / 'console.log'})",
            )
        if left is not None:
            failures.append(left)
        # A pool worker that got no scenario is not a failure: the coordinator gates the whole lane.
        if self.link is None and not self.results:
            failures.append(zero_scenarios_failure(self.lane))
        return failures


@contextmanager
def _stage(durations: dict[str, float], name: str) -> Iterator[None]:
    started = time.monotonic()
    yield
    durations[name] = time.monotonic() - started


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
