"""Run one lane over N worker processes and report it as one lane run.

The coordinator selects the lane's scenarios with behave's own rules, orders them longest first
(or takes one shard of them), and hands them out one at a time to workers that ask. Each worker
is a behave process with its own worker id, embedded console or stack, browser and replay scope.
Results stream back as scenarios finish, so a failure is printed the moment it happens and a
worker killed mid-lane loses nothing but the scenario it held, which is reported as such. The
lane's reports, zero-scenario gate and lane failures speak for all workers together.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.connection import Connection, Listener
from pathlib import Path
from typing import Any

from support.lanes.finish import finish_lane, lane_folder, lane_run_info
from support.lanes.link import (
    DEFINITIONS,
    LANE_FAILURE,
    NEXT,
    POOL_ADDRESS,
    POOL_WORKER,
    RESULT,
    Assignment,
    receive,
    send,
)
from support.lanes.plan import LanePlan
from support.lanes.progress import ResultPrinter
from support.reports import (
    Definition,
    LaneFailure,
    LaneReport,
    ScenarioResult,
    scenario_from_dict,
    zero_scenarios_failure,
)
from support.settings import Settings
from support.stack import die_with_parent, signal_group

# After SIGTERM, a worker's own teardown (reports, browser, console) gets this long.
WORKER_GRACE_S = 30.0
_LOG_TAIL_LINES = 15

WorkerEnv = Callable[[str], Mapping[str, str]]


@dataclass
class _Dispatch:
    """The queue and what each worker holds; shared by the connection threads."""

    queue: deque[Assignment]
    on_result: Callable[[ScenarioResult], None]
    holding: dict[str, Assignment | None] = field(default_factory=dict)
    results: list[ScenarioResult] = field(default_factory=list)
    lane_failures: list[LaneFailure] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)  # every worker's; LaneReport dedups
    unanswered: list[tuple[str, Assignment]] = field(default_factory=list)
    stopping: bool = False
    stop_at_failure: bool = False  # --stop
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, worker_id: str) -> Assignment | None:
        with self.lock:
            previous = self.holding.get(worker_id)
            if previous is not None:  # asked for more without a result: its hooks failed
                self.unanswered.append((worker_id, previous))
            assignment = self.queue.popleft() if self.queue and not self.stopping else None
            self.holding[worker_id] = assignment
            return assignment

    def finish(self, worker_id: str, scenario: dict[str, Any]) -> None:
        result = scenario_from_dict(scenario)
        with self.lock:
            self.results.append(result)
            self.holding[worker_id] = None
            if self.stop_at_failure and result.failed:
                self.stopping = True
        self.on_result(result)

    def serve(self, connection: Connection) -> None:
        with connection:
            while True:
                try:
                    kind, worker_id, *payload = receive(connection)
                except (EOFError, OSError):
                    return  # the worker exited (or died): the main thread accounts for it
                try:
                    self._handle(connection, kind, worker_id, payload)
                except Exception as error:  # noqa: BLE001 - a lost message must fail the lane, not a thread
                    with self.lock:
                        self.lane_failures.append(
                            LaneFailure(
                                "pool-protocol", f"could not handle {kind!r} from {worker_id}: {error!r}"
                            )
                        )

    def _handle(self, connection: Connection, kind: str, worker_id: str, payload: list[Any]) -> None:
        if kind == NEXT:
            assignment = self.take(worker_id)
            send(connection, None if assignment is None else assignment.to_json())
        elif kind == RESULT:
            self.finish(worker_id, payload[0])
        elif kind == LANE_FAILURE:
            with self.lock:
                self.lane_failures.append(LaneFailure(**payload[0]))
        elif kind == DEFINITIONS:
            with self.lock:
                self.definitions += [Definition(**definition) for definition in payload[0]]
        else:
            raise ValueError(f"unknown message kind {kind!r}")


@dataclass
class _Worker:
    id: str
    process: subprocess.Popen[bytes]
    folder: Path

    @property
    def log(self) -> Path:
        return self.folder / "behave.log"

    def log_tail(self) -> str:
        try:
            lines = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-_LOG_TAIL_LINES:])


def run_pool(
    plan: LanePlan,
    settings: Settings,
    *,
    workers: int,
    worker_env: WorkerEnv = lambda worker_id: {},
    stage_durations: Mapping[str, float] | None = None,
) -> int:
    """Runs the plan on `workers` processes; writes the lane's reports; returns the exit code."""
    started_at, clock = datetime.now(UTC), time.monotonic()
    folder = lane_folder(settings, plan.lane)
    count = plan.worker_count(workers)
    dispatch = _Dispatch(deque(plan.assignments), ResultPrinter().result, stop_at_failure=plan.stop)
    print(
        f"[lanes] {plan.lane}: {len(plan.assignments)} scenario run(s)"
        f"{f' (shard {plan.shard})' if plan.shard else ''} on {count} worker(s), order {plan.order}; "
        f"logs in {folder}/workers/",
        file=sys.stderr,
        flush=True,
    )
    pool, interrupted = _run_workers(plan, settings, folder, count, dispatch, worker_env)
    if plan.stop and dispatch.queue:
        print(
            f"[lanes] --stop: {len(dispatch.queue)} scenario run(s) not run after a failure", file=sys.stderr
        )
    failures = [*dispatch.lane_failures, *_accounting(pool, dispatch)]
    if not dispatch.results and not failures and not interrupted:
        failures.append(zero_scenarios_failure(plan.lane))
    run = lane_run_info(
        plan,
        settings,
        started_at=started_at,
        duration_s=time.monotonic() - clock,
        workers=count,
        stage_durations=stage_durations,
    )
    results = sorted(dispatch.results, key=lambda result: (result.feature_path, result.line, result.attempt))
    report = LaneReport(run, results, failures, dispatch.definitions)
    finish_lane(report, settings)
    if interrupted:
        return 128 + interrupted[0]
    return 1 if report.failed else 0


