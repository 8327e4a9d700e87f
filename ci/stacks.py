"""The post-merge lane's stacks: per worker, the record/replay server, shellctl and the agent
runtime (with E2E_START_AGENT_BACKEND=1), then the console wired to them, each on free ports with
tokens of its own, logging to `<worker folder>/services/` (`ci.post_merge` starts and stops them).
`replay_argv` is also how `ci.deployed` starts its replay server."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from support.replay.cassette import DEFAULT_CASSETTES_DIR
from support.settings import Settings
from support.stack import (
    Launch,
    ListeningSocket,
    ServiceStartError,
    Stack,
    console_command,
    launch_service,
    python_module_argv,
    wait_healthy,
)

ROOT = Path(__file__).resolve().parents[1]
CASSETTES = ROOT / DEFAULT_CASSETTES_DIR
# Short, so the sandbox-timeout scenario is quick; its cassette records this value.
SANDBOX_TIMEOUT_S = 3
READY = "AGENT_BUILDER_READY"
SHELLCTL_TOKEN = "AGENT_BUILDER_SHELLCTL_TOKEN"
RUNTIME_TOKEN = "AGENT_BUILDER_RUNTIME_TOKEN"


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


def replay_argv(settings: Settings) -> tuple[list[str], dict[str, str]]:
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


def backend_launches(settings: Settings, worker: WorkerStack) -> dict[str, Launch]:
    """Everything the console needs, started at once: replay server, shellctl, runtime."""
    launches: dict[str, Launch] = {}
    if settings.replay_url is None:
        argv, env = replay_argv(settings)
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


def console_launch(settings: Settings, worker: WorkerStack) -> dict[str, Launch]:
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
    for phase in (backend_launches, console_launch):
        launches = {worker.worker_id: phase(settings, worker) for worker in workers}
        for worker in workers:
            worker.start_all(launches[worker.worker_id], stages)
    for worker in workers:
        wait_healthy(f"{worker.behave_env(settings)['E2E_BASE_URL']}/healthz")
