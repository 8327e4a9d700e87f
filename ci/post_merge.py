"""`make post-merge` (`python -m ci.post_merge [--workers N] [--shard I/N] [--repeat N] [behave args...]`).

One process owns the post-merge lane's whole lifecycle, so CI never re-implements it in YAML:

1. select the lane's scenarios (and shard), so it starts no more stacks than there are scenarios;
2. start one stack per worker on free ports, logging to `<artifacts>/post-merge/workers/<id>/services/`:
   the record/replay server (unless E2E_REPLAY_URL is given), with E2E_START_AGENT_BACKEND=1
   shellctl and the agent runtime, then the console wired to them (unless E2E_BASE_URL is given);
   each stack's services start side by side with the other stacks';
3. run the strict seed, profile `post-merge`, against every stack (report beside its logs);
4. run the lane on the worker pool, worker N against stack N (support/lanes);
5. tear everything down in reverse order: on success, on failure, on Ctrl-C and on SIGTERM.

Exit code: the lane's; 3 when a seed blocked (no scenario runs); 2 for invalid settings or
arguments; 4 when a service did not start; 130/143 when interrupted by SIGINT/SIGTERM. A blocked
seed and a service that did not start still write the lane's reports, with a `seed-blocked` or
`service-failed` lane failure, so the reports say what the exit code says.
"""

from __future__ import annotations

import secrets
import signal
import sys
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from seed.report import SeedReport
from seed.runner import EXIT_BLOCKED, EXIT_USAGE, seed_and_print
from support.lanes.cli import parse_lane_args, resolve_workers
from support.lanes.coordinator import run_pool
from support.lanes.finish import finish_without_run, fresh_lane_folder, lane_folder
from support.lanes.plan import LanePlan, plan_lane
from support.replay.cassette import DEFAULT_CASSETTES_DIR
from support.reports import LaneFailure
from support.settings import Settings, SettingsError, load_settings
from support.stack import (
    Launch,
    ListeningSocket,
    ServiceStartError,
    Stack,
    console_command,
    launch_service,
    python_module_argv,
    stop_services,
    wait_healthy,
)

LANE = "post-merge"
ROOT = Path(__file__).resolve().parents[1]
CASSETTES = ROOT / DEFAULT_CASSETTES_DIR
EXIT_SERVICE_FAILED = 4
# Short, so the sandbox-timeout scenario is quick; its cassette records this value.
SANDBOX_TIMEOUT_S = 3
READY = "AGENT_BUILDER_READY"
SHELLCTL_TOKEN = "AGENT_BUILDER_SHELLCTL_TOKEN"
RUNTIME_TOKEN = "AGENT_BUILDER_RUNTIME_TOKEN"


class Interrupted(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _interrupt(signum: int, frame: FrameType | None) -> None:
    _ignore_signals()  # the first signal starts the teardown; another one must not cut it short
    raise Interrupted(signum)


def _ignore_signals() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)


def _announce(message: str) -> None:
    print(f"[post-merge] {message}", file=sys.stderr, flush=True)


@dataclass
class WorkerStack:
    """The services one worker uses; empty URLs mean the run uses an existing service."""

    worker_id: str
    folder: Path
    stack: Stack = field(default_factory=Stack)
    urls: dict[str, str] = field(default_factory=dict)  # service name -> URL
    # This stack's shellctl accepts work only with it: its runtime and console get it too.
    shellctl_token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    # This stack's runtime runs agents only for the caller holding it: its console.
    runtime_token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    # Bound before anything starts, so the runtime knows the console's URL before the console
    # (which needs the runtime's) starts on it; None when the lane uses an existing console.
    console_socket: ListeningSocket | None = None

    def start_all(self, launches: Mapping[str, Launch], stages: dict[str, float]) -> None:
        for name, launch in launches.items():
            service = self.stack.add(launch.wait())
            self.urls[name] = service.url
            stages[f"{self.worker_id} {name}"] = service.started_in_s
            _announce(
                f"{self.worker_id} {name} ready in {service.started_in_s:.2f}s at {service.url} "
                f"(pid {service.process.pid}, log {service.log_path})"
            )

    def launch(
        self,
        name: str,
        argv: list[str],
        env: Mapping[str, str] | None = None,
        listening: ListeningSocket | None = None,
    ) -> Launch:
        """Start a service; with `listening`, handed that socket (its `argv` names it with `--fd`),
        whose copy here is then closed."""
        fds = [] if listening is None else [listening.fd]
        log_path = self.folder / "services" / f"{name}.log"
        try:
            return launch_service(name, argv, ready_prefix=READY, log_path=log_path, env=env, pass_fds=fds)
        finally:
            if listening is not None:
                listening.close()

    def close_sockets(self) -> None:
        """The console's socket, if the console never started on it."""
        if self.console_socket is not None:
            self.console_socket.close()

    def behave_env(self, settings: Settings) -> dict[str, str]:
        """The worker's settings: this stack's URLs (the stack is started, not started again)."""
        env = {
            "E2E_BASE_URL": self.urls.get("console") or settings.base_url or "",
            "E2E_REPLAY_URL": self.urls.get("replay") or settings.replay_url or "",
            "E2E_START_AGENT_BACKEND": "",  # an empty value also overrides a .env entry
        }
        backend = self.urls.get("runtime") or settings.agent_backend_url()
        shellctl = self.urls.get("shellctl") or settings.shellctl_url()
        if backend:
            env["E2E_AGENT_BACKEND_URL"] = backend
        if shellctl:
            env["E2E_SHELLCTL_URL"] = shellctl
        return env