def _run_workers(
    plan: LanePlan, settings: Settings, folder: Path, count: int, dispatch: _Dispatch, worker_env: WorkerEnv
) -> tuple[list[_Worker], list[int]]:
    """Start `count` workers fed by `dispatch` and wait until every one has exited; returns them
    and the signals that interrupted the lane (empty when none did)."""
    interrupted: list[int] = []
    with tempfile.TemporaryDirectory(prefix="e2e-pool-") as private:
        address = str(Path(private) / "pool.sock")
        with Listener(address, family="AF_UNIX") as listener:
            threading.Thread(target=_accept, args=(listener, dispatch), daemon=True).start()
            pool = [
                _spawn(f"w{index}", plan, address, folder / "workers" / f"w{index}", settings, worker_env)
                for index in range(1, count + 1)
            ]
            if pool:
                started = ", ".join(f"{worker.id} (pid {worker.process.pid})" for worker in pool)
                print(f"[lanes] workers started: {started}", file=sys.stderr, flush=True)
            with _forwarding_signals(pool, dispatch, interrupted):
                for worker in pool:
                    worker.process.wait()
    return pool, interrupted


def _accept(listener: Listener, dispatch: _Dispatch) -> None:
    while True:
        try:
            connection = listener.accept()
        except OSError:
            return  # the listener closed: every worker has exited
        threading.Thread(target=dispatch.serve, args=(connection,), daemon=True).start()


