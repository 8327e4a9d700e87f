"""`make post-merge` (`python -m ci.post_merge [behave args...]`): the post-merge lane, end to end.

One process owns the whole lifecycle, so CI never re-implements it in YAML:

1. start the record/replay server (unless E2E_REPLAY_URL is given), then, with
   E2E_START_AGENT_BACKEND=1, shellctl and the agent runtime, then the console pointing at them
   (unless E2E_BASE_URL is given); each logs to `<artifacts>/services/<name>.log`;
2. run the strict seed, profile `post-merge` (report in `<artifacts>/seed-report/`);
3. run behave with the `post-merge` lane against those services (extra arguments go to behave,
   e.g. a feature file);
4. tear everything down in reverse order: on success, on failure, on Ctrl-C and on SIGTERM.

Exit code: behave's; 3 when the seed blocked (behave is not started); 2 for invalid settings;
4 when a service did not start; 130/143 when interrupted by SIGINT/SIGTERM.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from seed.runner import EXIT_BLOCKED, EXIT_USAGE, seed_and_report
from support.replay.cassette import DEFAULT_CASSETTES_DIR
from support.settings import Settings, SettingsError, load_settings
from support.stack import (
    ServiceStartError,
    Stack,
    console_command,
    python_module_argv,
    start_service,
    wait_healthy,
)

ROOT = Path(__file__).resolve().parents[1]
CASSETTES = ROOT / DEFAULT_CASSETTES_DIR
EXIT_SERVICE_FAILED = 4
# behave's own teardown (browser, reports) gets this long after SIGTERM before it is killed.
BEHAVE_GRACE_S = 30.0


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


@dataclass(frozen=True)
class Endpoints:
    console: str
    replay: str
    agent_backend: str | None
    shellctl: str | None


class Startup:
    """Starts services into a Stack (which stops them in reverse) and times each stage."""

    def __init__(self, settings: Settings, stack: Stack) -> None:
        self.settings = settings
        self.stack = stack
        self.stages: dict[str, float] = {}

    def start(self, name: str, argv: list[str], ready_prefix: str, env: dict[str, str] | None = None) -> str:
        service = self.stack.add(
            start_service(
                name,
                argv,
                ready_prefix=ready_prefix,
                log_path=self.settings.artifacts_dir / "services" / f"{name}.log",
                env=env,
            )
        )
        self.stages[name] = service.started_in_s
        _announce(
            f"{name} ready in {service.started_in_s:.2f}s at {service.url} "
            f"(pid {service.process.pid}, log {service.log_path})"
        )
        return service.url

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.monotonic()
        yield
        self.stages[name] = time.monotonic() - started

    def summary(self) -> str:
        return ", ".join(f"{name} {seconds:.2f}s" for name, seconds in self.stages.items())


SANDBOX_TIMEOUT_S = 3


def _replay_argv(settings: Settings) -> tuple[list[str], dict[str, str]]:
    argv = python_module_argv(
        "support.replay",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--cassettes",
        str(CASSETTES),
        "--mode",
        settings.model_mode,
        # Listed by /v1/models even before a cassette uses them, so the seed can activate them.
        "--model",
        settings.stable_model_name,
        "--model",
        settings.decision_model_name,
    )
    if settings.model_mode != "replay" and settings.stable_model_base_url:
        argv += ["--upstream", settings.stable_model_base_url]
    if settings.web_search_base_url:
        argv += ["--search-upstream", settings.web_search_base_url]
    if settings.recorded_from:
        argv += ["--recorded-from", settings.recorded_from]
    key = settings.stable_model_api_key
    # The replay server reads its upstream key from the environment (it may come from .env here).
    return argv, ({"E2E_STABLE_MODEL_API_KEY": key.get_secret_value()} if key else {})


def start_services(startup: Startup) -> Endpoints:
    settings = startup.settings
    replay = settings.replay_url
    if replay is None:
        argv, env = _replay_argv(settings)
        replay = startup.start("replay", argv, "REPLAY_READY", env)
    if settings.start_agent_backend:
        run_dir = settings.artifacts_dir / "runs" / settings.run_id
        shellctl: str | None = startup.start(
            "shellctl",
            python_module_argv(
                "agent_builder",
                "shellctl",
                "--host",
                "127.0.0.1",
                "--port",
                str(settings.shellctl_port),
                "--workspaces",
                str(run_dir / "shellctl-workspaces"),
            ),
            "AGENT_BUILDER_READY",
        )
        backend: str | None = startup.start(
            "runtime",
            python_module_argv(
                "agent_builder",
                "runtime",
                "--host",
                "127.0.0.1",
                "--port",
                str(settings.agent_backend_port),
                # Short, so the sandbox-timeout scenario is quick; its cassette records this value.
                "--shell-timeout",
                str(SANDBOX_TIMEOUT_S),
            ),
            "AGENT_BUILDER_READY",
        )
    else:
        backend, shellctl = settings.agent_backend_url(), settings.shellctl_url()
    console = settings.base_url
    if console is None:
        db = settings.artifacts_dir / "runs" / settings.run_id / "console.db"
        argv, env = console_command(db, settings.admin_email, settings.admin_password.get_secret_value())
        env |= {"AGENT_BUILDER_RUNTIME_URL": backend} if backend else {}
        env |= {"AGENT_BUILDER_SHELLCTL_URL": shellctl} if shellctl else {}
        console = startup.start("console", argv, "AGENT_BUILDER_READY", env)
    with startup.stage("console health"):
        wait_healthy(f"{console}/healthz")
    return Endpoints(console, replay, backend, shellctl)


def _behave_env(settings: Settings, endpoints: Endpoints) -> dict[str, str]:
    env = {
        **os.environ,
        "E2E_BASE_URL": endpoints.console,
        "E2E_REPLAY_URL": endpoints.replay,
        "E2E_RUN_ID": settings.run_id,
        # behave uses the services started here through their URLs; starting them again would
        # conflict with those URLs by design (an empty value also overrides a .env entry).
        "E2E_START_AGENT_BACKEND": "",
    }
    if endpoints.agent_backend:
        env["E2E_AGENT_BACKEND_URL"] = endpoints.agent_backend
    if endpoints.shellctl:
        env["E2E_SHELLCTL_URL"] = endpoints.shellctl
    return env


def run_lane(env: dict[str, str], behave_args: list[str]) -> int:
    # Its own session: a terminal Ctrl-C reaches only this orchestrator, which forwards SIGTERM
    # so behave's after_all still closes the browser and writes the reports.
    process = subprocess.Popen(
        python_module_argv("support.lanes", "post-merge", *behave_args),
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    _announce(f"behave started (pid {process.pid})")
    try:
        status = process.wait()
    finally:
        _stop_group(process)
    return status if status >= 0 else 128 - status  # killed by signal N: the shell's 128 + N


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """Stop the process and anything it left in its process group (say, a browser)."""
    try:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=BEHAVE_GRACE_S)
            except subprocess.TimeoutExpired:
                pass
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # the group is already empty
    process.wait()


def main(behave_args: list[str]) -> int:
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _interrupt)
    stack = Stack()
    startup = Startup(settings, stack)
    try:
        endpoints = start_services(startup)
        seed_settings = settings.model_copy(
            update={"base_url": endpoints.console, "replay_url": endpoints.replay}
        )
        with startup.stage("seed"):
            seed_status = seed_and_report(seed_settings, "post-merge", strict=True)
        _announce(f"startup stages: {startup.summary()}")
        if seed_status == EXIT_BLOCKED:
            _announce("the seed is blocked (see the table above): the lane does not run")
            return EXIT_BLOCKED
        return run_lane(_behave_env(settings, endpoints), behave_args)
    except ServiceStartError as error:
        _announce(str(error))
        return EXIT_SERVICE_FAILED
    except Interrupted as interrupted:
        _announce(f"interrupted by {interrupted}: tearing down")
        return 128 + interrupted.signum
    finally:
        _ignore_signals()
        stack.stop()
        _announce("all services stopped")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