def listen(name: str, port: int = 0) -> ListeningSocket:
    """The socket `name` will serve, bound now on 127.0.0.1 (`port`, or a free one)."""
    try:
        return ListeningSocket(port=port)
    except OSError as error:
        raise ServiceStartError(f"{name} cannot listen on 127.0.0.1:{port}: {error}") from None


def _replay_argv(settings: Settings) -> tuple[list[str], dict[str, str]]:
    argv = python_module_argv(
        "support.replay", "serve", "--host", "127.0.0.1", "--port", "0", "--cassettes", str(CASSETTES),
        "--mode", settings.model_mode,
        # Listed by /v1/models even before a cassette uses them, so the seed can activate them.
        "--model", settings.stable_model_name, "--model", settings.decision_model_name,
    )  # fmt: skip
    if settings.model_mode != "replay" and settings.stable_model_base_url:
        argv += ["--upstream", settings.stable_model_base_url]
    if settings.web_search_base_url:
        argv += ["--search-upstream", settings.web_search_base_url]
    if settings.recorded_from:
        argv += ["--recorded-from", settings.recorded_from]
    key = settings.stable_model_api_key
    # The replay server reads its upstream key from the environment (it may come from .env here).
    return argv, ({"E2E_STABLE_MODEL_API_KEY": key.get_secret_value()} if key else {})


def _backend_launches(settings: Settings, worker: WorkerStack) -> dict[str, Launch]:
    """Everything the console needs, started at once: replay server, shellctl, runtime."""
    launches: dict[str, Launch] = {}
    if settings.replay_url is None:
        argv, env = _replay_argv(settings)
        launches["replay"] = launch_service(
            "replay",
            argv,
            ready_prefix="REPLAY_READY",
            log_path=worker.folder / "services" / "replay.log",
            env=env,
        )
    if settings.start_agent_backend:
        token = {SHELLCTL_TOKEN: worker.shellctl_token}
        # Bound here, so the runtime, started side by side with it, is told its URL.
        shellctl = listen("shellctl", settings.shellctl_port or 0)
        shellctl_url = shellctl.url
        shellctl_argv = python_module_argv(
            "agent_builder", "shellctl", "--fd", str(shellctl.fd),
            "--workspaces", str(worker.folder / "shellctl-workspaces"),
        )  # fmt: skip
        launches["shellctl"] = worker.launch("shellctl", shellctl_argv, token, listening=shellctl)
        console_url = worker.console_socket.url if worker.console_socket else settings.base_url
        launches["runtime"] = worker.launch(
            "runtime",
            python_module_argv(
                "agent_builder", "runtime", "--host", "127.0.0.1",
                "--port", str(settings.agent_backend_port or 0), "--shell-timeout", str(SANDBOX_TIMEOUT_S),
            ),
            token | {
                RUNTIME_TOKEN: worker.runtime_token,
                "AGENT_BUILDER_RUNTIME_SHELLCTL_URL": shellctl_url,
                "AGENT_BUILDER_RUNTIME_CONSOLE_URL": console_url or "",
            },
        )  # fmt: skip
    return launches


def _console_launch(settings: Settings, worker: WorkerStack) -> dict[str, Launch]:
    if worker.console_socket is None:
        return {}
    listening, worker.console_socket = worker.console_socket, None
    password = settings.admin_password.get_secret_value()
    argv, env = console_command(worker.folder / "console.db", settings.admin_email, password, listening.fd)
    backend = worker.urls.get("runtime") or settings.agent_backend_url()
    shellctl = worker.urls.get("shellctl") or settings.shellctl_url()
    env |= {"AGENT_BUILDER_RUNTIME_URL": backend} if backend else {}
    # A runtime started here wants this stack's token; an existing one, AGENT_BUILDER_RUNTIME_TOKEN
    # from this environment (the console refuses to start without it, naming the variable).
    env |= {RUNTIME_TOKEN: worker.runtime_token} if worker.urls.get("runtime") else {}
    if worker.urls.get("shellctl"):  # started here: the console removes a deleted agent's workspaces
        env |= {"AGENT_BUILDER_SHELLCTL_URL": worker.urls["shellctl"], SHELLCTL_TOKEN: worker.shellctl_token}
    elif shellctl:
        env |= {"AGENT_BUILDER_SHELLCTL_URL": shellctl}
    return {"console": worker.launch("console", argv, env, listening=listening)}


