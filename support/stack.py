"""Start, probe and stop the services a lane needs (the embedded console, replay server, runtime).

Each service is a real child process in its own process group. It announces readiness with one
machine-readable line on stdout (`<PREFIX> {"url": ...}`); everything it prints goes to a log file
under the artifacts folder. Stopping is reverse start order, SIGTERM then SIGKILL, and also runs
at interpreter exit so an interrupted run leaves no process behind.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import httpx
from tenacity import retry, retry_if_exception_type, stop_after_delay, wait_fixed

from support.settings.network import tls


class ServiceStartError(RuntimeError):
    """A service did not become ready; the message points at its log."""


def die_with_parent(argv: Sequence[str], signum: signal.Signals = signal.SIGTERM) -> list[str]:
    """`argv` wrapped so the kernel sends `signum` to the child when its parent dies.

    atexit cannot help a parent killed with SIGKILL; this can, so a killed worker or lane never
    leaves a console, runtime or browser behind. util-linux's `setpriv` sets it and then execs
    the command (no `preexec_fn`, which is unsafe beside threads). The parent is the *thread*
    that started the child: start children from the main thread.
    """
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise ServiceStartError("setpriv (Debian/Ubuntu package util-linux) is needed to start services")
    return [setpriv, f"--pdeathsig={signum.name.removeprefix('SIG')}", "--", *argv]


@dataclass
class Service:
    name: str
    url: str
    process: subprocess.Popen[bytes]
    log_path: Path
    started_in_s: float

    def stop(self, grace_s: float = 5.0) -> None:
        stop_services([self], grace_s)

    def wait_or_kill(self, timeout_s: float) -> None:
        try:
            self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            signal_group(self.process, signal.SIGKILL)
            self.process.wait(timeout=5.0)


def signal_group(process: subprocess.Popen[bytes], signum: signal.Signals) -> None:
    """Signal a still-running child's process group (it was started in a session of its own)."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signum)
        except ProcessLookupError:
            pass


def stop_services(services: Sequence[Service], grace_s: float = 5.0) -> None:
    """Asks every service to stop, then gives them one grace period together: one by one, each
    graceful shutdown waited for the previous (2.7 s for a 2-worker post-merge stack)."""
    for service in services:
        signal_group(service.process, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    for service in services:
        service.wait_or_kill(max(0.0, deadline - time.monotonic()))


def _copy_stdout(
    stream: IO[bytes], log: IO[bytes], prefix: bytes, found: list[bytes], ready: threading.Event
) -> None:
    # Keep draining after the ready line, or a chatty service blocks on a full pipe.
    for line in iter(stream.readline, b""):
        log.write(line)
        log.flush()
        if not ready.is_set() and line.startswith(prefix):
            found.append(line[len(prefix) :].strip())
            ready.set()
    ready.set()


@dataclass
class Launch:
    """A started service that has not announced readiness yet: launch several, then wait for all."""

    name: str
    process: subprocess.Popen[bytes]
    log_path: Path
    started: float
    ready: threading.Event
    found: list[bytes]

    def wait(self, timeout_s: float = 20.0) -> Service:
        if not self.ready.wait(timeout_s) or not self.found:
            self.process.kill()
            raise ServiceStartError(
                f"{self.name} did not print its ready line within {timeout_s:.0f}s "
                f"(exit code {self.process.poll()}); see {self.log_path}"
            )
        url = json.loads(self.found[0])["url"]
        return Service(self.name, url, self.process, self.log_path, time.monotonic() - self.started)


class ListeningSocket:
    """A socket listening on `host`, port 0 (a free one) unless given, bound before the service
    that will serve it starts: its URL is known, and connections queue, from the start. Hand it
    to the service as `--fd <fd>` with `launch_service(..., pass_fds=[fd])`, then `close()` this
    process's copy (the service has its own)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.socket = socket.create_server((host, port), backlog=2048)
        self.url = f"http://{host}:{self.socket.getsockname()[1]}"

    @property
    def fd(self) -> int:
        return self.socket.fileno()

    def close(self) -> None:
        self.socket.close()


def launch_service(
    name: str,
    argv: Sequence[str],
    *,
    ready_prefix: str,
    log_path: Path,
    env: Mapping[str, str] | None = None,
    pass_fds: Sequence[int] = (),
) -> Launch:
    """Start a service without waiting for it. Call from the main thread: the service dies with
    the thread that started it (see `die_with_parent`). `pass_fds` stay open, with their numbers,
    in the service (setpriv execs it and keeps them), e.g. a `ListeningSocket` for its `--fd`."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("ab")
    started = time.monotonic()
    process = subprocess.Popen(
        die_with_parent(argv),
        stdout=subprocess.PIPE,
        stderr=log,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
        start_new_session=True,
        pass_fds=tuple(pass_fds),
    )
    _live.append(process)
    found: list[bytes] = []
    ready = threading.Event()
    assert process.stdout is not None
    threading.Thread(
        target=_copy_stdout,
        args=(process.stdout, log, ready_prefix.encode() + b" ", found, ready),
        name=f"{name}-stdout",
        daemon=True,
    ).start()
    return Launch(name, process, log_path, started, ready, found)


def start_service(
    name: str,
    argv: Sequence[str],
    *,
    ready_prefix: str,
    log_path: Path,
    env: Mapping[str, str] | None = None,
    timeout_s: float = 20.0,
    pass_fds: Sequence[int] = (),
) -> Service:
    launch = launch_service(
        name, argv, ready_prefix=ready_prefix, log_path=log_path, env=env, pass_fds=pass_fds
    )
    return launch.wait(timeout_s)


@retry(
    stop=stop_after_delay(10),
    wait=wait_fixed(0.1),
    retry=retry_if_exception_type(httpx.HTTPError),
    reraise=True,
)
def wait_healthy(url: str) -> None:
    httpx.get(url, timeout=2.0, verify=tls()).raise_for_status()


@dataclass
class Stack:
    """The services this process started; `stop` asks the last started first."""

    services: list[Service] = field(default_factory=list)

    def add(self, service: Service) -> Service:
        self.services.append(service)
        return service

    def stop(self) -> None:
        stop_services(self.services[::-1])
        self.services.clear()


_live: list[subprocess.Popen[bytes]] = []


@atexit.register
def _kill_leftovers() -> None:
    for process in _live:
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def python_module_argv(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", module, *args]


def console_command(
    db: Path, admin_email: str, admin_password: str, fd: int | None = None
) -> tuple[list[str], dict[str, str]]:
    """argv and environment of an embedded console on a free port, or on the listening socket
    `fd` (pass it with `pass_fds`), with the test seeding router on."""
    where = ["--host", "127.0.0.1", "--port", "0"] if fd is None else ["--fd", str(fd)]
    argv = python_module_argv("agent_builder", "console", *where, "--db", str(db))
    env = {
        "AGENT_BUILDER_ADMIN_EMAIL": admin_email,
        "AGENT_BUILDER_ADMIN_PASSWORD": admin_password,
        "AGENT_BUILDER_ENABLE_TEST_SEED": "1",
    }
    return argv, env
