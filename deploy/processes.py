"""Start, probe and stop a deployment's processes. Each runs in a session of its own, detached
from the command that started it (a deployment outlives `up`), with a clean environment: PATH
plus its settings file, as a service manager's EnvironmentFile would give it (and PYTHONPATH, when
the caller runs the product from a checkout). A pid file holds
its process id and start time, so `down` never signals a process that merely reused the id."""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from deploy.recipe import SERVICES, Deployment

STOP_GRACE_S = 10.0
START_TIMEOUT_S = 30.0


class DeployError(RuntimeError):
    """A service did not start; the message names its log."""


def start(deployment: Deployment, service: str) -> None:
    if running_pid(deployment.pid_file(service)) is not None:
        return
    folder = deployment.folder(service)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": str(folder)}
    # Where the product's code comes from, when it is not the installed package (a checkout's
    # copy, e.g. the mutation lane's scratch copy): the same code as the command that started it.
    env |= {
        name: os.environ[name] for name in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE") if name in os.environ
    }
    if service == "caddy":  # its autosave and certificates stay in the deployment's folder
        env |= {"XDG_CONFIG_HOME": str(folder / "config"), "XDG_DATA_HOME": str(folder / "data")}
    else:
        env |= deployment.settings(service)
    with deployment.log(service).open("ab") as log:
        process = subprocess.Popen(
            deployment.argv(service),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=env,
            cwd=folder,
            start_new_session=True,
        )
    deployment.pid_file(service).write_text(f"{process.pid} {_start_time(process.pid)}\n")


def wait_ready(deployment: Deployment, service: str) -> None:
    probe: Callable[[], bool] = (
        (lambda: _https_ok(deployment))
        if service == "caddy"
        else (lambda: _http_ok(getattr(deployment.ports, service)))
    )
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if running_pid(deployment.pid_file(service)) is None:
            raise DeployError(f"{service} exited during start; see {deployment.log(service)}")
        if probe():
            return
        time.sleep(0.1)
    raise DeployError(f"{service} was not ready within {START_TIMEOUT_S:.0f}s; see {deployment.log(service)}")


def stop(deployment: Deployment) -> list[str]:
    """Stop every process of the deployment (Caddy first, then the services in reverse start
    order): SIGTERM to its process group, SIGKILL after the grace period. Returns what it stopped."""
    stopped = []
    for service in ("caddy", *reversed(SERVICES)):
        pid_file = deployment.pid_file(service)
        pid = running_pid(pid_file)
        if pid is not None:
            _signal_group(pid, signal.SIGTERM)
            if not _wait_gone(pid, STOP_GRACE_S):
                _signal_group(pid, signal.SIGKILL)
                _wait_gone(pid, 5.0)
            stopped.append(service)
        pid_file.unlink(missing_ok=True)
    return stopped


def running_pid(pid_file: Path) -> int | None:
    """The pid in the file while that very process (same start time) runs, else None."""
    try:
        pid_text, started = pid_file.read_text().split()
        pid = int(pid_text)
    except (OSError, ValueError):
        return None
    return pid if _start_time(pid) == started else None


def _start_time(pid: int) -> str:
    """The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); "" when
    it is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    fields = stat.rpartition(")")[2].split()
    return "" if fields[0] == "Z" else fields[19]


def _signal_group(pid: int, signum: signal.Signals) -> None:
    try:
        os.killpg(pid, signum)
    except ProcessLookupError:
        pass


def _wait_gone(pid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            finished, _ = os.waitpid(pid, os.WNOHANG)  # our child when `up` and `down` are one run
        except ChildProcessError:
            finished = 0
        if finished or not _start_time(pid):
            return True
        time.sleep(0.05)
    return False


def _http_ok(port: int) -> bool:
    return _status(port, None, None) == 200


def _https_ok(deployment: Deployment) -> bool:
    if not deployment.ca_root.exists():
        return False
    context = ssl.create_default_context(cafile=str(deployment.ca_root))
    return _status(deployment.ports.https, context, deployment.host) == 200


def _status(port: int, context: ssl.SSLContext | None, host: str | None) -> int | None:
    """The status of `GET /healthz` on 127.0.0.1:port (over TLS for `host` with a context)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2.0) as raw:
            sock = context.wrap_socket(raw, server_hostname=host) if context else raw
            name = host or "127.0.0.1"
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n".encode())
            status_line = sock.recv(64).split(b"\r\n", 1)[0]
    except (OSError, ssl.SSLError):
        return None
    parts = status_line.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