def start_stacks(settings: Settings, workers: list[WorkerStack], stages: dict[str, float]) -> None:
    """Each phase launches its services in every stack, then waits for all of them. The console's
    socket is bound first: the runtime is told its URL, and the console then serves it."""
    for worker in workers:
        if settings.base_url is None:
            worker.console_socket = listen("console")
    for phase in (_backend_launches, _console_launch):
        launches = {worker.worker_id: phase(settings, worker) for worker in workers}
        for worker in workers:
            worker.start_all(launches[worker.worker_id], stages)
    for worker in workers:
        wait_healthy(f"{worker.behave_env(settings)['E2E_BASE_URL']}/healthz")


def _seed(settings: Settings, worker: WorkerStack) -> SeedReport:
    env = worker.behave_env(settings)
    seeded = settings.model_copy(
        update={
            "base_url": env["E2E_BASE_URL"],
            "replay_url": env["E2E_REPLAY_URL"],
            "artifacts_dir": worker.folder,
        }
    )
    return seed_and_print(seeded, LANE)


def seed_blocked_failures(workers: list[WorkerStack], seeds: list[SeedReport]) -> list[LaneFailure]:
    """One `seed-blocked` lane failure per blocked task of each worker's seed."""
    return [
        LaneFailure(
            "seed-blocked",
            f"the strict seed of worker {worker.worker_id} blocked task {task.task} (owner {task.owner}): "
            f"{task.detail}. No scenario ran. Seed report: {worker.folder / 'seed-report' / f'{LANE}.json'}",
            task.remediation,
        )
        for worker, seed in zip(workers, seeds, strict=True)
        for task in seed.blocked
    ]


def check_workers(settings: Settings, count: int) -> list[str]:
    """Settings that pin one shared service cannot serve several workers."""
    if count <= 1:
        return []
    pinned = [
        (variable, "pins a port")
        for variable, value in (
            ("E2E_AGENT_BACKEND_PORT", settings.agent_backend_port),
            ("E2E_SHELLCTL_PORT", settings.shellctl_port),
        )
        if value
    ]
    pinned += [
        (variable, "is one replay server, which serves one scenario at a time")
        for variable, value in (("E2E_REPLAY_URL", settings.replay_url), ("E2E_BASE_URL", settings.base_url))
        if value
    ]
    return [
        f"{variable} {why}, but {count} workers each need their own. Fix: unset {variable}, or run with --workers 1."
        for variable, why in pinned
    ]


@contextmanager
def _stage(stages: dict[str, float], name: str) -> Iterator[None]:
    started = time.monotonic()
    yield
    stages[name] = time.monotonic() - started


def _start_seed_and_run(
    settings: Settings, plan: LanePlan, workers: list[WorkerStack], stages: dict[str, float]
) -> int:
    with _stage(stages, "stacks start"):
        start_stacks(settings, workers, stages)
    with _stage(stages, "seed"), ThreadPoolExecutor(max_workers=len(workers)) as pool:
        seeds = list(pool.map(lambda worker: _seed(settings, worker), workers))
    _announce("startup stages: " + ", ".join(f"{name} {seconds:.2f}s" for name, seconds in stages.items()))
    blocked = seed_blocked_failures(workers, seeds)
    if blocked:
        _announce("a seed is blocked (see the table above): the lane does not run")
        finish_without_run(plan, settings, blocked, workers=len(workers), stage_durations=stages)
        return EXIT_BLOCKED
    by_id = {worker.worker_id: worker for worker in workers}
    # While it runs, the pool takes the signals: it lets every worker finish its teardown first.
    return run_pool(
        plan,
        settings,
        workers=len(workers),
        worker_env=lambda worker_id: by_id[worker_id].behave_env(settings),
        stage_durations=stages,
    )


def main(argv: list[str]) -> int:
    try:
        settings = load_settings()
        args = parse_lane_args([LANE, *argv])
        plan = plan_lane(LANE, args.behave_args, shard=args.shard, repeat=args.repeat)
        count = plan.worker_count(resolve_workers(settings, args.workers))
    except (SettingsError, ValueError) as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    fresh_lane_folder(settings, LANE)
    if count == 0:  # nothing selected: fail the zero-scenario gate without starting a stack
        return run_pool(plan, settings, workers=0)
    problems = check_workers(settings, count)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return EXIT_USAGE
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _interrupt)
    workers = [
        WorkerStack(f"w{index}", lane_folder(settings, LANE) / "workers" / f"w{index}")
        for index in range(1, count + 1)
    ]
    stages: dict[str, float] = {}
    try:
        return _start_seed_and_run(settings, plan, workers, stages)
    except ServiceStartError as error:
        _announce(str(error))
        failure = LaneFailure(
            "service-failed", str(error), "read the service's log named above; fix it, then rerun"
        )
        finish_without_run(plan, settings, [failure], workers=count, stage_durations=stages)
        return EXIT_SERVICE_FAILED
    except Interrupted as interrupted:
        _announce(f"interrupted by {interrupted}: tearing down")
        return 128 + interrupted.signum
    finally:
        _ignore_signals()
        for worker in workers:
            worker.close_sockets()
        # Every worker's services at once: each graceful shutdown takes its own fraction of a second.
        stop_services(
            [service for worker in reversed(workers) for service in reversed(worker.stack.services)]
        )
        _announce("all services stopped")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