def _spawn(
    worker_id: str, plan: LanePlan, address: str, folder: Path, settings: Settings, worker_env: WorkerEnv
) -> _Worker:
    folder.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "E2E_WORKER_ID": worker_id,
        "E2E_RUN_ID": settings.run_id,  # one run id for the lane: the leftover audit reads it
        **worker_env(worker_id),
    }
    argv = [
        sys.executable,
        "-m",
        "support.lanes.worker",
        *plan.behave_args,
        "--define",
        f"{POOL_ADDRESS}={address}",
        "--define",
        f"{POOL_WORKER}={worker_id}",
    ]
    with (folder / "behave.log").open("wb") as log:
        # Its own session, so a terminal's Ctrl-C reaches only the coordinator, which forwards it;
        # and it dies with the coordinator, so a killed lane leaves no worker behind.
        process = subprocess.Popen(
            die_with_parent(argv),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    return _Worker(worker_id, process, folder)


class _forwarding_signals:
    """While workers run: the first SIGINT/SIGTERM stops handing out work and asks each worker to
    finish its teardown; a worker still alive after the grace period, or at a second signal (a
    second Ctrl-C), is killed."""

    def __init__(self, pool: list[_Worker], dispatch: _Dispatch, interrupted: list[int]) -> None:
        self.pool, self.dispatch, self.interrupted = pool, dispatch, interrupted
        self.previous: dict[int, Any] = {}
        # Cancelled once the workers are gone: a pending timer would keep the lane alive for
        # the rest of the grace period after everything has stopped.
        self.grace = threading.Timer(WORKER_GRACE_S, self._kill)

    def __enter__(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            self.previous[signum] = signal.signal(signum, self._handle)

    def __exit__(self, *_: object) -> None:
        self.grace.cancel()
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)

    def _handle(self, signum: int, frame: object) -> None:
        if self.interrupted:
            print("[lanes] second signal: killing the workers", file=sys.stderr, flush=True)
            self._kill()
            return
        self.interrupted.append(signum)
        self.dispatch.stopping = True
        print(f"[lanes] {signal.Signals(signum).name}: stopping the workers", file=sys.stderr, flush=True)
        for worker in self.pool:
            signal_group(worker.process, signal.SIGTERM)
        self.grace.start()

    def _kill(self) -> None:
        for worker in self.pool:
            signal_group(worker.process, signal.SIGKILL)


def _accounting(pool: Sequence[_Worker], dispatch: _Dispatch) -> list[LaneFailure]:
    """What the workers' exits say: scenarios held by a dead worker, workers that never started,
    scenarios nobody ran."""
    failures: list[LaneFailure] = []
    for worker_id, assignment in dispatch.unanswered:
        dispatch.results.append(_unfinished(assignment, worker_id, "reported no result (a hook failed)"))
    for worker in pool:
        code = worker.process.returncode
        how = f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}"
        held = dispatch.holding.get(worker.id)
        if held is not None:
            dispatch.results.append(_unfinished(held, worker.id, f"{how} while running this scenario"))
            failures.append(
                LaneFailure(
                    "worker-died",
                    f"worker {worker.id} {how} while running {held.ref.location} {held.ref.name}.\n"
                    f"Last lines of {worker.log}:\n{worker.log_tail()}",
                    f"read {worker.log}; rerun the scenario alone: python -m support.lanes <lane> "
                    f"{held.ref.location}",
                )
            )
        elif worker.id not in dispatch.holding and code != 0:
            failures.append(
                LaneFailure(
                    "worker-failed-to-start",
                    f"worker {worker.id} {how} before running any scenario.\n"
                    f"Last lines of {worker.log}:\n{worker.log_tail()}",
                    f"read {worker.log}",
                )
            )
    if dispatch.queue and not dispatch.stopping:
        missed = "\n".join(f"  {a.ref.location} {a.ref.name}" for a in dispatch.queue)
        failures.append(
            LaneFailure(
                "not-run",
                f"{len(dispatch.queue)} scenario run(s) never ran, because no worker was left:\n{missed}",
                "see the worker failures above",
            )
        )
    return failures


def _unfinished(assignment: Assignment, worker_id: str, why: str) -> ScenarioResult:
    ref = assignment.ref
    return ScenarioResult(
        feature_name=ref.feature_path,
        feature_path=ref.feature_path,
        name=ref.name,
        line=ref.line,
        tags=(),
        status="error",
        duration_s=0.0,
        steps=(),
        error=f"worker {worker_id} {why}",
        worker_id=worker_id,
        attempt=assignment.attempt,
    )
